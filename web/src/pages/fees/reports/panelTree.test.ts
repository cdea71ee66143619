import { describe, expect, it } from 'vitest';
import { panelTree, placeOf } from './panelTree';

describe('panelTree', () => {
  it('puts each unit under the building row before it', () => {
    const rows = [
      { bid: 1, tid: 0, building_title: '1号楼', unit_title: '' },
      { bid: 1, tid: 11, building_title: '1号楼', unit_title: '1单元' },
      { bid: 1, tid: 12, building_title: '1号楼', unit_title: '2单元' },
      { bid: 2, tid: 0, building_title: '2号楼', unit_title: '' },
      { bid: 2, tid: 21, building_title: '2号楼', unit_title: '1单元' },
    ];
    const tree = panelTree(rows);
    expect(tree.map((b) => [b.key, placeOf(b), b.children?.map(placeOf)])).toEqual([
      ['b1', '1号楼', ['1单元', '2单元']],
      ['b2', '2号楼', ['1单元']],
    ]);
  });
});
