import { groupedAmount } from '@wuye/contract/home';

/** A report's money column: right-aligned, thousands grouped (sums run to tens of millions). */
export const amountColumn = (title: string, dataIndex: string) => ({
  title,
  dataIndex,
  align: 'right' as const,
  render: (v: string) => groupedAmount(v),
});
