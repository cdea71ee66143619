import { useMemo, useState } from 'react';
import { Button, Card, DatePicker, Radio, Space, Statistic, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import { REPAIR_COUNT_GROUP, type RepairCountGroup, type RepairCountRow } from '@wuye/contract';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { rangePickerPresets } from '../../components/resource';
import { useSystem } from '../../stores/system';
import EChart from '../fees/EChart';

const GROUP_TITLE: Record<RepairCountGroup, string> = { type: '报修类型', handler: '处理人', day: '日期', month: '月份' };
const FIGURES: Array<{ key: keyof RepairCountRow; title: string; suffix?: string }> = [
  { key: 'created', title: '登记' },
  { key: 'finished', title: '完工' },
  { key: 'ontime', title: '按时完工' },
  { key: 'overdue', title: '超时' },
  { key: 'accept_hours', title: '平均接单（小时）' },
  { key: 'finish_hours', title: '平均完工（小时）' },
  { key: 'rated', title: '评价数' },
  { key: 'rating_avg', title: '平均评分' },
  { key: 'satisfaction', title: '满意率', suffix: '%' },
];
const shown = (v: string | number, suffix = '') => (v === '' ? '-' : `${v}${suffix}`);

/** 报修统计 (/feecounts/repaircount; docs/product.md#repair-count): a period's repair figures by type, handler, day or month. */
export default function RepairCount() {
  const zone = useSystem((s) => s.info?.time_zone) || undefined;
  const presets = useMemo(() => rangePickerPresets(zone), [zone]);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => presets.find((p) => p.label === '本月')!.value);
  const [group, setGroup] = useState<RepairCountGroup>('type');
  const [exporting, setExporting] = useState(false);
  const payload = { start_date: range[0].format('YYYY-MM-DD'), end_date: range[1].format('YYYY-MM-DD'), group };
  const q = useQuery({ queryKey: ['repaircount', payload], queryFn: () => call('repaircount', payload), retry: false });
  const items = useMemo(() => q.data?.items ?? [], [q.data]);
  const t = q.data?.totals;
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: ['登记', '完工', '超时'], top: 0 },
      grid: { left: 40, right: 16, top: 40, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: items.map((r) => r.label), axisLabel: { interval: 0, rotate: items.length > 6 ? 30 : 0 } },
      yAxis: { type: 'value', name: '单', minInterval: 1 },
      series: [
        { name: '登记', type: group === 'day' ? 'line' : 'bar', data: items.map((r) => r.created) },
        { name: '完工', type: group === 'day' ? 'line' : 'bar', data: items.map((r) => r.finished) },
        { name: '超时', type: group === 'day' ? 'line' : 'bar', data: items.map((r) => r.overdue), color: '#f4516c' },
      ],
    }),
    [items, group],
  );
  const doExport = async () => {
    setExporting(true);
    try {
      await runExport('repaircountexport', payload);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Card title="报修统计" data-testid="repaircount-page">
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
        <Space wrap style={{ flex: 1 }}>
          <DatePicker.RangePicker
            value={range}
            presets={presets}
            allowClear={false}
            inputReadOnly
            data-testid="repaircount-range"
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Radio.Group
            optionType="button"
            value={group}
            data-testid="repaircount-group"
            options={(Object.keys(REPAIR_COUNT_GROUP) as RepairCountGroup[]).map((k) => ({ value: k, label: REPAIR_COUNT_GROUP[k].text }))}
            onChange={(e) => setGroup(e.target.value as RepairCountGroup)}
          />
        </Space>
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="report-export">
          导出 Excel
        </Button>
      </div>
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="repaircount-figures">
          <Statistic title="登记" value={t.created} />
          <Statistic title="完工" value={t.finished} />
          <Statistic title="超时" value={t.overdue} valueStyle={t.overdue ? { color: '#f4516c' } : undefined} />
          <Statistic title="平均完工（小时）" value={shown(t.finish_hours)} />
          <Statistic title="满意率" value={shown(t.satisfaction, '%')} />
        </Space>
      )}
      <EChart option={option} height={240} testId="repaircount-chart" />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
        各项按区间内发生的事件计：登记、完工、接单、评价、首次超时；完工时长扣除暂停时长；按时完工 =
        在完成时限（加上暂停时长）内完工；满意率 = 4 分及以上的评价 ÷ 评价数。
      </Typography.Paragraph>
      <Table<RepairCountRow>
        rowKey="key"
        size="small"
        loading={q.isFetching}
        dataSource={items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="repaircount-table"
        columns={[
          { title: GROUP_TITLE[group], dataIndex: 'label', fixed: 'left' },
          ...FIGURES.map((f) => ({
            title: f.title,
            dataIndex: f.key,
            align: 'right' as const,
            render: (v: string | number) => shown(v, f.suffix),
          })),
        ]}
        summary={() =>
          t && (
            <Table.Summary.Row data-testid="repaircount-totals">
              <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
              {FIGURES.map((f, i) => (
                <Table.Summary.Cell key={f.key} index={1 + i} align="right">
                  {shown(t[f.key], f.suffix)}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          )
        }
      />
    </Card>
  );
}
