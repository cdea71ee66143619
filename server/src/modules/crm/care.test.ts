import { careCustomer, RC } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let admin: string;
let admin2: string;
let sales: string;
let leasing: string;
let cashier: string;
let salesId = 0;
let cashierId = 0;
const ok = (res: { return_code: string; return_msg: string }) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const db = () => s.database.db;

/** A valid 18-digit ID number born on `birth` (YYYYMMDD). */
function idCard(birth: string, seq = 123): string {
  const body = `310115${birth}${String(seq).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((a, c, i) => a + Number(c) * w[i]!, 0);
  return body + '10X98765432'[sum % 11];
}

/** A person living in a room of 阳光花园 with no care record yet: their room, id and relation. */
async function unrecordedResident(relation = 'owner', skip = 0) {
  return db()
    .selectFrom('room_members as rm')
    .select(['rm.hid', 'rm.member_id', 'rm.relation', 'rm.move_in_date'])
    .where('rm.rid', '=', 1)
    .where('rm.status', '=', 'Y')
    .where('rm.relation', '=', relation as 'owner')
    .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM care_customers c WHERE c.rid = 1 AND c.member_id = rm.member_id)`)
    .orderBy('rm.id', 'desc')
    .offset(skip)
    .limit(1)
    .executeTakeFirstOrThrow();
}

const counts = async () =>
  Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM care_customers WHERE rid = 1`.execute(db())).rows[0]!.n);

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, sales, leasing, cashier] = await s.logins('admin', 'admin2', 'sales', 'leasing', 'cashier');
  const accounts = await db().selectFrom('accounts').select(['id', 'username']).where('username', 'in', ['sales', 'cashier']).execute();
  salesId = accounts.find((a) => a.username === 'sales')!.id;
  cashierId = accounts.find((a) => a.username === 'cashier')!.id;
});
afterAll(() => s?.close());

describeResource(careCustomer, {
  server: () => s,
  sample: {
    realname: '测试关怀客户',
    mobile: '13600009999',
    kind: 'other',
    gender: 'F',
    birthday: '1950-05-05',
    attention: ['独居老人'],
    tags: ['测试标签'],
    family_notes: '独居',
    status: 'Y',
    remark: '',
  },
  edit: { realname: '测试关怀客户二', preferences: '上午联系' },
  filters: { keyword: '测试关怀', kind: 'other', special: '独居老人', tag: '测试标签', birth_month: '5', has_open: 'N', status: 'Y' },
  deniedWriter: 'leasing',
});

describe('care records from the owners', () => {
  it('adds a record from a resident: their data, ID birthday, rooms and move-in copied and linked; once a person', async () => {
    const r = await unrecordedResident('owner');
    const card = idCard('19520317');
    await db().updateTable('members').set({ id_card: card, gender: 'M' }).where('rid', '=', 1).where('id', '=', r.member_id).execute();
    const member = await db()
      .selectFrom('members')
      .selectAll()
      .where('rid', '=', 1)
      .where('id', '=', r.member_id)
      .executeTakeFirstOrThrow();
    const pre = await s.call('carememberinfo', { member_id: r.member_id }, admin);
    ok(pre);
    expect(pre.data).toMatchObject({
      realname: member.realname,
      mobile: member.mobile,
      birthday: '1952-03-17',
      kind: 'owner',
      customer_id: null,
    });
    expect(pre.data.houses).not.toBe('');
    const res = await s.call('careadd', { hid: r.hid, member_id: r.member_id, attention: ['行动不便'] }, admin);
    ok(res);
    expect(res.return_msg).toBe('添加成功');
    const row = (await s.call('careinfo', { id: res.data.id }, admin)).data;
    expect(row).toMatchObject({
      member_id: r.member_id,
      realname: member.realname,
      mobile: member.mobile,
      gender: 'M',
      gender_ch: '男',
      birthday: '1952-03-17',
      id_card: card,
      kind: 'owner',
      kind_ch: '业主',
      move_in_date: r.move_in_date,
      attention: ['行动不便'],
    });
    expect(row.hids).toContain(r.hid);
    expect(row.houses).not.toBe('');
    expect(row.age).toBeGreaterThan(70);
    expect((await s.call('carememberinfo', { member_id: r.member_id }, admin)).data.customer_id).toBe(res.data.id);
    // the same person twice is refused, whatever room they are picked by
    const before = await counts();
    const again = await s.call('careadd', { hid: r.hid, member_id: r.member_id }, admin);
    expect(again.return_code).toBe('FAIL');
    expect(again.return_msg).toBe(`该住户已建档（${member.realname}，档案号 ${res.data.id}），不能重复添加`);
    expect(await counts()).toBe(before);
  });

  it('refuses a resident who does not live in the chosen room, and a person not of the community', async () => {
    const r = await unrecordedResident('owner');
    const other = await db()
      .selectFrom('rooms')
      .select('id')
      .where('rid', '=', 1)
      .where('id', '<>', r.hid)
      .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM room_members x WHERE x.rid = 1 AND x.hid = rooms.id AND x.member_id = ${r.member_id})`)
      .limit(1)
      .executeTakeFirstOrThrow();
    const before = await counts();
    const wrong = await s.call('careadd', { hid: other.id, member_id: r.member_id }, admin);
    expect(wrong.return_msg).toBe('住户必须是该房屋的在住住户');
    // 翠湖苑's admin with 阳光花园's room and person
    const theirs = await s.call('careadd', { hid: r.hid, member_id: r.member_id }, admin2);
    expect(theirs.return_code).toBe('FAIL');
    expect(theirs.return_msg).toMatch(/不存在|不属于/);
    expect((await s.call('carememberinfo', { member_id: r.member_id }, admin2)).return_msg).toBe('住户不存在');
    expect(await counts()).toBe(before);
  });

  it('takes a tenant as 租户 and keeps what the form changed', async () => {
    const r = await unrecordedResident('tenant');
    const res = await s.call('careadd', { hid: r.hid, member_id: r.member_id, birthday: '1990-01-02', tags: ['新入住'] }, admin);
    ok(res);
    const row = (await s.call('careinfo', { id: res.data.id }, admin)).data;
    expect(row).toMatchObject({ kind: 'tenant', birthday: '1990-01-02', tags: ['新入住'] });
  });
});

