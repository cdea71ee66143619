import { useState } from 'react';
import { Button, Card, Col, DatePicker, Row, Select, Space, Statistic, Table } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import type { GuardReportRow, PlanDayRow, PointMissRow } from '@wuye/contract';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { useSmallList } from '../../components/resource';

/**
 * /security/patrolplanreport (巡更报表; docs/product.md#patrols): per plan and day (due, done, partial,
 * not started, rate), per guard (points due, done, missed, late, abnormal, make-ups), the ten points
 * missed most and the check-ins by hour; export.
 */
export default function PlanReport() {
  const [params] = useSearchParams();
  // ?day= opens one day (a record's drill-down); else the last 30 days
  const day = params.get('day');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() =>
    day && dayjs(day).isValid() ? [dayjs(day), dayjs(day)] : [dayjs().subtract(29, 'day'), dayjs()],
  );
  const [planId, setPlanId] = useState<number>();
  const plans = useSmallList('patrolplan_small_list', {});
  const input = { day: [range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD')] as [string, string], plan_id: planId ?? '' };
  const report = useQuery({ queryKey: ['patrolplanreport', input], queryFn: () => call('patrolplanreport', input) });
  const r = report.data;
  const maxHour = Math.max(1, ...(r?.hours ?? [0]));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="patrol-report">
      <Card size="small">
        <Space wrap>
          <DatePicker.RangePicker value={range} allowClear={false} onChange={(v) => v && v[0] && v[1] && setRange([v[0], v[1]])} />
          <Select
            allowClear
            placeholder="全部计划"
            style={{ width: 160 }}
            value={planId}
            onChange={setPlanId}
            options={plans.items.map((p) => ({ value: p.id, label: p.title }))}
            data-testid="report-plan"
          />
          <Button icon={<DownloadOutlined />} onClick={() => void runExport('patrolplanreportexport', input)}>
            导出
          </Button>
        </Space>
      </Card>
      {r && (
        <Row gutter={[12, 12]}>
          {(
            [
              ['应巡任务', r.totals.due, 'report-due'],
              ['完成', r.totals.done, 'report-done'],
              ['部分完成', r.totals.partial, 'report-partial'],
              ['未巡', r.totals.missed, 'report-missed'],
              ['应巡点', r.totals.points_due, 'report-points-due'],
              ['已巡点', r.totals.points_done, 'report-points-done'],
              ['异常', r.totals.abnormal, 'report-abnormal'],
            ] as const
          ).map(([t, v, id]) => (
            <Col key={t} xs={12} sm={6} md={3}>
              <Card size="small" data-testid={id}>
                <Statistic title={t} value={v} />
              </Card>
            </Col>
          ))}
          <Col xs={12} sm={6} md={3}>
            <Card size="small">
              <Statistic title="点完成率" value={r.totals.rate} suffix="%" />
            </Card>
          </Col>
        </Row>
      )}
      <Card size="small" title="按计划和日期">
        <Table<PlanDayRow>
          size="small"
          rowKey={(x) => `${x.day}-${x.plan_id}`}
          loading={report.isFetching}
          dataSource={r?.plans ?? []}
          pagination={{ pageSize: 10 }}
          columns={[
            { title: '日期', dataIndex: 'day', width: 110 },
            { title: '计划', dataIndex: 'plan_name' },
            { title: '应巡', dataIndex: 'due', width: 70 },
            { title: '完成', dataIndex: 'done', width: 70 },
            { title: '部分完成', dataIndex: 'partial', width: 90 },
            { title: '未巡', dataIndex: 'missed', width: 70 },
            { title: '进行中', dataIndex: 'open', width: 80 },
            { title: '完成率(%)', dataIndex: 'rate', width: 90 },
          ]}
        />
      </Card>
      <Row gutter={12}>
        <Col xs={24} lg={14}>
          <Card size="small" title="按人员">
            <Table<GuardReportRow>
              size="small"
              rowKey="guard_id"
              dataSource={r?.guards ?? []}
              pagination={false}
              data-testid="report-guards"
              columns={[
                { title: '巡更人', dataIndex: 'guard_name' },
                { title: '任务', dataIndex: 'tasks', width: 60 },
                { title: '应巡点', dataIndex: 'points_due', width: 70 },
                { title: '已巡', dataIndex: 'points_done', width: 60 },
                { title: '漏巡', dataIndex: 'points_missed', width: 60 },
                { title: '迟到', dataIndex: 'late', width: 60 },
                { title: '异常', dataIndex: 'abnormal', width: 60 },
                { title: '补检', dataIndex: 'makeup', width: 60 },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card size="small" title="漏巡最多的点">
            <Table<PointMissRow>
              size="small"
              rowKey="point_id"
              dataSource={r?.points ?? []}
              pagination={false}
              columns={[
                { title: '巡更点', dataIndex: 'point_name' },
                { title: '漏巡次数', dataIndex: 'missed', width: 90 },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <Card size="small" title="按小时的签到数">
        <div style={{ display: 'flex', alignItems: 'flex-end', gap: 4, height: 120 }}>
          {(r?.hours ?? []).map((n, h) => (
            <div key={h} style={{ flex: 1, textAlign: 'center', fontSize: 11 }} title={`${h}时：${n}次`}>
              <div style={{ background: '#1677ff', height: Math.round((n * 90) / maxHour), minHeight: n ? 2 : 0 }} />
              {h}
            </div>
          ))}
        </div>
      </Card>
    </Space>
  );
}
