import { useMemo, useState } from 'react';
import { Space, Statistic, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { Link } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { addDays, addMonths } from '@wuye/contract/dates';
import type { CostCountFigures, CostCountRow } from '@wuye/contract/fees/costs';
import { call } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { Money, MoneyStatistic } from '../../../components/Money';
import { useAppStore } from '../../../stores/app';
import EChart from '../EChart';
import { axisTooltip, chartValue, valueAxis } from '../chartUnits';
import ReportCard from '../reports/ReportCard';
import YearPicker from '../reports/YearPicker';
import './costs.css';

type Row = CostCountRow & { children?: Row[] };
const MONTHS = Array.from({ length: 12 }, (_, m) => m);
const pad = (n: number) => String(n).padStart(2, '0');

/** The cost list of one row's costs in one month (a category's or an item's). */
function monthLink(row: Pick<CostCountRow, 'level' | 'id'>, year: number, m: number): string {
  const first = `${year}-${pad(m + 1)}-01`;
  const last = addDays(addMonths(first, 1), -1);
  const who = row.level === 'category' ? `category_id=${row.id}` : `item_id=${row.id}`;
  return `/fees/costdetaillist?${who}&pay_range=${first}~${last}`;
}

/** The rows as a tree: each category with its items under it. */
function nest(rows: CostCountRow[]): Row[] {
  const out: Row[] = [];
  for (const r of rows) {
    if (r.level === 'category') out.push({ ...r, children: [] });
    else out[out.length - 1]?.children?.push({ ...r });
  }
  return out;
}

const rate = (v: string | null) =>
  v === null ? (
    '-'
  ) : (
    <Typography.Text type={Number(v) > 0 ? 'danger' : Number(v) < 0 ? 'success' : undefined}>
      {Number(v) > 0 ? '+' : ''}
      {v}%
    </Typography.Text>
  );

/**
 * /feecounts/costcount (成本统计; docs/product.md#costs): a year's registered costs (voided ones
 * never) by category and item × month with their counts, the year to date, each one's share, the
 * same months of last year and the change; a totals row, the categories' donut and the months'
 * bars against last year. A month's figure opens the costs behind it on /fees/costdetaillist.
 */
export default function CostCount() {
  const [year, setYear] = useState<Dayjs>(dayjs());
  const y = year.year();
  const mobile = useAppStore((st) => st.device) === 'mobile';
  const q = useQuery({ queryKey: ['costcount', y], queryFn: () => call('costcount', { year: y }), retry: false });
  const report = q.data;
  const tree = useMemo(() => nest(report?.rows ?? []), [report]);
  // every category open until the user folds one
  const [folded, setFolded] = useState<string[]>([]);
  const categories = useMemo(() => (report?.rows ?? []).filter((r) => r.level === 'category'), [report]);
  const donut = useMemo(
    () => ({
      tooltip: {
        trigger: 'item',
        formatter: (p: { marker: string; name: string; value: string; percent: number }) =>
          `${p.marker}${p.name}：${chartValue(p.value, '元')}（${p.percent}%）`,
      },
      legend: { bottom: 0, type: 'scroll' },
      series: [
        {
          name: '本年累计',
          type: 'pie',
          radius: ['38%', '65%'],
          center: ['50%', '44%'],
          // on a phone the names outside the ring ran into the legend: the ring shows the larger shares, the legend names
          label: mobile
            ? { position: 'inside', formatter: (p: { percent: number }) => (p.percent >= 8 ? `${Math.round(p.percent)}%` : '') }
            : { formatter: '{b}\n{d}%' },
          data: categories.filter((c) => c.total !== '0.00').map((c) => ({ name: c.name, value: c.total })),
        },
      ],
    }),
    [categories, mobile],
  );
  const bars = useMemo(
    () => ({
      tooltip: axisTooltip('元'),
      legend: { top: 0, data: [`${y}年`, `${y - 1}年`] },
      grid: { top: 48, left: 8, right: 8, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: MONTHS.map((m) => `${m + 1}月`) },
      yAxis: valueAxis('元'),
      series: [
        { name: `${y}年`, type: 'bar', data: report?.totals.months ?? [] },
        { name: `${y - 1}年`, type: 'bar', data: report?.last_months ?? [] },
      ],
    }),
    [report, y],
  );
  const through = report?.through_month ?? 12;
  const columns: TableColumnsType<Row> = [
    {
      title: '成本分类 / 项目',
      key: 'name',
      fixed: mobile ? undefined : 'left',
      width: 170,
      render: (_, r) => (r.level === 'category' ? <Typography.Text strong>{r.name}</Typography.Text> : r.name),
    },
    ...MONTHS.map((m) => ({
      title: `${m + 1}月`,
      key: `m${m}`,
      align: 'right' as const,
      render: (_: unknown, r: Row) =>
        r.counts[m] ? (
          <Link to={monthLink(r, y, m)} data-testid={`costcount-cell-${r.key}-${m + 1}`} title={`${r.counts[m]} 笔，查看明细`}>
            <Money value={r.months[m]!} />
          </Link>
        ) : m < through ? (
          <Typography.Text type="secondary">0.00</Typography.Text>
        ) : (
          ''
        ),
    })),
    { title: '本年累计（元）', key: 'total', align: 'right', render: (_, r) => <Money value={r.total} /> },
    { title: '笔数', key: 'count', align: 'right', dataIndex: 'count' },
    { title: '占比', key: 'share', align: 'right', render: (_, r) => `${r.share}%` },
    { title: '上年同期（元）', key: 'last', align: 'right', render: (_, r) => <Money value={r.last_total} /> },
    { title: '同比增减（元）', key: 'change', align: 'right', render: (_, r) => <Money value={r.change} /> },
    { title: '增减率', key: 'rate', align: 'right', render: (_, r) => rate(r.change_rate) },
  ];
  const t: CostCountFigures | undefined = report?.totals;
  const span = through === 12 ? '全年' : through === 0 ? '' : `1-${through}月`;
  return (
    <ReportCard
      title="成本统计"
      testId="costcount-page"
      onExport={() => runExport('costcountexport', { year: y })}
      filters={<YearPicker value={year} onChange={setYear} testId="costcount-year" />}
    >
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="costcount-figures">
          <MoneyStatistic title={`本年累计（${span || '未开始'}）`} value={t.total} />
          <Statistic title="笔数" value={t.count} />
          <MoneyStatistic title={`上年同期（${y - 1}年${span}）`} value={t.last_total} />
          <Statistic title="同比" value={t.change_rate === null ? '-' : `${Number(t.change_rate) > 0 ? '+' : ''}${t.change_rate}%`} />
        </Space>
      )}
      <div className="costcount-charts">
        <div>
          <Typography.Text type="secondary">按分类占比</Typography.Text>
          <EChart option={donut} height={280} testId="costcount-donut" />
        </div>
        <div>
          <Typography.Text type="secondary">月度支出对比</Typography.Text>
          <EChart option={bars} height={280} testId="costcount-bars" />
        </div>
      </div>
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
        只计已登记的成本，作废的不计；本年累计为本年截至本月（往年为全年），占比为占本年累计合计的比例，上年同期为上一年相同月份。点击月份金额查看明细。
      </Typography.Paragraph>
      <Table<Row>
        rowKey="key"
        size="small"
        loading={q.isFetching}
        dataSource={tree}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowKeys: tree.map((r) => r.key).filter((k) => !folded.includes(k)),
          onExpand: (open, r) => setFolded((f) => (open ? f.filter((k) => k !== r.key) : [...f, r.key])),
        }}
        data-testid="costcount-table"
        summary={() =>
          t && (
            <Table.Summary.Row data-testid="costcount-totals">
              <Table.Summary.Cell index={0}>
                <Typography.Text strong>合计</Typography.Text>
              </Table.Summary.Cell>
              {MONTHS.map((m) => (
                <Table.Summary.Cell key={m} index={1 + m} align="right">
                  <Money value={t.months[m]!} />
                </Table.Summary.Cell>
              ))}
              <Table.Summary.Cell index={13} align="right">
                <Money value={t.total} testId="costcount-total" />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={14} align="right">
                {t.count}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={15} align="right">
                {t.share}%
              </Table.Summary.Cell>
              <Table.Summary.Cell index={16} align="right">
                <Money value={t.last_total} />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={17} align="right">
                <Money value={t.change} />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={18} align="right">
                {rate(t.change_rate)}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )
        }
      />
    </ReportCard>
  );
}
