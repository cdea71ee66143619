import { useState, type ReactNode } from 'react';
import { DatePicker, Select, Space, Statistic, Table, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { Money, MoneyStatistic } from '../../../components/Money';
import { useDayPresets } from '../../invoice/shared';

/** A report's days, with the presets (今天 … 本年): this month (本月) by default, as the server's, in the community's calendar. */
export function useMonthRange() {
  const presets = useDayPresets();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => presets.find((p) => p.label === '本月')!.value);
  const days = { start_date: range[0].format('YYYY-MM-DD'), end_date: range[1].format('YYYY-MM-DD') };
  const picker = (
    <DatePicker.RangePicker
      // a fixed width: on a phone the filters' row then wraps (the export below) instead of cutting the days short
      style={{ width: 250 }}
      value={range}
      presets={presets}
      allowClear={false}
      inputReadOnly
      onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
      data-testid="card-report-range"
    />
  );
  return { days, picker };
}

/** The reports' filter options (stores, coupon templates, operators), read once a session. */
export function useReportOptions() {
  return useQuery({ queryKey: ['cardreport_small_list'], queryFn: () => call('cardreport_small_list', {}), staleTime: 60_000 }).data;
}

/** The stores' filter of a report. */
export function MerchantFilter({
  value,
  onChange,
  testId,
}: {
  value: number | undefined;
  onChange: (v: number | undefined) => void;
  testId: string;
}) {
  const options = useReportOptions();
  return (
    <OptionFilter
      placeholder="商户"
      value={value}
      onChange={onChange}
      options={(options?.merchants ?? []).map((m) => ({ value: m.id, label: m.title }))}
      testId={testId}
    />
  );
}

/** A report's headline figures, [title, figure] each: money as ¥ text, counts as numbers. */
export function Figures({ items, testId }: { items: Array<[string, string | number]>; testId: string }) {
  return (
    <Space size="large" wrap style={{ marginBottom: 12 }} data-testid={testId}>
      {items.map(([title, v]) =>
        typeof v === 'number' ? <Statistic key={title} title={title} value={v} /> : <MoneyStatistic key={title} title={title} value={v} />,
      )}
    </Space>
  );
}

/** A filter picking one of a small list's items ('' none). */
export function OptionFilter<V extends string | number>({
  placeholder,
  value,
  onChange,
  options,
  testId,
  width = 150,
}: {
  placeholder: string;
  value: V | undefined;
  onChange: (v: V | undefined) => void;
  options: Array<{ value: V; label: string }>;
  testId: string;
  width?: number;
}) {
  return (
    <Select<V>
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={placeholder}
      style={{ width }}
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      options={options}
      data-testid={testId}
    />
  );
}

const grouped = new Intl.NumberFormat('en-US');
/** A count as a table shows it: 31,567. */
export const whole = (n: number) => grouped.format(n);

/**
 * A report table's 合计 row: the first cell says so (over `span` columns), then one cell a column of
 * `cells` (a count as it is, money as Money).
 */
export function TotalsRow({ span, cells, testId }: { span: number; cells: Array<string | number>; testId: string }): ReactNode {
  return (
    <Table.Summary fixed>
      <Table.Summary.Row data-testid={testId}>
        <Table.Summary.Cell index={0} colSpan={span}>
          合计
        </Table.Summary.Cell>
        {cells.map((v, i) => (
          <Table.Summary.Cell key={i} index={span + i} align="right">
            {typeof v === 'number' ? whole(v) : <Money value={v} />}
          </Table.Summary.Cell>
        ))}
      </Table.Summary.Row>
    </Table.Summary>
  );
}

/** A report's table: one answer's rows (no pages), keyed by `key`, scrolling sideways inside itself, with its 合计 row. */
export function ReportTable<T extends { key: string }>({
  rows,
  columns,
  loading,
  totals,
  testId,
}: {
  rows: T[];
  columns: TableColumnsType<T>;
  loading?: boolean;
  totals?: ReactNode;
  testId: string;
}) {
  return (
    <Table<T>
      rowKey="key"
      size="small"
      bordered
      scroll={{ x: 'max-content' }}
      loading={loading}
      dataSource={rows}
      pagination={false}
      columns={columns}
      data-testid={testId}
      summary={() => totals}
    />
  );
}
