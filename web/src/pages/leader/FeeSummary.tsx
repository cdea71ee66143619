import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, DatePicker, Drawer, Select, Space, Statistic, Table, Tabs, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import {
  GROUP_FEE_FORMULAS,
  toFen,
  type GroupFeeFigures,
  type GroupFeeRankBy,
  type GroupFeeRow,
  type GroupFeeTrendRow,
} from '@wuye/contract';
import { call } from '../../api/client';
import { Money, MoneyStatistic, moneyColumn, moneyTitle } from '../../components/Money';
import { saveFile } from '../../utils/files';
import EChart from '../fees/EChart';
import ReportCard from '../fees/reports/ReportCard';
import { PropertyPayCountTable } from '../fees/reports/PropertyPayCountTable';
import { axisTooltip, valueAxis } from '../fees/chartUnits';

type Formula = keyof typeof GROUP_FEE_FORMULAS;

/** A column header with its formula as a tooltip (docs/product.md#group-fee-summary). */
function Head({ text, formula }: { text: string; formula: Formula }) {
  return (
    <Tooltip title={GROUP_FEE_FORMULAS[formula]}>
      <span data-testid={`feesummary-head-${formula}`} style={{ whiteSpace: 'nowrap' }}>
        {text} <QuestionCircleOutlined style={{ color: 'rgba(0,0,0,0.45)' }} />
      </span>
    </Tooltip>
  );
}

const RANK_BY: Array<{ value: GroupFeeRankBy; label: string }> = [
  { value: 'rate', label: '按收费率排名' },
  { value: 'household_rate', label: '按户收费率排名' },
  { value: 'clear_rate', label: '按清缴率排名' },
  { value: 'received_current', label: '按当期实收排名' },
  { value: 'receivable', label: '按当期应收排名' },
];

const MONEY_COLS: Array<{ key: Formula & keyof GroupFeeFigures; text: string }> = [
  { key: 'arrears_before', text: '历史欠费' },
  { key: 'recovered', text: '欠费追回' },
  { key: 'receivable', text: '当期应收' },
  { key: 'received_current', text: '当期实收' },
  { key: 'prepaid', text: '预交' },
];
const COUNT_COLS: Array<{ key: 'households' | 'paying_households' | 'owing_households'; text: string }> = [
  { key: 'households', text: '收费户' },
  { key: 'paying_households', text: '缴费户' },
  { key: 'owing_households', text: '欠费户' },
];
const RATE_COLS: Array<{ key: 'household_rate' | 'rate' | 'clear_rate'; text: string }> = [
  { key: 'household_rate', text: '户收费率' },
  { key: 'rate', text: '收费率' },
  { key: 'clear_rate', text: '清缴率' },
];

/** Compares two decimal strings exactly (money, percents): never as floats. */
const byDecimal = (k: keyof GroupFeeFigures) => (a: GroupFeeFigures, b: GroupFeeFigures) => {
  const d = toFen(String(a[k])) - toFen(String(b[k]));
  return d > 0n ? 1 : d < 0n ? -1 : 0;
};

type Range = { start_period: string; end_period: string };

