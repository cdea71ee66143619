import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePlaces } from '../../lib/placeOrder.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/*
 * Buildings, units and rooms in one order in every list and dropdown (lib/placeOrder.ts): the
 * places given a sort by it, then those left at 0, by name with numbers compared as numbers, then
 * by id. 翠湖苑 (admin2) has 1号楼 … 3号楼, sorted 1 … 3.
 */
let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login('admin2');
});
afterAll(() => s.close());

type Item = { id: number; title: string };
const ok = <T>(r: { return_code: string; return_msg: string; data: T }) => {
  expect(r.return_code, r.return_msg).toBe('SUCCESS');
  return r.data;
};
const titles = (items: Item[]) => items.map((i) => i.title);
const add = async (method: string, payload: Record<string, unknown>) => ok(await s.call(method, payload, admin)) as { id: number };

describe('building order', () => {
  const ids = new Map<string, number>();
  const list = async (sort: 'asc' | 'desc' = 'asc') => titles(ok(await s.call('buildinglist', { limit: 200, sort }, admin)).items);
  const small = async () => titles(ok(await s.call('building_small_list', {}, admin)).items);

  it('puts buildings added without a sort after the sorted ones, in natural order, whatever the order they were added in', async () => {
    for (const title of ['10号楼', 'A座', '9号楼', '20号楼']) ids.set(title, (await add('buildingadd', { title })).id);
    const natural = ['1号楼', '2号楼', '3号楼', '9号楼', '10号楼', '20号楼', 'A座'];
    expect(await list()).toEqual(natural);
    expect(await small()).toEqual(natural);
    // a descending list is the same order reversed, and it pages in it
    expect(await list('desc')).toEqual([...natural].reverse());
    const page2 = ok(await s.call('buildinglist', { page: 2, limit: 3 }, admin));
    expect(titles(page2.items)).toEqual(['9号楼', '10号楼', '20号楼']);
    expect(page2.total).toBe(natural.length);
  });

  it('compares numbers as numbers among equal sorts, names without one last, and a new one last among equals', async () => {
    // every building back to no particular place: the names alone decide
    const all = ok(await s.call('buildinglist', { limit: 200 }, admin)).items as Array<Item & { sort: number }>;
    for (const b of all) if (b.sort !== 0) ok(await s.call('buildingedit', { id: b.id, title: b.title, sort: 0 }, admin));
    ids.set('2号楼', (await add('buildingadd', { title: '2号楼A' })).id);
    const expected = ['1号楼', '2号楼', '2号楼A', '3号楼', '9号楼', '10号楼', '20号楼', 'A座'];
    expect(await list()).toEqual(expected);
    expect(await small()).toEqual(expected);
    // a sort given puts a building before the rest
    ok(await s.call('buildingedit', { id: ids.get('A座'), title: 'A座', sort: 1 }, admin));
    expect((await small())[0]).toBe('A座');
  });

  it('orders a building’s units and a unit’s rooms the same way', async () => {
    const bid = ids.get('10号楼')!;
    const units = new Map<string, number>();
    for (const title of ['10单元', '2单元', '1单元']) units.set(title, (await add('unitadd', { bid, title })).id);
    expect(titles(ok(await s.call('unit_small_list', { bid }, admin)).items)).toEqual(['1单元', '2单元', '10单元']);
    expect(titles(ok(await s.call('unitlist', { bid, limit: 200 }, admin)).items)).toEqual(['1单元', '2单元', '10单元']);
    const tid = units.get('1单元')!;
    for (const [title, floor] of [
      ['1001', 10],
      ['110', 1],
      ['101', 1],
      ['102', 1],
      ['201', 2],
    ] as const)
      await add('roomadd', { bid, tid, title, floor });
    expect(titles(ok(await s.call('room_small_list', { tid }, admin)).items)).toEqual(['101', '102', '110', '201', '1001']);
  });

  it('keeps the units of several buildings in their buildings’ order', async () => {
    const buildingsOfUnits = async () => {
      const items = ok(await s.call('unitlist', { limit: 200 }, admin)).items as Array<Item & { building_title: string }>;
      return items.map((u) => u.building_title).filter((t, i, a) => a.indexOf(t) === i);
    };
    expect(await buildingsOfUnits()).toEqual(['1号楼', '2号楼', '3号楼', '10号楼']);
    ok(await s.call('buildingedit', { id: ids.get('10号楼'), title: '10号楼', sort: 2 }, admin));
    expect(await buildingsOfUnits()).toEqual(['10号楼', '1号楼', '2号楼', '3号楼']);
  });
});

describe('comparePlaces', () => {
  it('is the order the database gives', () => {
    const places = [
      { id: 5, sort: 0, title: 'A座' },
      { id: 1, sort: 2, title: '2号楼' },
      { id: 4, sort: 0, title: '10号楼' },
      { id: 3, sort: 0, title: '9号楼' },
      { id: 2, sort: 1, title: '1号楼' },
      { id: 6, sort: 0, title: '9号楼' },
    ];
    expect([...places].sort(comparePlaces).map((p) => `${p.title}#${p.id}`)).toEqual([
      '1号楼#2',
      '2号楼#1',
      '9号楼#3',
      '9号楼#6',
      '10号楼#4',
      'A座#5',
    ]);
  });
});
