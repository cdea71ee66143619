/** A list whose rows name their parent (parent_id), shown as antd's tree table takes it. */
type RowBase = { id: number } & object;

/** Rows nested under their parents by `parentKey`, as antd's tree table takes them (children). */
export function nestRows<Row extends RowBase>(items: readonly Row[], parentKey: string): Row[] {
  type Node = Row & { children?: Node[] };
  const nodes = new Map<number, Node>(items.map((r) => [r.id, { ...r }]));
  const roots: Node[] = [];
  for (const r of items) {
    const node = nodes.get(r.id)!;
    const parentId = (r as Record<string, unknown>)[parentKey];
    const parent = typeof parentId === 'number' ? nodes.get(parentId) : undefined;
    if (parent && parent !== node) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** The ids of the rows that have children, at any depth. */
export function branchIds<Row extends RowBase>(rows: readonly Row[], out: number[] = []): number[] {
  for (const r of rows) {
    const children = (r as { children?: Row[] }).children;
    if (children?.length) {
      out.push(r.id);
      branchIds(children, out);
    }
  }
  return out;
}