describe('contact data', () => {
  it('shows the mobile and ID number masked without contact_whole; sent back masked they stay; other masked text is refused', async () => {
    const card = idCard('19601010', 456);
    const res = await s.call(
      'careadd',
      { realname: '脱敏测试', mobile: '13600001234', id_card: card, kind: 'other', steward_id: salesId },
      admin,
    );
    ok(res);
    const id = res.data.id;
    const seen = (await s.call('careinfo', { id }, sales)).data;
    expect(seen.mobile).toBe('136****1234');
    expect(seen.id_card).toBe(`3101**********${card.slice(-4)}`);
    expect(seen.birthday).toBe('1960-10-10');
    const listed = (await s.call('carelist', { keyword: '脱敏测试' }, sales)).data.items[0];
    expect(listed.mobile).toBe('136****1234');
    // the edit form sends back what it showed
    ok(await s.call('careedit', { ...seen, id, realname: '脱敏测试二', preferences: '晚上联系' }, sales));
    const stored = await db().selectFrom('care_customers').selectAll().where('rid', '=', 1).where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ realname: '脱敏测试二', mobile: '13600001234', id_card: card });
    const forged = await s.call('careedit', { ...seen, id, mobile: '136****9999' }, sales);
    expect(forged.return_msg).toBe('手机号码格式不正确，应为11位手机号');
    const addMasked = await s.call('careadd', { realname: '假', mobile: '136****9999', kind: 'other' }, admin);
    expect(addMasked.return_msg).toBe('手机号码格式不正确，应为11位手机号');
    expect((await s.call('careinfo', { id }, admin)).data.mobile).toBe('13600001234');
  });
});

