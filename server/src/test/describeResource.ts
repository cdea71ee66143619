/**
 * The generic test of a resource (docs/resources.md): add → listed → each filter narrows → edit →
 * duplicate refused → a refused role → another owner's account (another community's, or for a
 * group-owned resource another group's head office) neither sees nor changes the row → delete →
 * 不存在; the answers carry the enums' texts. A group-owned resource is also served to its group's
 * head office on the group side. The safety suite adds the registry-wide isolation and hostile
 * payloads, so a resource's own test file is about its business rules.
 */
import { addDays, keysIn, matchOf, shows, type ResourceDef } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

type Payload = Record<string, unknown>;

export interface ResourceCase {
  /** a valid add payload; may read ids from the demo data */
  sample: Payload | ((s: TestServer, token: string) => Promise<Payload> | Payload);
  /** the changes of an edit (merged over the sample) */
  edit: Payload;
  /** an account that may read and write it (default admin) */
  writer?: string;
  /** an account the write roles refuse (merchant, steward…) */
  deniedWriter: string;
  /** fields whose value alone makes the added row unique (a second add with them is refused); none: no duplicate check */
  unique?: string[];
  /** filters to try, by field: the value that finds the added row (default: the sample's value) */
  filters?: Record<string, unknown>;
  /** the server the case runs on, when the file already has one */
  server?: () => TestServer;
  /** an account of another community that must not reach the row (default admin2; a group-owned resource makes another group's head office) */
  outsider?: string;
}

/** A second property company and its head office's token: none of the first group's rows are its. */
export async function otherGroupLeader(s: TestServer): Promise<string> {
  const db = s.database.db;
  const { id: groupId } = await db.insertInto('groups').values({ title: '另一家物业公司' }).returning('id').executeTakeFirstOrThrow();
  const { password_hash } = await db
    .selectFrom('accounts')
    .select('password_hash')
    .where('username', '=', 'leader')
    .executeTakeFirstOrThrow();
  const username = `leader_of_group_${groupId}`;
  await db
    .insertInto('accounts')
    .values({ username, password_hash, name: '别家总部', roles: ['leader_admin'], sys_type: 'leader', group_id: groupId })
    .execute();
  return s.login(username);
}

const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
/** A wire time or date within [from, to], both days included. */
const inRange = (time: string, [from, to]: [string, string]) => time.slice(0, 10) >= from && time.slice(0, 10) <= to;

