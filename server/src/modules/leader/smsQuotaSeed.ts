import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { demoLeaderWith } from './demoLeader.js';

/** What the demo group bought: enough that the demo's SMS flows and the tests' sends never run short. */
export const DEMO_SMS_QUOTA = 5_000;

/**
 * The demo's SMS quota package (短信额度, /setup/smsquota on the group side): the demo leader gets
 * is_smsset_auth; the group bought 5,000 messages a fortnight ago and the demo's SMS jobs (seeded
 * before, modules/setup/seed-sms.ts) took theirs from it: a send row per message, and a refund row
 * for each the sandbox refused.
 */
export async function seedSmsQuota(db: Kysely<DB>): Promise<void> {
  const leader = await demoLeaderWith(db, ['is_smsset_auth']);
  if (!leader) return;
  const boughtAt = new Date(Date.now() - 15 * 86_400_000);
  const messages = await db
    .selectFrom('sms_messages as m')
    .innerJoin('regions as g', 'g.id', 'm.rid')
    .select(['m.rid', 'm.sms_job_id', 'm.out_id', 'm.segments', 'm.submit_status', 'm.code', 'm.submitted_at'])
    .where('g.group_id', '=', leader.group_id)
    .where('m.submit_status', 'in', ['S', 'F'])
    .orderBy('m.submitted_at')
    .orderBy('m.id')
    .execute();
  let balance = DEMO_SMS_QUOTA;
  const rows: LedgerSeedRow[] = [
    {
      group_id: leader.group_id,
      kind: 'topup',
      count: DEMO_SMS_QUOTA,
      balance_after: balance,
      note: '演示数据：首次购买短信套餐',
      created_by: leader.id,
      created_at: boughtAt,
    },
  ];
  for (const m of messages) {
    const n = Math.max(1, m.segments);
    const at = m.submitted_at ?? boughtAt;
    const base = {
      group_id: leader.group_id,
      rid: m.rid,
      purpose: 'sms_job' as const,
      ref_id: m.sms_job_id,
      out_id: m.out_id,
      created_at: at,
    };
    balance -= n;
    rows.push({ ...base, kind: 'send', count: -n, balance_after: balance });
    if (m.submit_status === 'F') {
      balance += n;
      rows.push({ ...base, kind: 'refund', count: n, balance_after: balance, note: m.code });
    }
  }
  for (let i = 0; i < rows.length; i += 500) await insert(db, rows.slice(i, i + 500));
  await db
    .insertInto('sms_quotas')
    .values({ group_id: leader.group_id, balance, created_by: leader.id, updated_by: leader.id, created_at: boughtAt })
    .execute();
}

type LedgerSeedRow = Insertable<DB['sms_quota_ledger']>;

const insert = (db: Kysely<DB>, rows: LedgerSeedRow[]) => db.insertInto('sms_quota_ledger').values(rows).execute();
