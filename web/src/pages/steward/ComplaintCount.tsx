import { useMemo, useState } from 'react';
import { Button, DatePicker, Segmented, Space, Statistic, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import type { ComplaintCountRow } from '@wuye/contract/steward/complaints';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { rangePickerPresets } from '../../components/resource/dateRanges';
import EChart from '../fees/EChart';
import ReportCard from '../fees/reports/ReportCard';

type Group = 'by_kind' | 'by_category' | 'by_handler';
const GROUPS: Array<{ value: Group; label: string }> = [
  { value: 'by_kind', label: '按类型' },
  { value: 'by_category', label: '按分类' },
  { value: 'by_handler', label: '按处理人' },
];
const dash = (v: string | null) => v ?? '—';

/**
 * 投诉统计 (/feecounts/complaintcount; docs/product.md#complaint-count): a period's complaints by type,
 * category or handler, with the totals, a chart and an Excel export.
 */
export default function ComplaintCount() {
  const presets = useMemo(() => rangePickerPresets(), []);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(
    () => presets.find((p) => p.label === '本月')?.value ?? [dayjs().startOf('month'), dayjs()],
  );
  const [group, setGroup] = useState<Group>('by_kind');
  const [exporting, setExporting] = useState(false);
  const payload = { start_date: range[0].format('YYYY-MM-DD'), end_date: range[1].format('YYYY-MM-DD') };
  const q = useQuery({ queryKey: ['complaintcount', payload], queryFn: () => call('complaintcount', payload), retry: false });
  const rows = useMemo(() => q.data?.[group] ?? [], [q.data, group]);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: ['登记', '办结', '按时办结', '超时'], top: 0, right: 0 },
      grid: { left: 40, right: 16, top: 48, bottom: 40 },
      xAxis: { type: 'category', data: rows.map((r) => r.label), axisLabel: { interval: 0, rotate: rows.length > 6 ? 30 : 0 } },
      yAxis: { type: 'value', name: '件', minInterval: 1 },
      series: [
        { name: '登记', type: 'bar', data: rows.map((r) => r.created) },
        { name: '办结', type: 'bar', data: rows.map((r) => r.finished) },
        { name: '按时办结', type: 'bar', data: rows.map((r) => r.on_time) },
        { name: '超时', type: 'bar', data: rows.map((r) => r.overdue), itemStyle: { color: '#ff4d4f' } },
      ],
    }),
    [rows],
  );
  const t = q.data?.totals;
  const doExport = async () => {
    setExporting(true);
    try {
      await runExport('complaintcountexport', payload);
    } finally {
      setExporting(false);
    }
  };
  return (
    <ReportCard
      title="投诉统计"
      testId="complaintcount-page"
      filters={
        <>
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            inputReadOnly
            presets={presets}
            data-testid="complaintcount-range"
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Segmented<Group> options={GROUPS} value={group} onChange={setGroup} data-testid="complaintcount-group" />
        </>
      }
      extra={
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="report-export">
          导出 Excel
        </Button>
      }
    >
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="complaintcount-totals">
          <Statistic title="登记" value={t.created} />
          <Statistic title="办结" value={t.finished} />
          <Statistic title="按时办结" value={t.on_time} />
          <Statistic title="超时" value={t.overdue} valueStyle={t.overdue > 0 ? { color: '#cf1322' } : undefined} />
          <Statistic title="平均首次响应" value={dash(t.avg_response_hours)} suffix={t.avg_response_hours ? '小时' : undefined} />
          <Statistic title="平均办结" value={dash(t.avg_close_hours)} suffix={t.avg_close_hours ? '小时' : undefined} />
          <Statistic title="平均满意度" value={dash(t.avg_rating)} />
          <Statistic title="满意率" value={t.satisfaction_rate ? `${t.satisfaction_rate}%` : '—'} />
        </Space>
      )}
      <EChart option={option} height={260} testId="complaintcount-chart" />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
        统计所选期间内登记的投诉建议。办结：待评价或已完成；按时办结：未超任何时限且在办结截止前办结；超时：首次响应或办结超时；
        时长自登记起算；满意率 = 4–5 星评价数 ÷ 评价数。
      </Typography.Paragraph>
      <Table<ComplaintCountRow>
        rowKey="key"
        size="small"
        loading={q.isFetching}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="complaintcount-table"
        columns={[
          { title: GROUPS.find((g) => g.value === group)!.label.slice(1), dataIndex: 'label' },
          { title: '登记', dataIndex: 'created', align: 'right' },
          { title: '办结', dataIndex: 'finished', align: 'right' },
          { title: '按时办结', dataIndex: 'on_time', align: 'right' },
          { title: '超时', dataIndex: 'overdue', align: 'right' },
          { title: '平均首次响应（小时）', dataIndex: 'avg_response_hours', align: 'right', render: dash },
          { title: '平均办结（小时）', dataIndex: 'avg_close_hours', align: 'right', render: dash },
          { title: '评价数', dataIndex: 'rated', align: 'right' },
          { title: '平均满意度', dataIndex: 'avg_rating', align: 'right', render: dash },
          { title: '满意率', dataIndex: 'satisfaction_rate', align: 'right', render: (v: string | null) => (v ? `${v}%` : '—') },
        ]}
        summary={() =>
          t && (
            <Table.Summary.Row data-testid="complaintcount-sum">
              <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
              {(['created', 'finished', 'on_time', 'overdue'] as const).map((k, i) => (
                <Table.Summary.Cell key={k} index={1 + i} align="right">
                  {t[k]}
                </Table.Summary.Cell>
              ))}
              <Table.Summary.Cell index={5} align="right">
                {dash(t.avg_response_hours)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={6} align="right">
                {dash(t.avg_close_hours)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={7} align="right">
                {t.rated}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={8} align="right">
                {dash(t.avg_rating)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={9} align="right">
                {t.satisfaction_rate ? `${t.satisfaction_rate}%` : '—'}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )
        }
      />
    </ReportCard>
  );
}