export function describeResource(resource: { def: ResourceDef }, c: ResourceCase): void {
  const { def } = resource;
  const m = def.methods;
  const byGroup = def.owner === 'group';
  describe(`resource ${def.name} (${def.label})`, () => {
    let own: TestServer | undefined;
    let s: TestServer;
    let writer: string;
    let denied: string;
    let sample: Payload;
    let id = 0;

    beforeAll(async () => {
      s = c.server?.() ?? (own = await startTestServer());
      writer = await s.login(c.writer ?? 'admin');
      denied = await s.login(c.deniedWriter);
      sample = typeof c.sample === 'function' ? await c.sample(s, writer) : c.sample;
    });
    afterAll(() => own?.close());

    const listAll = async (filters: Payload = {}) => {
      const res = await s.call(m.list, { limit: 200, sort: 'desc', ...filters }, writer);
      ok(res);
      return res.data as { items: Array<Record<string, unknown>>; total: number };
    };

    it('adds a row and lists it, with coded values as text', async () => {
      if (!m.add) return;
      const res = await s.call(m.add, sample, writer);
      ok(res);
      expect(res.return_msg).toBe('添加成功');
      id = res.data.id;
      expect(id).toBeGreaterThan(0);
      const row = (await listAll()).items.find((r) => r.id === id);
      expect(row, `${m.list} lists the new row`).toBeDefined();
      for (const [key, f] of Object.entries(def.fields)) {
        if (!shows(f, 'table') || !(key in sample)) continue;
        if (f.enum) expect(row![`${key}_ch`]).toBe((f.enum as Record<string, { text: string }>)[String(row![key])]?.text);
      }
    });

    it('narrows the list by each filter', async () => {
      if (!id) return;
      const all = await listAll();
      for (const key of keysIn(def, 'filter')) {
        const value = c.filters?.[key] ?? sample[key];
        if (value === undefined) continue;
        const found = await listAll({ [key]: value });
        expect(
          found.items.some((r) => r.id === id),
          `filter ${key}=${String(value)} finds the row`,
        ).toBe(true);
        expect(found.total, `filter ${key} narrows`).toBeLessThanOrEqual(all.total);
        const match = matchOf(def.fields[key]!);
        for (const r of found.items) {
          if (!(key in r)) continue;
          const kept = `filter ${key} keeps only matching rows`;
          if (match === 'like') expect(String(r[key]), kept).toContain(String(value));
          else if (match === 'range') expect(inRange(String(r[key]), value as [string, string]), kept).toBe(true);
          else expect(String(r[key]), kept).toBe(String(value));
        }
        if (match === 'range') {
          // the days before the range leave the row out
          const before = addDays((value as [string, string])[0], -1);
          const earlier = await listAll({ [key]: [addDays(before, -30), before] });
          expect(
            earlier.items.some((r) => r.id === id),
            `filter ${key} before the row leaves it out`,
          ).toBe(false);
        }
      }
    });

    it('refuses a duplicate', async () => {
      if (!id || !c.unique?.length) return;
      const res = await s.call(m.add!, sample, writer);
      expect(res.return_code).toBe('FAIL');
      expect(res.return_msg).toMatch(/已存在|已有|已登记/);
    });

    it('edits the row', async () => {
      if (!id || !m.edit) return;
      const res = await s.call(m.edit, { ...sample, ...c.edit, id }, writer);
      ok(res);
      expect(res.return_msg).toBe('保存成功');
      const row = (await listAll()).items.find((r) => r.id === id)!;
      for (const [key, value] of Object.entries(c.edit)) if (key in row) expect(String(row[key])).toBe(String(value));
      const missing = await s.call(m.edit, { ...sample, ...c.edit, id: 2_000_000_000 }, writer);
      expect(missing.return_msg).toBe(`${def.label}不存在`);
    });

    it('refuses writes to a role without write access, and changes nothing', async () => {
      if (!id) return;
      const before = await listAll();
      if (m.add) expect((await s.call(m.add, sample, denied)).return_code).toBe('NO_PERMISSION');
      if (m.edit) expect((await s.call(m.edit, { ...sample, ...c.edit, id }, denied)).return_code).toBe('NO_PERMISSION');
      if (m.del) expect((await s.call(m.del, { id }, denied)).return_code).toBe('NO_PERMISSION');
      expect((await listAll()).total).toBe(before.total);
    });

    if (byGroup)
      it("serves the group's head office on the group side", async () => {
        if (!id) return;
        const leader = await s.login('leader');
        const res = await s.call(m.list, { limit: 200, sort: 'desc' }, leader, 'group');
        ok(res);
        expect((res.data.items as Array<{ id: number }>).some((r) => r.id === id)).toBe(true);
        if (m.edit) ok(await s.call(m.edit, { ...sample, ...c.edit, id }, leader, 'group'));
      });

    it(`keeps the row from ${byGroup ? "another group's head office" : "another community's account"}, given its id`, async () => {
      if (!id) return;
      const [outsider, side] = byGroup
        ? [await otherGroupLeader(s), 'group' as const]
        : [await s.login(c.outsider ?? 'admin2'), 'community' as const];
      const before = (await listAll()).items.find((r) => r.id === id);
      const theirs = await s.call(m.list, { limit: 200, sort: 'desc' }, outsider, side);
      ok(theirs);
      expect((theirs.data.items as Array<{ id: number }>).some((r) => r.id === id)).toBe(false);
      const refused = (res: { return_code: string; return_msg: string }) => {
        expect(res.return_code).toBe('FAIL');
        // a community's hand-written edit may check the payload's own ids first; the generic ones answer 不存在
        if (byGroup) expect(res.return_msg).toBe(`${def.label}不存在`);
      };
      if (m.edit) refused(await s.call(m.edit, { ...sample, ...c.edit, id }, outsider, side));
      if (m.del) refused(await s.call(m.del, { id }, outsider, side));
      if (m.info) refused(await s.call(m.info, { id }, outsider, side));
      if (byGroup && m.small) {
        const small = await s.call(m.small, {}, outsider, side);
        ok(small);
        expect((small.data.items as Array<{ id: number }>).some((r) => r.id === id)).toBe(false);
      }
      expect((await listAll()).items.find((r) => r.id === id)).toEqual(before);
    });

    it('deletes the row, then answers 不存在', async () => {
      if (!id || !m.del) return;
      const res = await s.call(m.del, { id }, writer);
      ok(res);
      expect(res.return_msg).toBe('删除成功');
      expect((await listAll()).items.some((r) => r.id === id)).toBe(false);
      expect((await s.call(m.del, { id }, writer)).return_msg).toBe(`${def.label}不存在`);
      if (m.info) expect((await s.call(m.info, { id }, writer)).return_msg).toBe(`${def.label}不存在`);
    });

    it('answers the small list and the export', async () => {
      if (m.small) {
        const params = Object.fromEntries((def.smallBy ?? []).map((k) => [k, sample[k]]));
        const res = await s.call(m.small, params, writer);
        ok(res);
        expect(Array.isArray(res.data.items)).toBe(true);
      }
      if (m.export) {
        const file = await s.exportFile(m.export as never, {}, writer);
        ok(file);
        expect(file.data.filename).toMatch(/\.xlsx$/);
      }
    });
  });
}
