import { CHARGING_ROLES, formatWireDate, RC } from '@wuye/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Config } from '../config.js';
import { prepared } from '../db/prepared.js';
import type { DB } from '../db/schema.js';
import { BizError, MESSAGES } from './errors.js';
import type { Session } from './registry.js';
import type { SessionCache, SessionRow } from './session-cache.js';
import { hashToken } from './tokens.js';

// sliding expiry is written at most once a minute per session, not on every request
const TOUCH_EVERY_MS = 60_000;
/** the one code an owner's phone session holds: the phone's charging methods (modules/charging/phone.ts) */
const CHARGE_PHONE_CODE = CHARGING_ROLES.phone[0];

export interface AuthResult {
  session: Session;
  regionEnd: string | null;
}

/** The community's subscription ended before today: its calls answer AUTH_END (docs/product.md#errors). */
export function subscriptionEnded(regionEnd: string | null, timeZone: string): boolean {
  return regionEnd !== null && regionEnd < formatWireDate(new Date(), timeZone);
}

/** Resolves X-Token to a live session, or throws 50008 / 50012 / 50014 (docs/product.md#errors). */
export async function authenticate(db: Kysely<DB>, config: Config, token: string | undefined, cache?: SessionCache): Promise<AuthResult> {
  if (!token || token.length > 200) throw new BizError(MESSAGES.noToken, RC.ILLEGAL_TOKEN);
  // remembered by the token as sent, so a remembered session costs no hashing (a tenth of the
  // dispatcher's own time per call); the database only ever sees and stores its hash
  let row = cache?.get(token);
  if (row) {
    refuseDead(row); // a remembered session may have expired since
  } else {
    row = await loadSession(db, hashToken(token));
    refuseDead(row);
    // remembered from now on: set only when loaded, so an entry in use still ages out
    cache?.set(token, row);
  }
  const tokenHash = row.token_hash;
  const now = Date.now();
  if (now - row.last_seen_at.getTime() > TOUCH_EVERY_MS) {
    const touched = await db
      .updateTable('sessions')
      // sliding, but never past the session's absolute end (board and charge sessions do not slide)
      .set({
        last_seen_at: sql`now()`,
        expires_at: sql`CASE WHEN kind IN ('board', 'charge') THEN expires_at
          ELSE least(now() + make_interval(secs => least(${config.tokenTtlHours * 3600}, coalesce(idle_seconds, ${config.tokenTtlHours * 3600}))), max_expires_at) END`,
      })
      .where('token_hash', '=', tokenHash)
      .returning(['last_seen_at', 'expires_at'])
      .executeTakeFirst();
    if (touched) cache?.set(token, { ...row, ...touched });
  }
  return { session: toSession(row), regionEnd: row.end_time ?? null };
}

