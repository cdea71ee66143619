/**
 * The dictionary's renamed labels on the server (docs/resources.md#dictionary). Every call runs
 * with its group's labels in an AsyncLocalStorage (the dispatcher's `withDictLabels`, an export job
 * with its community's group), and the contract's governed enums read them through the label
 * source set here, so `*_ch` texts, messages and exported sheets show the group's words.
 *
 * The labels of a group are cached in the process: a committed write clears the cache
 * (app.ts afterWrite) and an entry lives CACHE_MS at most, so another process's rename shows within
 * that time.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setEnumLabelSource } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export type DictLabels = ReadonlyMap<string, ReadonlyMap<string, string>>;

const CACHE_MS = 5_000;
const NONE: DictLabels = new Map();
const current = new AsyncLocalStorage<DictLabels>();
setEnumLabelSource((dict, value) => current.getStore()?.get(dict)?.get(value));

const cache = new Map<number, { at: number; labels: Promise<DictLabels> }>();

/** Forgets the cached labels (after a committed write, which may have renamed one). */
export function clearDictLabels(): void {
  cache.clear();
}

async function load(db: Kysely<DB>, groupId: number): Promise<DictLabels> {
  const rows = await db.selectFrom('dict_labels').select(['type', 'value', 'label']).where('group_id', '=', groupId).execute();
  if (rows.length === 0) return NONE;
  const out = new Map<string, Map<string, string>>();
  for (const r of rows) {
    let m = out.get(r.type);
    if (!m) out.set(r.type, (m = new Map()));
    m.set(r.value, r.label);
  }
  return out;
}

/** The group's renamed labels, by type then value. */
export function groupLabels(db: Kysely<DB>, groupId: number): Promise<DictLabels> {
  const hit = cache.get(groupId);
  const now = Date.now();
  if (hit && now - hit.at < CACHE_MS) return hit.labels;
  const labels = load(db, groupId);
  cache.set(groupId, { at: now, labels });
  labels.catch(() => cache.delete(groupId));
  return labels;
}

/** Runs `fn` with the group's labels as the governed enums' texts (no group: the code's texts). */
export async function withDictLabels<T>(db: Kysely<DB>, groupId: number | null, fn: () => Promise<T>): Promise<T> {
  if (groupId === null) return fn();
  const labels = await groupLabels(db, groupId);
  return current.run(labels, fn);
}

/** The same for a community's work outside a call (an export job): its group's labels. */
export async function withRegionDictLabels<T>(db: Kysely<DB>, rid: number, fn: () => Promise<T>): Promise<T> {
  const region = await db.selectFrom('regions').select('group_id').where('id', '=', rid).executeTakeFirst();
  return withDictLabels(db, region?.group_id ?? null, fn);
}
