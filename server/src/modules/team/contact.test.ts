import { RC } from '@wuye/contract';
import { maskIdCard, maskMobile } from '@wuye/contract/team/contact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskContactData, maskContactJson } from '../../http/contact-mask.js';
import { JsonText } from '../../http/registry.js';
import { readXlsx } from '../../lib/excel.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let admin = '';
/** 住户管理 without, and with, the code that shows contact data whole */
let masked = '';
let whole = '';
/** an owner of community 1 with a mobile and an ID number */
let owner = { id: 0, mobile: '', id_card: '', realname: '' };

beforeAll(async () => {
  s = await startTestServer();
  await s.addAccount('contact_masked', { roles: ['memberbasis'] });
  await s.addAccount('contact_whole', { roles: ['memberbasis', 'contact_whole'] });
  [admin, masked, whole] = await s.logins('admin', 'contact_masked', 'contact_whole');
  const { rows } = await s.database.pool.query(
    `SELECT id, mobile, id_card, realname FROM members WHERE rid = 1 AND id_card <> '' AND mobile <> '' ORDER BY id LIMIT 1`,
  );
  const first = rows[0] as { id: string; mobile: string; id_card: string; realname: string };
  owner = { ...first, id: Number(first.id) };
}, 120000);
afterAll(() => s.close());

describe('masks', () => {
  it('keeps the first three and last four digits of a mobile, the first and last four of an ID number', () => {
    expect(maskMobile('13800138000')).toBe('138****8000');
    expect(maskMobile('')).toBe('');
    expect(maskMobile('02112345678')).toBe('021****5678');
    expect(maskMobile('8123456')).toBe('***3456');
    expect(maskIdCard('11010519491231002X')).toBe('1101**********002X');
    expect(maskIdCard('')).toBe('');
  });

  it('masks contact fields at any depth, on copies, and on JSON text the database wrote', () => {
    const shared = { items: [{ realname: '张三', mobile: '13800138000', rooms: [{ id_card: '11010519491231002X', phone: '0211234' }] }] };
    const out = maskContactData(shared) as typeof shared;
    expect(out.items[0]!.mobile).toBe('138****8000');
    expect(out.items[0]!.rooms[0]!.id_card).toBe('1101**********002X');
    expect(out.items[0]!.rooms[0]!.phone).toBe('0211234');
    // a cached answer stays whole for the next caller who may see it
    expect(shared.items[0]!.mobile).toBe('13800138000');
    expect(maskContactJson('{"items":[{"mobile":"13800138000","realname":"a\\"mobile\\":\\"x"}]}')).toBe(
      '{"items":[{"mobile":"138****8000","realname":"a\\"mobile\\":\\"x"}]}',
    );
    expect((maskContactData(new JsonText('{"mobile":"13912345678"}')) as JsonText<unknown>).text).toBe('{"mobile":"139****5678"}');
  });
});

