import type { CSSProperties, ReactNode } from 'react';
import { Statistic, type StatisticProps, type TableColumnType } from 'antd';
import { formatMoney, type MoneyFormat, type MoneyValue } from '../utils/formatMoney';

export { formatMoney, type MoneyFormat, type MoneyUnit, type MoneyValue } from '../utils/formatMoney';

/*
 * Money drawn on a page, by the convention of utils/formatMoney.ts: right-aligned in tables, digits
 * of one width, so a column's decimals line up.
 */
export const MONEY_STYLE: CSSProperties = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' };

/** An amount in a page: grouped, digits of one width. */
export function Money({ value, unit, empty, testId }: { value: MoneyValue; testId?: string } & MoneyFormat) {
  return (
    <span className="money" style={MONEY_STYLE} data-testid={testId}>
      {formatMoney(value, { unit, empty })}
    </span>
  );
}

/** A money column's title with its unit: 实收 → 实收（元）; a title that already names it keeps it. */
export function moneyTitle(title: string): string {
  if (/[（(]元[^）)]*[）)]$/.test(title)) return title.replace(/\((元[^)]*)\)$/, '（$1）');
  return `${title}（元）`;
}

/**
 * A table column of money: the title says （元）, the cells are right-aligned, grouped amounts.
 * `opts` overrides anything (width, fixed, a render of its own for a cell that needs more); `empty`
 * is what a cell without an amount shows ('' by default).
 */
export function moneyColumn<Row = Record<string, unknown>>(
  title: string,
  dataIndex: string,
  { empty, ...opts }: Omit<TableColumnType<Row>, 'dataIndex'> & { empty?: string } = {},
): TableColumnType<Row> {
  return {
    key: dataIndex,
    dataIndex,
    align: 'right',
    render: (v: MoneyValue) => <Money value={v} empty={empty} />,
    ...opts,
    title: typeof opts.title === 'string' ? opts.title : moneyTitle(title),
  };
}

/** A summary figure of money: ¥12,345.60 under a title without a unit. */
export function MoneyStatistic({
  value,
  empty = '-',
  contentStyle,
  ...props
}: {
  value: MoneyValue;
  empty?: string;
  title: ReactNode;
  /** the figure's own look (a due amount in red) */
  contentStyle?: CSSProperties;
} & Omit<StatisticProps, 'value' | 'title' | 'styles'>) {
  return (
    <Statistic {...props} value={formatMoney(value, { unit: '¥', empty })} styles={{ content: { ...MONEY_STYLE, ...contentStyle } }} />
  );
}