function loadSession(db: Kysely<DB>, tokenHash: string): Promise<SessionRow | undefined> {
  // prepared (db/prepared.ts): one plan for every token
  return (
    db
      .selectFrom('sessions as s')
      .modifyFront(prepared)
      // a charge session (an owner's phone at a pile) has no account: it is its member's, and holds
      // the one code of the phone's charging methods
      .leftJoin('accounts as a', 'a.id', 's.account_id')
      .leftJoin('members as m', (j) => j.onRef('m.rid', '=', 's.rid').onRef('m.id', '=', 's.member_id'))
      .leftJoin('regions as r', 'r.id', 's.rid')
      .select([
        's.token_hash',
        's.id',
        's.kind',
        's.side',
        's.rid',
        's.expires_at',
        's.ended_at',
        's.end_reason',
        's.last_seen_at',
        's.as_admin',
        sql<number | null>`s.member_id::int`.as('member_id'),
        sql<number>`coalesce(a.id, 0)`.as('account_id'),
        sql<string>`coalesce(a.username, m.mobile, '')`.as('username'),
        sql<string>`coalesce(a.name, m.realname, '')`.as('name'),
        sql<'property' | 'merchant' | 'leader'>`coalesce(a.sys_type, 'property')`.as('sys_type'),
        sql<number>`coalesce(a.group_id, r.group_id)`.as('group_id'),
        // a head office that entered one of its communities holds the administrator's codes there
        sql<string[]>`CASE WHEN s.kind = 'charge' THEN ARRAY[${sql.lit(CHARGE_PHONE_CODE)}]::text[]
        WHEN s.as_admin THEN ARRAY['admin']::text[]
        ELSE ${accountCodes(sql.ref('a.id'), sql.ref('a.roles'), sql.ref('s.rid'))} END`.as('roles'),
        sql<string[]>`coalesce(a.permissions, '{}')`.as('permissions'),
        sql<string>`CASE WHEN s.kind = 'charge' THEN CASE WHEN m.id IS NULL THEN 'N' ELSE 'Y' END ELSE a.status END`.as('status'),
        // an administrator's reset, or a password past the security policy's expiry at sign-in
        sql<boolean>`(a.password_reset_at IS NOT NULL OR s.must_change)`.as('password_reset'),
        sql<boolean>`(a.password_reset_at IS NULL AND s.must_change)`.as('password_expired'),
        'r.end_time',
        sql<string[]>`coalesce(r.modules_off, '{}')`.as('modules_off'),
      ])
      .where('s.token_hash', '=', tokenHash)
      .executeTakeFirst()
  );
}

/**
 * The codes an account holds in a community: its own (`accounts.roles`) and those of the enabled
 * roles it holds there or group-wide (migrations/202611290040_staff_roles.sql, 202611290050_role_scope.sql),
 * sorted; `rid` is one of the account's communities (modules/team/scope.ts). A session's codes, and
 * the team area's checks of an account (modules/team/grants.ts).
 */
export function accountCodes(accountId: RawBuilder<unknown>, ownCodes: RawBuilder<unknown>, rid: RawBuilder<unknown>) {
  return sql<string[]>`array(SELECT DISTINCT c FROM (SELECT unnest(${ownCodes}) c UNION ALL
    SELECT unnest(sr.codes) FROM account_roles x JOIN staff_roles sr ON sr.id = x.role_id AND sr.status = 'Y'
    WHERE x.account_id = ${accountId} AND (x.rid = ${rid} OR sr.scope = 'group')) codes ORDER BY c)`;
}

function refuseDead(row: SessionRow | undefined): asserts row is SessionRow {
  if (!row) throw new BizError(MESSAGES.noToken, RC.ILLEGAL_TOKEN);
  if (row.status !== 'Y') throw new BizError(MESSAGES.disabled, RC.ILLEGAL_TOKEN);
  if (row.ended_at) {
    if (row.end_reason === 'logout') throw new BizError(MESSAGES.noToken, RC.ILLEGAL_TOKEN);
    if (row.end_reason === 'revoked') throw new BizError(MESSAGES.revoked, RC.ILLEGAL_TOKEN);
    throw new BizError(MESSAGES.otherClient, RC.OTHER_CLIENT);
  }
  if (row.expires_at.getTime() <= Date.now()) throw new BizError(MESSAGES.tokenExpired, RC.TOKEN_EXPIRED);
}

function toSession(row: SessionRow): Session {
  return {
    tokenHash: row.token_hash,
    accountId: row.account_id,
    username: row.username,
    name: row.name,
    sysType: row.sys_type,
    groupId: row.group_id,
    roles: row.roles,
    permissions: row.permissions,
    side: row.side,
    rid: row.rid,
    modulesOff: row.modules_off,
    kind: row.kind,
    ...(row.member_id !== null ? { memberId: Number(row.member_id) } : {}),
    sessionId: Number(row.id),
    entered: row.as_admin,
    passwordReset: row.password_reset,
    passwordExpired: row.password_expired,
  };
}