describe('answers and exports', () => {
  it('shows owners masked to an account without the code, whole to one with it and to admin', async () => {
    const list = (t: string) => s.call('memberlist', { name: owner.realname, limit: 50 }, t);
    const row = async (t: string) =>
      ((await list(t)).data.items as Array<{ id: number; mobile: string; id_card: string }>).find((m) => m.id === owner.id)!;
    expect(await row(masked)).toMatchObject({ mobile: maskMobile(owner.mobile), id_card: maskIdCard(owner.id_card) });
    expect(await row(whole)).toMatchObject({ mobile: owner.mobile, id_card: owner.id_card });
    expect(await row(admin)).toMatchObject({ mobile: owner.mobile, id_card: owner.id_card });
    const info = await s.call('memberinfo', { id: owner.id }, masked);
    expect(info.data.mobile ?? info.data.info?.mobile).toBe(maskMobile(owner.mobile));
  });

  it('masks the owner search, a tuned path that answers JSON text', async () => {
    const found = await s.call('getkeywordtohouses', { keywords: owner.mobile }, masked);
    expect(found.return_code).toBe(RC.SUCCESS);
    const mobiles = (found.data.items as Array<{ mobile: string }>).map((i) => i.mobile);
    expect(mobiles.length).toBeGreaterThan(0);
    expect(mobiles.every((m) => m.includes('****'))).toBe(true);
    const plain = await s.call('getkeywordtohouses', { keywords: owner.mobile }, whole);
    expect((plain.data.items as Array<{ mobile: string }>).some((i) => i.mobile === owner.mobile)).toBe(true);
  });

  it('masks an export for an account without the code, and logs who exported whole', async () => {
    const m = await readXlsx((await s.exportFile('memberexport', { name: owner.realname }, masked)).data.content_base64);
    const mine = m.rows.find((r) => r.values['身份证号'] === maskIdCard(owner.id_card));
    expect(mine?.values['手机号']).toBe(maskMobile(owner.mobile));
    expect(m.rows.every((r) => String(r.values['手机号'] ?? '').includes('****'))).toBe(true);
    const before = await s.database.pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE message LIKE '导出含业主完整%'`);
    const w = await readXlsx((await s.exportFile('memberexport', { name: owner.realname }, whole)).data.content_base64);
    expect(w.rows.some((r) => r.values['手机号'] === owner.mobile)).toBe(true);
    const { rows } = await s.database.pool.query(
      `SELECT username, rid, method FROM audit_log WHERE message LIKE '导出含业主完整%' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]).toMatchObject({ username: 'contact_whole', rid: 1, method: 'memberexport' });
    const after = await s.database.pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE message LIKE '导出含业主完整%'`);
    expect((after.rows[0] as { n: number }).n).toBe((before.rows[0] as { n: number }).n + 1);
  });
});

describe('editing what was shown masked', () => {
  const edit = (t: string, mobile: string, id_card: string) =>
    s.call('memberedit', { id: owner.id, realname: owner.realname, mobile, id_card }, t);
  const stored = async () =>
    (await s.database.pool.query(`SELECT mobile, id_card, realname FROM members WHERE id = $1`, [owner.id])).rows[0];

  it('keeps the stored values when the masked ones come back unchanged', async () => {
    const res = await edit(masked, maskMobile(owner.mobile), maskIdCard(owner.id_card));
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(await stored()).toMatchObject({ mobile: owner.mobile, id_card: owner.id_card });
  });

  it('refuses masked text that is not the stored value, and changes nothing', async () => {
    const res = await edit(masked, '139****0000', maskIdCard(owner.id_card));
    expect(res.return_code).toBe(RC.FAIL);
    expect(res.return_msg).toBe('手机号码格式不正确，应为11位手机号');
    expect((await edit(masked, maskMobile(owner.mobile), '1234**********5678')).return_msg).toBe('身份证号码不正确');
    expect((await edit(masked, '138**8000', '')).return_code).toBe(RC.FAIL);
    expect(await stored()).toMatchObject({ mobile: owner.mobile, id_card: owner.id_card });
  });

  it('takes a whole new number from anyone who may edit', async () => {
    const res = await edit(masked, '13700001111', maskIdCard(owner.id_card));
    expect(res.return_code).toBe(RC.SUCCESS);
    expect(await stored()).toMatchObject({ mobile: '13700001111', id_card: owner.id_card });
    await edit(admin, owner.mobile, owner.id_card);
  });
});

describe('staff answers', () => {
  it('shows staff mobiles whole to whoever manages staff', async () => {
    await s.addAccount('team_only', { roles: ['team'] });
    const [team] = await s.logins('team_only');
    const list = await s.call('stafflist', { limit: 50 }, team);
    const mobiles = (list.data.items as Array<{ mobile: string }>).map((i) => i.mobile).filter(Boolean);
    expect(mobiles.length).toBeGreaterThan(0);
    expect(mobiles.some((m) => m.includes('*'))).toBe(false);
  });
});
