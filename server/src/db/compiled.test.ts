import { describe, expect, it } from 'vitest';
import { template, type Slots } from './compiled.js';

describe('statement templates', () => {
  const builds: string[] = [];
  const rooms = template((db, p: Slots<{ rid: number; hid: number; title?: string }>, given: { title: boolean }) => {
    builds.push(JSON.stringify(given));
    let qb = db.selectFrom('rooms').select(['id', 'title']).where('rid', '=', p.rid).where('id', '=', p.hid).where('bid', '>', 0);
    if (given.title) qb = qb.where('title', 'like', p.title);
    return qb;
  });

  it('binds each call\'s values where the builder took them, the constants where they were', () => {
    const q = rooms.bind({ title: false }, { rid: 1, hid: 41 });
    expect(q.sql).toBe('select "id", "title" from "rooms" where "rid" = $1 and "id" = $2 and "bid" > $3');
    expect(q.parameters).toEqual([1, 41, 0]);
    expect(rooms.bind({ title: true }, { rid: 2, hid: 7, title: '%1%' }).parameters).toEqual([2, 7, 0, '%1%']);
  });

  it('builds and compiles each shape once', () => {
    builds.length = 0;
    for (let i = 0; i < 5; i++) rooms.bind({ title: false }, { rid: 1, hid: i });
    rooms.bind({ title: true }, { rid: 1, hid: 1, title: '%a%' });
    expect(builds).toEqual([]); // both shapes were built by the test above
    expect(rooms.bind({ title: false }, { rid: 3, hid: 9 }).parameters).toEqual([3, 9, 0]);
  });

  it('refuses a call that lacks a value its shape uses', () => {
    expect(() => rooms.bind({ title: true }, { rid: 1, hid: 1 })).toThrow('no value for title');
  });

  it('keeps a bounded number of shapes, compiling a forgotten one again when asked', () => {
    const paged = template((db, p: { rid: number }, shape: { offset: number }) => {
      builds.push(String(shape.offset));
      return db.selectFrom('rooms').select('id').where('rid', '=', p.rid).offset(shape.offset);
    });
    builds.length = 0;
    for (let offset = 0; offset < 100; offset++) paged.bind({ offset }, { rid: 1 });
    paged.bind({ offset: 99 }, { rid: 1 }); // still kept
    expect(builds).toHaveLength(100);
    paged.bind({ offset: 0 }, { rid: 1 }); // let go, built again
    expect(builds).toHaveLength(101);
  });
});
