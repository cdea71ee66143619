/** A panel's flat rows (each building's row, tid 0, before its units) as a tree: units under their building. */
export function panelTree<R extends { bid: number; tid: number }>(
  rows: R[],
): Array<R & { key: string; children?: Array<R & { key: string }> }> {
  const out: Array<R & { key: string; children?: Array<R & { key: string }> }> = [];
  for (const r of rows) {
    if (r.tid === 0) out.push({ ...r, key: `b${r.bid}`, children: [] });
    else out[out.length - 1]?.children?.push({ ...r, key: `t${r.tid}` });
  }
  return out;
}

/** The place of a panel row: the building, or its unit. */
export const placeOf = (r: { tid: number; building_title: string; unit_title: string }) => (r.tid === 0 ? r.building_title : r.unit_title);
