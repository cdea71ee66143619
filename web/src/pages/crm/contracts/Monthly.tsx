import { useMemo, useState } from 'react';
import { Space, Statistic, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { Link } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { addDays, addMonths } from '@wuye/contract/dates';
import { CONTRACT_KIND, type ContractKind, type ContractMonthFigures, type ContractMonthRow } from '@wuye/contract/crm/contracts';
import { call } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { Money, MoneyStatistic } from '../../../components/Money';
import EChart from '../../fees/EChart';
import { axisTooltip, valueAxis } from '../../fees/chartUnits';
import ReportCard from '../../fees/reports/ReportCard';
import YearPicker from '../../fees/reports/YearPicker';

const KINDS = Object.keys(CONTRACT_KIND) as ContractKind[];
const pad = (n: number) => String(n).padStart(2, '0');

/** The contract list of the contracts signed in one month. */
function signedLink(year: number, month: number): string {
  const first = `${year}-${pad(month)}-01`;
  return `/crm/roomsaleslist?signed=${first}~${addDays(addMonths(first, 1), -1)}`;
}

const rate = (v: string | null) => (v === null ? '-' : `${v}%`);

/**
 * /crm/contractmonthly (签约回款月报; docs/product.md#crm-contracts): a year's contracts signed
 * (approved ones, by signing date; count, amount and kinds) and money planned and collected, month
 * by month, with the year's totals; the months' bars of signed against collected. A month's count
 * opens the contracts signed in it.
 */
export default function ContractMonthlyReport() {
  const [year, setYear] = useState<Dayjs>(dayjs());
  const y = year.year();
  const q = useQuery({ queryKey: ['contractmonthly', y], queryFn: () => call('contractmonthly', { year: y }), retry: false });
  const report = q.data;
  const bars = useMemo(
    () => ({
      tooltip: axisTooltip('元'),
      legend: { top: 0, data: ['签约金额', '计划回款', '实际回款'] },
      grid: { top: 48, left: 8, right: 8, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: (report?.rows ?? []).map((r) => `${r.month}月`) },
      yAxis: valueAxis('元'),
      series: [
        { name: '签约金额', type: 'bar', data: (report?.rows ?? []).map((r) => r.signed_amount) },
        { name: '计划回款', type: 'bar', data: (report?.rows ?? []).map((r) => r.planned_amount) },
        { name: '实际回款', type: 'bar', data: (report?.rows ?? []).map((r) => r.collected_amount) },
      ],
    }),
    [report],
  );
  const columns: TableColumnsType<ContractMonthRow> = [
    { title: '月份', key: 'month', render: (_, r) => `${r.month}月`, width: 70 },
    {
      title: '签约份数',
      key: 'signed_count',
      align: 'right',
      render: (_, r) =>
        r.signed_count ? (
          <Link to={signedLink(y, r.month)} data-testid={`contractmonthly-signed-${r.month}`} title="查看当月签订的合同">
            {r.signed_count}
          </Link>
        ) : (
          0
        ),
    },
    { title: '签约金额（元）', key: 'signed_amount', align: 'right', render: (_, r) => <Money value={r.signed_amount} /> },
    ...KINDS.map((k) => ({
      title: CONTRACT_KIND[k].text,
      key: `kind-${k}`,
      align: 'right' as const,
      render: (_: unknown, r: ContractMonthRow) => r.kinds[k],
    })),
    { title: '计划回款（元）', key: 'planned', align: 'right', render: (_, r) => <Money value={r.planned_amount} /> },
    { title: '其中已收（元）', key: 'planned_paid', align: 'right', render: (_, r) => <Money value={r.planned_paid} /> },
    { title: '回款率', key: 'rate', align: 'right', render: (_, r) => rate(r.collection_rate) },
    { title: '实际回款（元）', key: 'collected', align: 'right', render: (_, r) => <Money value={r.collected_amount} /> },
    { title: '回款笔数', key: 'collected_count', align: 'right', dataIndex: 'collected_count' },
  ];
  const t: ContractMonthFigures | undefined = report?.totals;
  return (
    <ReportCard
      title="签约回款月报"
      testId="contractmonthly-page"
      onExport={() => runExport('contractmonthlyexport', { year: y })}
      filters={<YearPicker value={year} onChange={setYear} testId="contractmonthly-year" />}
    >
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="contractmonthly-figures">
          <Statistic title={`${y}年签约份数`} value={t.signed_count} />
          <MoneyStatistic title="签约金额" value={t.signed_amount} />
          <MoneyStatistic title="计划回款" value={t.planned_amount} />
          <Statistic title="回款率" value={rate(t.collection_rate)} />
          <MoneyStatistic title="实际回款" value={t.collected_amount} />
        </Space>
      )}
      <EChart option={bars} height={280} testId="contractmonthly-bars" />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
        签约只计审批通过的合同（生效、到期、已续签、终止），按签订日期；计划回款为当月到期的收款计划，其中已收为这些计划至今已收的部分；实际回款按收款时间，已退款的不计。点击签约份数查看当月签订的合同。
      </Typography.Paragraph>
      <Table<ContractMonthRow>
        rowKey="month"
        size="small"
        loading={q.isFetching}
        dataSource={report?.rows ?? []}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="contractmonthly-table"
        summary={() =>
          t && (
            <Table.Summary.Row data-testid="contractmonthly-totals">
              <Table.Summary.Cell index={0}>
                <Typography.Text strong>合计</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {t.signed_count}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                <Money value={t.signed_amount} testId="contractmonthly-signed-total" />
              </Table.Summary.Cell>
              {KINDS.map((k, i) => (
                <Table.Summary.Cell key={k} index={3 + i} align="right">
                  {t.kinds[k]}
                </Table.Summary.Cell>
              ))}
              <Table.Summary.Cell index={7} align="right">
                <Money value={t.planned_amount} />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={8} align="right">
                <Money value={t.planned_paid} />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={9} align="right">
                {rate(t.collection_rate)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={10} align="right">
                <Money value={t.collected_amount} testId="contractmonthly-collected-total" />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={11} align="right">
                {t.collected_count}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )
        }
      />
    </ReportCard>
  );
}