describe('refusals', () => {
  it('refuses bad payloads in Chinese and changes nothing', async () => {
    const before = await counts();
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ realname: '甲', mobile: '1234', kind: 'other' }, '手机号码格式不正确，应为11位手机号'],
      [{ realname: '甲', mobile: '13600002222', id_card: '310115199001011234', kind: 'other' }, '身份证号码不正确'],
      [{ realname: '甲', mobile: '13600002222', birthday: '2999-01-01', kind: 'other' }, '生日不能晚于今天'],
      [{ realname: '甲', mobile: '13600002222', birthday: '1990-02-30', kind: 'other' }, /日期不存在/],
      [{ mobile: '13600002222', kind: 'other' }, '请选择住户，或填写姓名和手机号'],
      [{ realname: '甲', mobile: '13600002222', kind: 'vip' }, /客户类型取值不正确/],
      [{ realname: '甲', mobile: '13600002222', attention: ['爱喝茶'] }, /特别关注取值不正确/],
      [{ realname: '甲', mobile: '13600002222', steward_id: cashierId }, '负责管家须为本小区有客户关怀权限的在职员工'],
    ];
    for (const [payload, message] of cases) {
      const res = await s.call('careadd', payload, admin);
      expect(res.return_code, JSON.stringify(payload)).toBe('FAIL');
      expect(res.return_msg).toMatch(message);
    }
    expect(await counts()).toBe(before);
  });

  it('refuses accounts without the care code', async () => {
    for (const token of [cashier, leasing]) {
      expect((await s.call('carelist', {}, token)).return_code).toBe(RC.NO_PERMISSION);
      expect((await s.call('careimport', { bid: 1, kinds: ['owner'] }, token)).return_code).toBe(RC.NO_PERMISSION);
      expect((await s.call('care_staff_small_list', {}, token)).return_code).toBe(RC.NO_PERMISSION);
    }
  });

  it('lists the care staff: the community’s staff holding care, and admin', async () => {
    const res = await s.call('care_staff_small_list', {}, sales);
    ok(res);
    const names = res.data.items.map((i: { title: string }) => i.title);
    expect(names).toContain('冯顾问');
    expect(names).toContain('张经理');
    expect(names).not.toContain('赵收银');
  });

  it('keeps a record with affairs from being deleted', async () => {
    const withAffair = await db().selectFrom('care_affairs').select('customer_id').where('rid', '=', 1).executeTakeFirstOrThrow();
    const res = await s.call('caredel', { id: withAffair.customer_id }, admin);
    expect(res.return_msg).toBe('该客户已有关怀事务，不能删除；不再关怀时请把关怀状态改为已停止');
  });

  it('filters by building, birthday month and open affairs', async () => {
    const b1 = await db().selectFrom('buildings').select('id').where('rid', '=', 1).where('title', '=', '1号楼').executeTakeFirstOrThrow();
    const inB1 = (await s.call('carelist', { bid: b1.id, limit: 200 }, admin)).data;
    expect(inB1.total).toBeGreaterThan(0);
    for (const r of inB1.items) expect(r.houses).toContain('1号楼');
    const month = new Date(Date.now() + 8 * 3_600_000).getUTCMonth() + 1;
    const born = (await s.call('carelist', { birth_month: String(month), limit: 200 }, admin)).data;
    expect(born.total).toBeGreaterThan(0);
    for (const r of born.items) expect(Number(r.birthday.slice(5, 7))).toBe(month);
    const open = (await s.call('carelist', { has_open: 'Y', limit: 200 }, admin)).data;
    expect(open.total).toBeGreaterThan(0);
    for (const r of open.items) expect(r.open_affairs).toBeGreaterThan(0);
    const alone = (await s.call('carelist', { special: '独居老人', limit: 200 }, admin)).data;
    expect(alone.total).toBeGreaterThan(0);
    for (const r of alone.items) expect(r.attention).toContain('独居老人');
  });
});

