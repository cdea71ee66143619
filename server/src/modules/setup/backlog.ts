/**
 * The to-do list's registry (docs/product.md#to-do-list): every area feeds /setup/backlog through
 * one registration, `registerBacklogSource`, and raises and settles its items through the handle
 * it answers. An item names its kind (a BACKLOG_KIND code: the list's words), the record's id in
 * its area (来源单号), who submitted it, a deadline, the page where it is handled, and the codes
 * that may handle it: the list and its badge show an account only the items its codes handle.
 */
import { BACKLOG_KIND, enumText, type BacklogKind, type Roles } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Session } from '../../http/registry.js';

export interface BacklogSourceSpec {
  kind: BacklogKind;
  /** the codes that may handle the items ('any': every staff member of the community) */
  roles: Roles;
  /** the page where an item is handled, given the record's id */
  link: (sourceId: string) => string;
  /** the hours from raising to the deadline (none: no deadline) */
  hours?: number;
}

export interface BacklogRaise {
  /** the record's id in its area; raising it again while it is pending updates it, once done reopens it */
  sourceId: string | number;
  title: string;
  content?: string;
  /** the account that submitted the record */
  submitter?: Pick<Session, 'accountId' | 'name'> | null;
  /** overrides the source's hours */
  deadline?: Date | null;
  /** the one account that handles it (a ticket's technician); unsaid: anyone holding the source's codes */
  account?: number | null;
}

export interface BacklogSource {
  readonly spec: BacklogSourceSpec;
  /** Raises (or reopens) the to-do of a record, in the caller's transaction. */
  raise(db: Kysely<DB>, rid: number, item: BacklogRaise): Promise<void>;
  /** Marks the record's to-do done (nothing when it has none or it is done). */
  settle(db: Kysely<DB>, rid: number, sourceId: string | number, by?: number | null): Promise<void>;
}

const sources = new Map<string, BacklogSource>();

/** The registered sources, by kind (the to-do page's kinds; tests check each has its words). */
export const backlogSources = (): ReadonlyMap<string, BacklogSource> => sources;

/** An area's one registration of what it puts on the to-do list; a kind is registered once. */
export function registerBacklogSource(spec: BacklogSourceSpec): BacklogSource {
  if (sources.has(spec.kind)) throw new Error(`待办来源 ${spec.kind} 已登记`);
  const roles = spec.roles === 'any' ? [] : [...spec.roles];
  const source: BacklogSource = {
    spec,
    async raise(db, rid, item) {
      const sourceId = String(item.sourceId);
      const deadline = item.deadline !== undefined ? item.deadline : spec.hours ? new Date(Date.now() + spec.hours * 3_600_000) : null;
      await db
        .insertInto('backlog')
        .values({
          rid,
          kind: spec.kind,
          source_id: sourceId,
          title: item.title,
          content: item.content ?? '',
          link: spec.link(sourceId),
          submitter_id: item.submitter?.accountId ?? null,
          submitter_name: item.submitter?.name ?? '',
          deadline,
          roles,
          account_id: item.account ?? null,
        })
        .onConflict((oc) =>
          oc
            .columns(['rid', 'kind', 'source_id'])
            .where('source_id', '<>', '')
            .doUpdateSet((eb) => ({
              title: eb.ref('excluded.title'),
              content: eb.ref('excluded.content'),
              link: eb.ref('excluded.link'),
              submitter_id: eb.ref('excluded.submitter_id'),
              submitter_name: eb.ref('excluded.submitter_name'),
              deadline: eb.ref('excluded.deadline'),
              roles: eb.ref('excluded.roles'),
              account_id: eb.ref('excluded.account_id'),
              status: 'E',
              done_by: null,
              done_at: null,
              created_at: sql<Date>`now()`,
            })),
        )
        .execute();
    },
    async settle(db, rid, sourceId, by = null) {
      await db
        .updateTable('backlog')
        .set({ status: 'Y', done_by: by, done_at: sql<Date>`now()` })
        .where('rid', '=', rid)
        .where('kind', '=', spec.kind)
        .where('source_id', '=', String(sourceId))
        .where('status', '=', 'E')
        .execute();
    },
  };
  sources.set(spec.kind, source);
  return source;
}

/** The codes whose items a session sees: null for an administrator (all of them). */
export const backlogCodesOf = (session: Pick<Session, 'roles'>): string[] | null =>
  session.roles.includes('admin') ? null : session.roles;

/**
 * Who a session's to-dos are: null for an administrator (every item), else its codes and its
 * account (an item of one account is that account's alone).
 */
export const backlogScopeOf = (session: Pick<Session, 'roles' | 'accountId'>): { codes: string[]; account: number } | null =>
  session.roles.includes('admin') ? null : { codes: session.roles, account: session.accountId };

/** The SQL condition of a scope (the list, its export, backlog_done). */
export const backlogScopeSql = (scope: { codes: string[]; account: number }) =>
  sql<boolean>`(cardinality(roles) = 0 OR roles && ${scope.codes}::text[]) AND (account_id IS NULL OR account_id = ${scope.account})`;

/** The words of a kind, for an export. */
export const backlogKindText = (kind: string) => enumText(BACKLOG_KIND, kind);
