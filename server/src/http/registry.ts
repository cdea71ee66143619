import type { z } from 'zod';
import { methodSchemas, type CommunityModule, type MethodName, type MethodOutput } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/schema.js';
import type { Services } from './services.js';

export type Side = 'community' | 'group';

/** Who is calling, from the token (never from the payload). */
export interface Session {
  tokenHash: string;
  accountId: number;
  username: string;
  name: string;
  sysType: 'property' | 'merchant' | 'leader';
  groupId: number;
  roles: string[];
  permissions: string[];
  side: Side;
  /** the session's community; null on the group side */
  rid: number | null;
  /** the modules closed in the session's community (docs/product.md#community-modules); none on the group side */
  modulesOff: readonly string[];
  /**
   * console: signed in; board: a read-only board window, which may call board methods only;
   * charge: an owner's phone at a pile (an SMS code), which may call the phone's charging methods only
   */
  kind: 'console' | 'board' | 'charge';
  /** a charge session's member (the owner who proved their mobile); absent otherwise */
  memberId?: number;
  /** a head office's session in one of its communities, entered from the group side (leaderregionenter) */
  entered?: boolean;
  /** the session's public id (sessionlist, sessiondel) */
  sessionId: number;
  /** the account signs in with a password an administrator set (staffadd, staffresetpassword): it changes it before anything else */
  passwordReset: boolean;
  /** of those, one whose password passed the security policy's expiry (not an administrator's reset) */
  passwordExpired?: boolean;
}

export interface Ctx {
  /** the transaction for writes, the pool for reads */
  db: Kysely<DB>;
  session: Session | null;
  config: Config;
  log: Logger;
  ip: string;
  /** the caller's User-Agent, as recorded with a new session */
  userAgent: string;
  /** the console's address: PUBLIC_URL, or (outside production) the request's own, e.g. http://localhost:8080 */
  origin: string;
  services: Services;
}

/** Ctx of a signed-in community-side call: rid is always there. */
export interface CommunityCtx extends Ctx {
  session: Session;
  rid: number;
}

/** A success answer with its own message (default 操作成功). */
export class Reply<T> {
  constructor(
    readonly data: T,
    readonly msg: string,
  ) {}
}
export const reply = <T>(data: T, msg: string) => new Reply(data, msg);

/**
 * A success answer's data as JSON text the database wrote (json_build_object / json_agg), sent
 * on as it is: a list of many rows then costs the server no row decoding, objects or
 * JSON.stringify (the owner search's 50 houses: half its CPU, docs/adr/0006-jsontext.md). The SQL must
 * write the contract's shape itself: money as text, times as wire text.
 */
export class JsonText<T> {
  declare readonly shape?: T;
  constructor(readonly text: string) {}
}

export type HandlerInput<M extends MethodName> = z.output<(typeof methodSchemas)[M]>;
type Out<M extends MethodName> = MethodOutput<M> | Reply<MethodOutput<M>> | JsonText<MethodOutput<M>>;

interface BaseSpec {
  summary: string;
  /**
   * true: runs in one transaction with an audit row; 'own': changes data in transactions of its own
   * and writes its own audit rows (sign-in, password change: a guess is counted before a slow check
   * that must hold no lock); false: reads
   */
  writes: boolean | 'own';
  /** true: still answers when the community's subscription has ended */
  allowExpired?: boolean;
  /**
   * Runs before a write's transaction opens, so slow work on the input (reading an upload in a
   * worker thread) holds no connection; a refusal here is answered and audited as the handler's.
   */
  prepare?: (input: never) => Promise<void>;
  /** true: a read-only board session may call it too (reads only) */
  board?: boolean;
  /** true: an owner's phone session at a pile (kind charge) may call it; such a session may call nothing else */
  chargePhone?: boolean;
  /**
   * 'staff': the answer's `mobile` fields are staff members', shown whole to whoever may call it.
   * Otherwise owners' contact fields anywhere in the answer are masked for a session without
   * CONTACT_WHOLE (docs/product.md#contact-masking), so a new method cannot leak them by default.
   */
  contact?: 'staff';
  /**
   * true: refused to a merchant account (sys_type merchant) whatever codes it holds: the card staff's
   * pages about the merchants themselves and the followers (spec 2.3 keeps a merchant to serving members)
   */
  notMerchants?: boolean;
}

