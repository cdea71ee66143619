import type { TableProps } from 'antd';

/** A pay type's row of a report, with the group's own ways on it as its children (其中：POS机-工行). */
export interface WayRow {
  key: string;
  label: string;
  count: number;
  amount: string;
  balance_used?: string;
  children?: WayRow[];
}

interface WithWays extends Omit<WayRow, 'children'> {
  ways: ReadonlyArray<{ method_id: number; name: string; count: number; amount: string }>;
}

/** The rows of a pay-type table, each own way a child row under its base (docs/product.md#paytypelist). */
export function wayRows(rows: readonly WithWays[]): WayRow[] {
  return rows.map(({ ways, ...r }) => ({
    ...r,
    ...(ways.length
      ? { children: ways.map((m) => ({ key: `way:${m.method_id}`, label: `其中：${m.name}`, count: m.count, amount: m.amount })) }
      : {}),
  }));
}

const isWay = (w: WayRow) => w.key.startsWith('way:');

/** The own ways under their base, open: a split, not a detail to hunt for. */
export const wayExpandable = (rows: WayRow[]): TableProps<WayRow>['expandable'] => ({
  expandedRowKeys: rows.filter((w) => w.children).map((w) => w.key),
  showExpandColumn: false,
});

/** The label cell: an own way's indented and quieter than its base's. */
export const wayLabel = (label: string, w: WayRow) =>
  isWay(w) ? <span style={{ paddingLeft: 16, color: 'var(--ant-color-text-secondary, #595959)' }}>{label}</span> : label;
