import { CONTROL_CHARS, firstIssue, hasAnyRole, moduleClosedMessage, MSG, RC, type Answer } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/schema.js';
import { BusyError } from '../db/pglite-pool.js';
import { authenticate, subscriptionEnded, type AuthResult } from './authenticate.js';
import { maskContactData, masksContact } from './contact-mask.js';
import { BizError, MESSAGES } from './errors.js';
import { Reply, type Ctx, type MethodDef, type Registry, type Session, type Side } from './registry.js';
import type { Services } from './services.js';
import { withDictLabels } from '../modules/setup/dictLabels.js';

export interface CallInfo {
  side: Side;
  /** a dedicated path (POST /get_system_extendinfo) that serves either side's session */
  anySide?: boolean;
  body: unknown;
  token: string | undefined;
  /** the token already resolved as the request came in (app.ts, before its body was read) */
  auth?: AuthOutcome;
  /** the X-Method header: an upload's body may be large only when it names the method it carries */
  declaredMethod?: string;
  ip: string;
  userAgent?: string;
  origin: string;
  log: Logger;
}

/** A token resolved to a session, or the refusal authenticate answered for it. */
export type AuthOutcome = { ok: true; result: AuthResult } | { ok: false; error: unknown };

const answer = <T>(return_code: string, return_msg: string, data: T): Answer<T> => ({ return_code, return_msg, data });

/**
 * The one place that authenticates, checks roles, scopes to the community, validates,
 * wraps writes in a transaction with an audit row and maps errors (docs/architecture.md#the-dispatcher).
 */
/**
 * What an account may call while it still signs in with a password an administrator set (a new
 * staff account, a reset): who it is, the console's frame, the change itself, and leaving
 * (docs/product.md#team).
 */
const WHILE_PASSWORD_RESET: ReadonlySet<string> = new Set([
  'userinfo',
  'sysuserinfo',
  'sysusereditpassword',
  'get_system_info',
  'get_system_extendinfo',
  'logout',
  'sessionlist',
  'sessiondel',
]);

export class Dispatcher {
  constructor(
    private readonly registry: Registry,
    private readonly db: Kysely<DB>,
    private readonly config: Config,
    private readonly services: Services,
    /** clears what the process remembers (sessions, bill totals) once a write has committed */
    private readonly afterWrite?: () => void,
  ) {}

  async call(info: CallInfo): Promise<Answer> {
    const body = (info.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) return answer(RC.FAIL, MSG.badJson, null);
    const name = typeof body.method === 'string' ? body.method : '';
    if (info.declaredMethod !== undefined && info.declaredMethod !== name) return answer(RC.FAIL, MESSAGES.methodMismatch, null);
    const def = this.registry.lookup(name, info.side);
    if (!def) return answer(RC.FAIL, MSG.unknownMethod, null);
    let session: Session | null = null;
    try {
      let regionEnd: string | null = null;
      if (def.spec.side !== 'public') {
        ({ session, regionEnd } = await this.resolve(info));
        this.checkAccess(def, session, info.anySide ? session.side : info.side, regionEnd);
      }
      const { method: _method, ...fields } = body;
      // no text of any field may carry control characters (NUL above all, which PostgreSQL refuses)
      const bad = controlCharacterPath(fields);
      if (bad !== null) return answer(RC.FAIL, `${bad || '参数'} ${MESSAGES.controlChars}`, null);
      const parsed = def.schema.safeParse(fields);
      if (!parsed.success) return answer(RC.FAIL, firstIssue(parsed.error), null);
      // the group's words for the dictionary's coded values, for every text the call makes
      return await withDictLabels(this.db, session?.groupId ?? null, () => this.run(def, parsed.data, session, info));
    } catch (err) {
      return this.mapError(err, info.log, name);
    }
  }

  /** The caller's session: the one resolved as the request came in, else from the token now. */
  private resolve(info: CallInfo): Promise<AuthResult> {
    if (info.auth) return info.auth.ok ? Promise.resolve(info.auth.result) : Promise.reject(info.auth.error);
    return authenticate(this.db, this.config, info.token, this.services.sessions);
  }

  private checkAccess(def: MethodDef, session: Session, side: Side, regionEnd: string | null): void {
    if (session.side !== side) throw new BizError(MESSAGES.wrongSide, RC.NO_PERMISSION);
    if (session.passwordReset && !WHILE_PASSWORD_RESET.has(def.name)) {
      throw new BizError(session.passwordExpired ? MESSAGES.passwordExpired : MESSAGES.changePasswordFirst);
    }
    if (session.kind === 'board' && !def.spec.board) throw new BizError(MESSAGES.boardOnly, RC.NO_PERMISSION);
    if (session.kind === 'charge' && !def.spec.chargePhone) throw new BizError(MESSAGES.chargeOnly, RC.NO_PERMISSION);
    const roles = def.spec.roles;
    if (def.spec.notMerchants && session.sysType === 'merchant') throw new BizError(MESSAGES.noPermission, RC.NO_PERMISSION);
    if (roles === 'staff') {
      if (session.sysType === 'merchant') throw new BizError(MESSAGES.noPermission, RC.NO_PERMISSION);
    } else if (roles && roles !== 'any' && !hasAnyRole(session.roles, roles)) {
      throw new BizError(MESSAGES.noPermission, RC.NO_PERMISSION);
    }
    if (side === 'community' && def.module && session.modulesOff.includes(def.module)) {
      throw new BizError(moduleClosedMessage(def.module), RC.NO_PERMISSION);
    }
    if (side === 'community' && def.spec.side !== 'both') {
      if (session.rid === null) throw new BizError(MESSAGES.noRegion);
      if (!def.spec.allowExpired && subscriptionEnded(regionEnd, this.config.timeZone)) {
        throw new BizError(MESSAGES.authEnd, RC.AUTH_END);
      }
    }
  }

