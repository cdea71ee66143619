import { RC, hasAnyRole } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodDef } from '../http/registry.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/**
 * Walks the method registry, so a method added later cannot escape these checks:
 * no token, roles not allowed, and the two sides kept apart.
 */
let s: TestServer;
let defs: MethodDef[];
const tokens: Record<string, string> = {};
/** Community accounts walked; what each holds is what its session says (userinfo), from its own codes and its roles. */
const ACCOUNTS = ['cashier', 'steward', 'merchant', 'finance', 'tech', 'guard'];
const held: Record<string, string[]> = {};
/** 'staff' methods are the property company's: the merchant account is the one kept out */
const MERCHANTS = new Set(['merchant']);

beforeAll(async () => {
  s = await startTestServer();
  defs = s.app.registry.all();
  for (const name of [...ACCOUNTS, 'leader', 'admin']) tokens[name] = await s.login(name);
  for (const name of ACCOUNTS) held[name] = (await s.call<{ roles: string[] }>('userinfo', {}, tokens[name])).data.roles;
});
afterAll(() => s.close());

const endpointSide = (def: MethodDef) => (def.spec.side === 'group' ? 'group' : 'community');

describe('every method', () => {
  it('answers 50008 without a token unless it is public', async () => {
    const wrong: string[] = [];
    for (const def of defs) {
      if (def.spec.side === 'public') continue;
      const res = await s.call(def.name, {}, undefined, endpointSide(def));
      if (res.return_code !== RC.ILLEGAL_TOKEN) wrong.push(`${def.name}: ${res.return_code}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers NO_PERMISSION to every community account whose roles are not allowed', async () => {
    const wrong: string[] = [];
    for (const def of defs) {
      if ((def.spec.side !== 'community' && def.spec.side !== 'both') || def.spec.roles === 'any') continue;
      for (const [account, roles] of Object.entries(held)) {
        if (def.spec.roles === 'staff' ? !MERCHANTS.has(account) : hasAnyRole(roles, def.spec.roles)) continue;
        const res = await s.call(def.name, {}, tokens[account]);
        if (res.return_code !== RC.NO_PERMISSION) wrong.push(`${def.name} as ${account}: ${res.return_code} ${res.return_msg}`);
      }
    }
    expect(wrong).toEqual([]);
    // the walk has accounts to refuse: each holds some codes and not others
    expect(held.cashier).toEqual(['cashier', 'contact_whole', 'fees', 'payment', 'refund']);
    // the technician: repairs and the equipment ledger's maintenance (devicelist)
    expect(held.tech).toEqual(['devicelist', 'repairs']);
  });

  it('keeps the group side from community tokens and the community side from group tokens', async () => {
    const wrong: string[] = [];
    for (const def of defs) {
      const side = def.spec.side;
      if (side === 'public') continue;
      if (side === 'group' || side === 'both') {
        const res = await s.call(def.name, {}, tokens.admin, 'group');
        if (res.return_code !== RC.NO_PERMISSION) wrong.push(`${def.name} group side with admin token: ${res.return_code}`);
      }
      if (side === 'community' || side === 'both') {
        const res = await s.call(def.name, {}, tokens.leader, 'community');
        if (res.return_code !== RC.NO_PERMISSION) wrong.push(`${def.name} community side with leader token: ${res.return_code}`);
      }
      if (side === 'group') {
        const res = await s.call(def.name, {}, tokens.admin, 'community');
        if (res.return_code !== RC.FAIL) wrong.push(`${def.name} is reachable on /webapi`);
      }
      if (side === 'community') {
        const res = await s.call(def.name, {}, tokens.leader, 'group');
        if (res.return_code !== RC.FAIL) wrong.push(`${def.name} is reachable on /webapi_leader`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a staff member's session holds its role's codes; once the account is disabled, every method refuses it", async () => {
    const roles = await s.call<{ items: Array<{ id: number; title: string }> }>('role_small_list', { app: 'web' }, tokens.admin);
    const tech = roles.data.items.find((r) => r.title === '维修工')!.id;
    const added = await s.call<{ id: number; password: string }>(
      'staffadd',
      { username: 'matrix_staff', name: '矩阵员工', assignments: [{ rid: 1, role_ids: [tech] }] },
      tokens.admin,
    );
    expect(added.return_code, added.return_msg).toBe(RC.SUCCESS);
    const token = await s.login('matrix_staff', added.data.password);
    const changed = await s.call(
      'sysusereditpassword',
      { username: 'matrix_staff', password: 'Matrix#2026', password2: 'Matrix#2026' },
      token,
    );
    expect(changed.return_code, changed.return_msg).toBe(RC.SUCCESS);
    expect((await s.call('userinfo', {}, token)).data.roles).toEqual(['devicelist', 'repairs']);
    expect((await s.call('staffdisable', { id: added.data.id }, tokens.admin)).return_code).toBe(RC.SUCCESS);
    const wrong: string[] = [];
    for (const def of defs) {
      if (def.spec.side === 'public' || def.spec.side === 'group') continue;
      const res = await s.call(def.name, {}, token);
      if (res.return_code !== RC.ILLEGAL_TOKEN) wrong.push(`${def.name}: ${res.return_code} ${res.return_msg}`);
    }
    expect(wrong).toEqual([]);
  });
});