/** 集团收费汇总 (/leader/feecount): every community of the group, ranked, with a total, a trend and a drill-down. */
export default function FeeSummary() {
  const year = dayjs().startOf('year');
  const [months, setMonths] = useState<[Dayjs, Dayjs]>([year, year.endOf('year')]);
  const [rankBy, setRankBy] = useState<GroupFeeRankBy>('rate');
  const [open, setOpen] = useState<{ row: GroupFeeRow; tab: 'trend' | 'detail' } | null>(null);
  const range: Range = { start_period: months[0].format('YYYY-MM'), end_period: months[1].format('YYYY-MM') };
  const payload = { ...range, rank_by: rankBy };
  const q = useQuery({ queryKey: ['leaderfeesummary', payload], queryFn: () => call('leaderfeesummary', payload), retry: false });
  const groupTrend = useQuery({ queryKey: ['leaderfeetrend', range], queryFn: () => call('leaderfeetrend', range), retry: false });
  const rows = useMemo(() => q.data?.items ?? [], [q.data]);
  const t = q.data?.totals;
  const trendOption = useMemo(() => trendChart(groupTrend.data?.items ?? []), [groupTrend.data]);

  const columns = [
    {
      title: '排名',
      dataIndex: 'rank',
      key: 'rank',
      width: 64,
      fixed: 'left' as const,
      align: 'center' as const,
      sorter: (a: GroupFeeRow, b: GroupFeeRow) => a.rank - b.rank,
    },
    {
      title: '小区',
      dataIndex: 'title',
      key: 'title',
      fixed: 'left' as const,
      render: (v: string, r: GroupFeeRow) => (
        <Tooltip title="查看该小区的物业费收缴统计">
          <Button
            type="link"
            size="small"
            style={{ padding: 0 }}
            data-testid={`feesummary-open-${r.rid}`}
            onClick={() => setOpen({ row: r, tab: 'detail' })}
          >
            {v}
          </Button>
        </Tooltip>
      ),
    },
    ...RATE_COLS.map((c) => ({
      title: <Head text={c.text} formula={c.key} />,
      dataIndex: c.key,
      key: c.key,
      align: 'right' as const,
      sorter: byDecimal(c.key),
      render: (v: string) => `${v}%`,
    })),
    ...COUNT_COLS.map((c) => ({
      title: <Head text={c.text} formula={c.key} />,
      dataIndex: c.key,
      key: c.key,
      align: 'right' as const,
      sorter: (a: GroupFeeRow, b: GroupFeeRow) => a[c.key] - b[c.key],
    })),
    ...MONEY_COLS.map((c) => ({
      ...moneyColumn<GroupFeeRow>(c.text, c.key, { title: <Head text={moneyTitle(c.text)} formula={c.key} /> }),
      sorter: byDecimal(c.key),
    })),
    {
      title: '操作',
      key: 'op',
      fixed: 'right' as const,
      render: (_: unknown, r: GroupFeeRow) => (
        <Space size={4}>
          <Button type="link" size="small" data-testid={`feesummary-trend-${r.rid}`} onClick={() => setOpen({ row: r, tab: 'trend' })}>
            趋势
          </Button>
          <Button type="link" size="small" data-testid={`feesummary-detail-${r.rid}`} onClick={() => setOpen({ row: r, tab: 'detail' })}>
            明细
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <ReportCard
      title="集团收费汇总（物业费）"
      testId="leader-feesummary-page"
      onExport={async () => saveFile(await call('leaderfeesummaryexport', payload))}
      filters={
        <>
          <DatePicker.RangePicker
            picker="month"
            value={months}
            allowClear={false}
            inputReadOnly
            data-testid="feesummary-range"
            presets={[
              { label: '本年', value: [year, year.endOf('year')] },
              { label: '上年', value: [year.subtract(1, 'year'), year.subtract(1, 'year').endOf('year')] },
              { label: '本月', value: [dayjs().startOf('month'), dayjs().startOf('month')] },
              { label: '近三个月', value: [dayjs().subtract(2, 'month'), dayjs()] },
            ]}
            onChange={(v) => v?.[0] && v[1] && setMonths([v[0], v[1]])}
          />
          <Select<GroupFeeRankBy>
            value={rankBy}
            style={{ width: 150 }}
            options={RANK_BY}
            data-testid="feesummary-rankby"
            onChange={setRankBy}
          />
        </>
      }
    >
      {q.isError && <Alert type="error" showIcon title={(q.error as Error).message} style={{ marginBottom: 12 }} />}
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="feesummary-stats">
          <Statistic title="小区数" value={rows.length} />
          <MoneyStatistic title="历史欠费" value={t.arrears_before} />
          <MoneyStatistic title="当期应收" value={t.receivable} />
          <MoneyStatistic title="当期实收" value={t.received_current} />
          <Statistic title="收费率" value={`${t.rate}%`} />
          <Statistic title="户收费率" value={`${t.household_rate}%`} />
          <Statistic title="清缴率" value={`${t.clear_rate}%`} />
        </Space>
      )}
      <EChart option={trendOption} height={220} testId="feesummary-chart" />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
        物业费，与各小区“物业费收缴统计”同一口径：{GROUP_FEE_FORMULAS.rate}；{GROUP_FEE_FORMULAS.household_rate}；
        {GROUP_FEE_FORMULAS.clear_rate}。点击小区名称或“明细”查看该小区各楼栋、单元的收缴统计。
      </Typography.Paragraph>
      <Table<GroupFeeRow>
        rowKey="rid"
        size="small"
        loading={q.isFetching}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        showSorterTooltip={false}
        data-testid="feesummary-table"
        columns={columns}
        summary={() =>
          t && (
            <Table.Summary fixed="bottom">
              <Table.Summary.Row data-testid="feesummary-totals">
                <Table.Summary.Cell index={0} />
                <Table.Summary.Cell index={1}>
                  <Typography.Text strong>集团合计</Typography.Text>
                </Table.Summary.Cell>
                {RATE_COLS.map((c, i) => (
                  <Table.Summary.Cell key={c.key} index={2 + i} align="right">
                    {t[c.key]}%
                  </Table.Summary.Cell>
                ))}
                {COUNT_COLS.map((c, i) => (
                  <Table.Summary.Cell key={c.key} index={5 + i} align="right">
                    {t[c.key]}
                  </Table.Summary.Cell>
                ))}
                {MONEY_COLS.map((c, i) => (
                  <Table.Summary.Cell key={c.key} index={8 + i} align="right">
                    <Money value={t[c.key]} />
                  </Table.Summary.Cell>
                ))}
                <Table.Summary.Cell index={13} />
              </Table.Summary.Row>
            </Table.Summary>
          )
        }
      />
      <CommunityDrawer open={open} range={range} onTab={(tab) => open && setOpen({ ...open, tab })} onClose={() => setOpen(null)} />
    </ReportCard>
  );
}