  private async run(def: MethodDef, input: unknown, session: Session | null, info: CallInfo): Promise<Answer> {
    const handler = def.spec.handler as (ctx: Ctx, input: unknown) => Promise<unknown>;
    if (def.spec.writes !== true) return this.success(await handler(this.ctx(this.db, session, info), input), masksContact(def, session));
    try {
      await (def.spec.prepare as ((input: unknown) => Promise<void>) | undefined)?.(input);
      const out = await this.db.transaction().execute(async (trx) => {
        try {
          const result = await handler(this.ctx(trx, session, info), input);
          await writeAudit(trx, def, session, input, info, RC.SUCCESS, result instanceof Reply ? result.msg : MSG.saved);
          return result;
        } catch (err) {
          if (!(err instanceof BizError && err.commitWork)) throw err;
          await writeAudit(trx, def, session, input, info, err.code, err.message);
          return err;
        }
      });
      // committed: a write may have ended or changed sessions (logout, password, region switch, renewal) or bills
      this.afterWrite?.();
      if (out instanceof BizError) return answer(out.code, out.message, null);
      return this.success(out, masksContact(def, session));
    } catch (err) {
      const mapped = this.mapError(err, info.log, def.name);
      // refused for a saturated embedded database before it began: nothing to record, and no connection to record it on
      if (err instanceof BusyError) return mapped;
      // the write rolled back; its refusal is still on record
      await writeAudit(this.db, def, session, input, info, mapped.return_code, mapped.return_msg).catch((e: unknown) =>
        info.log.error({ err: e }, 'audit write failed'),
      );
      return mapped;
    }
  }

  /** The handler's context: one literal, not spreads, as it is made on every call. */
  private ctx(db: Kysely<DB>, session: Session | null, info: CallInfo): Ctx & { rid?: number } {
    return {
      db,
      session,
      config: this.config,
      log: info.log,
      ip: info.ip,
      userAgent: info.userAgent ?? '',
      origin: info.origin,
      services: this.services,
      rid: session?.rid ?? undefined,
    };
  }

  /** A handler's result as the answer; `mask`: owners' contact data masked for this session. */
  private success(out: unknown, mask: boolean): Answer {
    const data = out instanceof Reply ? out.data : out;
    const shown = mask ? maskContactData(data) : data;
    return answer(RC.SUCCESS, out instanceof Reply ? out.msg : MSG.saved, shown ?? null);
  }

  private mapError(err: unknown, log: Logger, method: string): Answer {
    if (err instanceof BizError) return answer(err.code, err.message, null);
    const pgCode = (err as { code?: string }).code;
    if (pgCode === '23505') return answer(RC.FAIL, '数据已存在，请勿重复提交', null);
    if (pgCode === '23503') return answer(RC.FAIL, '关联的数据不存在或仍被使用', null);
    if (pgCode === '22003' || pgCode === '22P02' || pgCode === '22007' || pgCode === '22008') {
      return answer(RC.FAIL, '数值超出允许范围或格式不正确', null);
    }
    // a NUL or an invalid sequence that got past validation
    if (pgCode === '22021' || pgCode === '22P05') return answer(RC.FAIL, `文本${MESSAGES.controlChars}`, null);
    log.error({ err, method }, 'method failed');
    return answer(RC.FAIL, MESSAGES.internal, null);
  }
}

/**
 * The path of the first string in `value` holding a control character ('' for the top), or null:
 * C0 but tab and line breaks, DEL, C1 (contract/common.ts, the same expression the forms use).
 */
export function controlCharacterPath(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return CONTROL_CHARS.test(value) ? path : null;
  if (depth > 64 || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Array.isArray(value) ? value.entries() : Object.entries(value as Record<string, unknown>)) {
    const key = String(k);
    if (CONTROL_CHARS.test(key)) return path || '参数';
    const found = controlCharacterPath(v, path ? `${path}.${key}` : key, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

const SECRET_KEYS = /pass(word)?|pwd|secret|token|act_code|^code$/i;

/** The payload as audited: secrets replaced, size bounded. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 200).map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '***' : redact(v)]),
    );
  }
  if (typeof value === 'string' && value.length > 2000) return value.slice(0, 2000) + '…';
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function writeAudit(
  db: Kysely<DB>,
  def: MethodDef,
  session: Session | null,
  input: unknown,
  info: CallInfo,
  outcome: string,
  message: string,
): Promise<void> {
  return recordAudit(db, { session, side: info.side, method: def.name, input, outcome, message, ip: info.ip });
}

/** One audit row; handlers that write outside the dispatcher's transaction call it themselves. */
export async function recordAudit(
  db: Kysely<DB>,
  row: {
    /** who: a session, or (a sign-in) the account and the community it just signed in to */
    session: Pick<Session, 'rid' | 'accountId' | 'username'> | null;
    side: Side;
    method: string;
    input: unknown;
    outcome: string;
    message: string;
    ip: string;
  },
): Promise<void> {
  const payload = redact(row.input) as Record<string, unknown>;
  const username = row.session?.username ?? (typeof payload.username === 'string' ? payload.username : '');
  await db
    .insertInto('audit_log')
    .values({
      rid: row.session?.rid ?? null,
      account_id: row.session?.accountId ?? null,
      username,
      side: row.side,
      method: row.method,
      payload: JSON.stringify(payload),
      outcome: row.outcome,
      message: row.message.slice(0, 500),
      ip: row.ip,
    })
    .execute();
}