describe('从住户导入', () => {
  it('previews a building, imports its residents not recorded, all of them once, and counts what it skipped', async () => {
    const b = await db()
      .selectFrom('buildings')
      .select(['id', 'title'])
      .where('rid', '=', 1)
      .where('title', '=', '5号楼')
      .executeTakeFirstOrThrow();
    // one of them recorded already
    const r = await db()
      .selectFrom('room_members as rm')
      .innerJoin('rooms as ro', (j) => j.onRef('ro.rid', '=', 'rm.rid').onRef('ro.id', '=', 'rm.hid'))
      .select(['rm.hid', 'rm.member_id'])
      .where('rm.rid', '=', 1)
      .where('ro.bid', '=', b.id)
      .where('rm.status', '=', 'Y')
      .where('rm.relation', '=', 'owner')
      .limit(1)
      .executeTakeFirstOrThrow();
    ok(await s.call('careadd', { hid: r.hid, member_id: r.member_id }, admin));
    const pre = await s.call('careimportpreview', { bid: b.id, kinds: ['owner', 'tenant'] }, sales);
    ok(pre);
    expect(pre.data.building).toBe('5号楼');
    expect(pre.data.recorded).toBeGreaterThanOrEqual(1);
    expect(pre.data.to_add).toBe(pre.data.residents - pre.data.recorded);
    expect(pre.data.to_add).toBeGreaterThan(0);
    const before = await counts();
    const res = await s.call('careimport', { bid: b.id, kinds: ['owner', 'tenant'], steward_id: salesId }, sales);
    ok(res);
    expect(res.data).toEqual({ added: pre.data.to_add, skipped: pre.data.recorded });
    expect(res.return_msg).toBe(`已从5号楼导入 ${pre.data.to_add} 位住户，${pre.data.recorded} 位已建档未重复导入`);
    expect(await counts()).toBe(before + pre.data.to_add);
    const imported = await db()
      .selectFrom('care_customers')
      .selectAll()
      .where('rid', '=', 1)
      .where('remark', '=', '从住户导入')
      .where('steward_id', '=', salesId)
      .execute();
    expect(imported.length).toBe(pre.data.to_add);
    for (const c of imported) {
      expect(['owner', 'tenant']).toContain(c.kind);
      expect(c.hids.length).toBeGreaterThan(0);
    }
    const again = await s.call('careimport', { bid: b.id, kinds: ['owner', 'tenant'] }, sales);
    expect(again.return_msg).toBe('5号楼的所选住户都已建档，没有可导入的住户');
  });

  it('imports nothing when one record fails, and refuses another community’s building', async () => {
    const b = await db().selectFrom('buildings').select(['id']).where('rid', '=', 1).where('title', '=', '6号楼').executeTakeFirstOrThrow();
    const pre = (await s.call('careimportpreview', { bid: b.id, kinds: ['owner'] }, admin)).data;
    expect(pre.to_add).toBeGreaterThan(1);
    // the last person's record cannot be written (a stand-in for any failure half way)
    const last = await db()
      .selectFrom('room_members as rm')
      .innerJoin('rooms as ro', (j) => j.onRef('ro.rid', '=', 'rm.rid').onRef('ro.id', '=', 'rm.hid'))
      .select('rm.member_id')
      .where('rm.rid', '=', 1)
      .where('ro.bid', '=', b.id)
      .where('rm.status', '=', 'Y')
      .where('rm.relation', '=', 'owner')
      .orderBy('rm.member_id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    await sql`CREATE FUNCTION care_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.member_id = ${sql.lit(last.member_id)} THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`.execute(
      db(),
    );
    await sql`CREATE TRIGGER care_test_refuse BEFORE INSERT ON care_customers FOR EACH ROW EXECUTE FUNCTION care_test_refuse()`.execute(
      db(),
    );
    const before = await counts();
    try {
      const res = await s.call('careimport', { bid: b.id, kinds: ['owner'] }, admin);
      expect(res.return_code).toBe('FAIL');
      expect(await counts()).toBe(before);
    } finally {
      await sql`DROP TRIGGER care_test_refuse ON care_customers`.execute(db());
      await sql`DROP FUNCTION care_test_refuse()`.execute(db());
    }
    const theirs = await s.call('careimportpreview', { bid: b.id, kinds: ['owner'] }, admin2);
    expect(theirs.return_msg).toBe('所选楼栋不存在或不属于当前小区');
    expect((await s.call('careimport', { bid: b.id, kinds: ['owner'] }, admin2)).return_msg).toBe('所选楼栋不存在或不属于当前小区');
    const bad = await s.call('careimportpreview', { bid: b.id, kinds: [] }, admin);
    expect(bad.return_msg).toMatch(/请至少选择一种住户身份/);
  });
});