/** 应收 and 当期实收 as bars, 收费率 as a line on its own axis. */
function trendChart(items: GroupFeeTrendRow[]) {
  return {
    tooltip: axisTooltip('元'),
    legend: { data: ['应收', '当期实收', '收费率'] },
    xAxis: { type: 'category', data: items.map((i) => i.month) },
    yAxis: [valueAxis('元'), valueAxis('%', { max: 100, splitLine: { show: false } })],
    series: [
      { name: '应收', type: 'bar', data: items.map((i) => i.receivable) },
      { name: '当期实收', type: 'bar', data: items.map((i) => i.received_current) },
      {
        name: '收费率',
        type: 'line',
        yAxisIndex: 1,
        data: items.map((i) => i.rate),
        tooltip: { valueFormatter: (v: unknown) => `${String(v)}%` },
      },
    ],
  };
}

/**
 * A community's month-by-month trend and its 物业费收缴统计 per building and unit (the same query as
 * the community's own report): a group account cannot enter a community's console, so the
 * drill-down shows the community's report here.
 */
function CommunityDrawer({
  open,
  range,
  onTab,
  onClose,
}: {
  open: { row: GroupFeeRow; tab: 'trend' | 'detail' } | null;
  range: Range;
  onTab: (tab: 'trend' | 'detail') => void;
  onClose: () => void;
}) {
  const rid = open?.row.rid ?? 0;
  const args = { ...range, rid };
  const trend = useQuery({
    queryKey: ['leaderfeetrend', args],
    queryFn: () => call('leaderfeetrend', args),
    enabled: !!open && open.tab === 'trend',
    retry: false,
  });
  const detail = useQuery({
    queryKey: ['leaderfeedetail', args],
    queryFn: () => call('leaderfeedetail', args),
    enabled: !!open && open.tab === 'detail',
    retry: false,
  });
  const trendItems = trend.data?.items ?? [];
  const option = useMemo(() => trendChart(trend.data?.items ?? []), [trend.data]);
  const dt = detail.data?.totals;
  let body: ReactNode = null;
  if (open?.tab === 'trend') {
    body = (
      <>
        <EChart option={option} height={240} testId="feesummary-trend-chart" />
        <Table<GroupFeeTrendRow>
          rowKey="month"
          size="small"
          loading={trend.isFetching}
          dataSource={trendItems}
          pagination={false}
          data-testid="feesummary-trend-table"
          columns={[
            { title: '月份', dataIndex: 'month', key: 'month' },
            moneyColumn('应收', 'receivable'),
            moneyColumn('当期实收', 'received_current'),
            moneyColumn('当月收款', 'received'),
            { title: '收费率', dataIndex: 'rate', key: 'rate', align: 'right', render: (v: string) => `${v}%` },
          ]}
        />
      </>
    );
  } else if (open) {
    body = (
      <>
        <Typography.Paragraph type="secondary">
          {range.start_period} 至 {range.end_period} 的物业费收缴统计，与该小区“收费报表 → 物业费收缴统计”同一查询。
        </Typography.Paragraph>
        <PropertyPayCountTable
          rows={detail.data?.items ?? []}
          totals={dt}
          loading={detail.isFetching}
          testId="feesummary-detail-table"
          totalsTestId="feesummary-detail-totals"
        />
      </>
    );
  }
  return (
    <Drawer
      open={!!open}
      onClose={onClose}
      size={Math.min(960, window.innerWidth)}
      title={open ? `${open.row.title} · ${range.start_period} 至 ${range.end_period}` : ''}
      destroyOnHidden
      data-testid="feesummary-drawer"
    >
      <Tabs
        activeKey={open?.tab ?? 'trend'}
        onChange={(k) => onTab(k as 'trend' | 'detail')}
        items={[
          { key: 'trend', label: '月度趋势' },
          { key: 'detail', label: '物业费收缴统计' },
        ]}
      />
      {body}
    </Drawer>
  );
}
