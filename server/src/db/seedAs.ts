/**
 * For seeds that take the product's own paths (a bill generated, a payment at the cashier, a lease
 * approved), so the demo's records are what those paths write: a community's ctx acting as a demo
 * account, and a method run as it with its schema parsing the payload.
 */
import { methodSchemas, type MethodName, type MethodOutput } from '@wuye/contract';
import type { Kysely } from 'kysely';
import { Reply, type CommunityCtx, type MethodDef, type Session } from '../http/registry.js';
import { modules } from '../modules/index.js';
import type { DB } from './schema.js';

/** The ctx of an account (its id and name) in community `rid` holding `roles`. */
export function seedCtxOf(db: Kysely<DB>, rid: number, account: { id: number; name: string }, roles: string[]): CommunityCtx {
  const session = {
    accountId: Number(account.id),
    name: account.name,
    roles,
    rid,
    side: 'community',
    sysType: 'property',
  } as unknown as Session;
  return { db, rid, session } as unknown as CommunityCtx;
}

/** The ctx of `username` in community `rid` holding `roles`; null when the demo has no such account. */
export async function seedCtx(db: Kysely<DB>, rid: number, username: string, roles: string[]): Promise<CommunityCtx | null> {
  const a = await db.selectFrom('accounts').select(['id', 'name']).where('username', '=', username).executeTakeFirst();
  return a ? seedCtxOf(db, rid, a, roles) : null;
}

let byName: Map<string, MethodDef> | null = null;

/** Runs a method's handler as the ctx's account would call it; answers its data. */
export async function runAs<M extends MethodName>(ctx: CommunityCtx, method: M, payload: object): Promise<MethodOutput<M>> {
  byName ??= new Map(modules.flat().map((m) => [m.name, m]));
  const def = byName.get(method);
  if (!def) throw new Error(`no method ${method}`);
  const input = (methodSchemas[method] as { parse: (v: unknown) => unknown }).parse(payload);
  const out = await (def.spec.handler as (c: CommunityCtx, i: unknown) => Promise<unknown>)(ctx, input);
  return (out instanceof Reply ? out.data : out) as MethodOutput<M>;
}
