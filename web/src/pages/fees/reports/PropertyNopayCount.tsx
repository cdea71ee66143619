import { useMemo, useState } from 'react';
import { Select, Space, Statistic, Table, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { PropertyNopayCountRow } from '@wuye/contract/fees';
import { call } from '../../../api/client';
import { useSmallList } from '../../../components/resource';
import EChart from '../EChart';
import ReportCard from './ReportCard';
import { Money, MoneyStatistic, moneyColumn } from '../../../components/Money';
import { axisTooltip, valueAxis } from '../chartUnits';
import { panelTree, placeOf } from './panelTree';

const BUCKETS = [
  ['3个月内', 'm0_3'],
  ['3-6个月', 'm3_6'],
  ['6-12个月', 'm6_12'],
  ['12个月以上', 'm12_plus'],
] as const;

/** 物业费欠费统计 (/feecounts/propertynopaycount): unpaid property fees per building and unit, aged by the end of their period. */
export default function PropertyNopayCount() {
  const navigate = useNavigate();
  const [bid, setBid] = useState<number | undefined>();
  const buildings = useSmallList('building_small_list', {}).items;
  const q = useQuery({ queryKey: ['propertynopaycount', bid], queryFn: () => call('propertynopaycount', { bid }), retry: false });
  const rows = useMemo(() => q.data?.items ?? [], [q.data]);
  const tree = useMemo(() => panelTree(rows), [rows]);
  const option = useMemo(() => {
    const top = rows.filter((r) => r.tid === 0);
    return {
      tooltip: axisTooltip('元'),
      legend: { data: BUCKETS.map(([t]) => t) },
      xAxis: { type: 'category', data: top.map((r) => r.building_title) },
      yAxis: valueAxis('元'),
      series: BUCKETS.map(([name, k]) => ({ name, type: 'bar', stack: 'age', data: top.map((r) => r[k]) })),
    };
  }, [rows]);
  const t = q.data?.totals;
  const open = (r: PropertyNopayCountRow) => void navigate(`/fees/feebilllist?bid=${r.bid}${r.tid ? `&tid=${r.tid}` : ''}`);
  return (
    <ReportCard
      title="物业费欠费统计"
      testId="propertynopaycount-page"
      exportPayload={{ report: 'propertynopaycount', bid }}
      filters={
        <Select
          allowClear
          placeholder="楼栋"
          style={{ width: 140 }}
          value={bid}
          data-testid="nopaycount-building"
          options={buildings.map((b) => ({ value: b.id, label: b.title }))}
          onChange={(v?: number) => setBid(v)}
        />
      }
    >
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }}>
          <Statistic title="欠费户数" value={t.rooms} />
          <MoneyStatistic title="欠费" value={t.arrears} />
          <MoneyStatistic title="含滞纳金合计" value={t.total} />
          <MoneyStatistic title="12个月以上" value={t.m12_plus} />
        </Space>
      )}
      <EChart option={option} height={240} testId="propertynopaycount-chart" />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
        账龄按账期结束日至今天（{q.data?.today ?? ''}）计算；点击楼栋或单元查看其账单。
      </Typography.Paragraph>
      <Table<PropertyNopayCountRow & { key: string }>
        rowKey="key"
        size="small"
        loading={q.isFetching}
        dataSource={tree}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="propertynopaycount-table"
        columns={[
          {
            title: '楼栋 / 单元',
            key: 'place',
            render: (_: unknown, r) => (
              <Typography.Link onClick={() => open(r)} data-testid={`nopaycount-place-${r.tid ? `t${r.tid}` : `b${r.bid}`}`}>
                {placeOf(r)}
              </Typography.Link>
            ),
          },
          { title: '欠费户数', dataIndex: 'rooms', align: 'right' },
          { title: '欠费账单', dataIndex: 'bill_count', align: 'right' },
          ...BUCKETS.map(([title, k]) => moneyColumn<PropertyNopayCountRow & { key: string }>(title, k)),
          moneyColumn('欠费', 'arrears'),
          moneyColumn('滞纳金', 'late_fee'),
          moneyColumn('合计', 'total'),
        ]}
        summary={() =>
          t && (
            <Table.Summary.Row data-testid="nopaycount-totals">
              <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {t.rooms}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                {t.bill_count}
              </Table.Summary.Cell>
              {(['m0_3', 'm3_6', 'm6_12', 'm12_plus', 'arrears', 'late_fee', 'total'] as const).map((k, i) => (
                <Table.Summary.Cell key={k} index={3 + i} align="right">
                  <Money value={t[k]} />
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          )
        }
      />
    </ReportCard>
  );
}