/**
 * Roles allowed; 'any' = every signed-in account of the side; 'staff' = every account of the
 * property company, not merchants (spec 2.3 keeps the to-dos, the board, renewal and the like
 * from merchant accounts).
 */
export type Roles = readonly string[] | 'any' | 'staff';

export type MethodSpec<M extends MethodName> = BaseSpec &
  (
    | { side: 'public'; roles?: undefined; handler: (ctx: Ctx, input: HandlerInput<M>) => Promise<Out<M>> }
    | { side: 'community'; roles: Roles; handler: (ctx: CommunityCtx, input: HandlerInput<M>) => Promise<Out<M>> }
    | { side: 'group' | 'both'; roles: Roles; handler: (ctx: Ctx & { session: Session }, input: HandlerInput<M>) => Promise<Out<M>> }
  );

export interface MethodDef {
  name: MethodName;
  schema: z.ZodType;
  spec: MethodSpec<MethodName>;
  /** the community module it belongs to: closed where the group closed that module (modules/index.ts) */
  module?: CommunityModule;
}

/** An area's methods as belonging to one community module (docs/product.md#community-modules). */
export const inModule = (module: CommunityModule, defs: MethodDef[]): MethodDef[] => defs.map((d) => ({ ...d, module }));

/** The methods, refused to merchant accounts whatever codes they hold (`notMerchants`). */
export const notForMerchants = (defs: MethodDef[]): MethodDef[] => defs.map((d) => ({ ...d, spec: { ...d.spec, notMerchants: true } }));

/** Declares one method: its name picks the zod schema from the contract. */
export function defineMethod<M extends MethodName>(name: M, spec: MethodSpec<M>): MethodDef {
  return { name, schema: methodSchemas[name] as z.ZodType, spec: spec as unknown as MethodSpec<MethodName> };
}

export class Registry {
  readonly byName = new Map<string, MethodDef>();

  constructor(defs: MethodDef[]) {
    for (const def of defs) {
      if (this.byName.has(def.name)) throw new Error(`method ${def.name} registered twice`);
      if (def.spec.board && def.spec.writes) throw new Error(`method ${def.name}: a board session only reads`);
      this.byName.set(def.name, def);
    }
    this.uploads = new Set(defs.filter(isUploadMethod).map((d) => d.name));
  }

  /** Methods that take a file (a schema with file_base64): only their calls may carry a large body. */
  readonly uploads: ReadonlySet<string>;

  /** The method as seen from one endpoint; group-only methods don't exist on /webapi and so on. */
  lookup(name: string, side: Side): MethodDef | undefined {
    const def = this.byName.get(name);
    if (!def) return undefined;
    const s = def.spec.side;
    if (s === 'public' || s === 'both' || s === side) return def;
    return undefined;
  }

  all(): MethodDef[] {
    return [...this.byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}

/** The fields of a method's schema (an object, or the object inside a refinement or pipe). */
export function schemaFields(schema: z.ZodType): string[] {
  const s = schema as unknown as {
    shape?: Record<string, unknown>;
    def?: {
      in?: { shape?: Record<string, unknown> };
      left?: { shape?: Record<string, unknown> };
      right?: { shape?: Record<string, unknown> };
    };
  };
  return Object.keys({ ...(s.shape ?? s.def?.in?.shape ?? {}), ...(s.def?.left?.shape ?? {}), ...(s.def?.right?.shape ?? {}) });
}

/** An upload method: one whose payload carries a file (file_base64). */
export function isUploadMethod(def: MethodDef): boolean {
  return schemaFields(def.schema).includes('file_base64');
}
