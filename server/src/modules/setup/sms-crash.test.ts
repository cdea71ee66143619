import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { prepareProcessDatabase, spawnServer, waitFor, type ProcessDatabase, type ServerProcess } from '../../test/process.js';

/**
 * The real server (a child process) is killed with SIGKILL in the middle of an SMS job, an arrears
 * reminder for buildings 1 and 2, then started again: the job carries on, and no message reaches
 * the provider twice. A message claimed when the process died is settled by asking the provider
 * (the sandbox here) for it by its out id: submitted if it has it, failed as INTERRUPTED if not,
 * never sent again by itself.
 */
let pdb: ProcessDatabase;
let server: ServerProcess | undefined;
const SECRETS = { SECRETS_KEY: crypto.randomBytes(32).toString('hex') };

beforeAll(async () => {
  pdb = await prepareProcessDatabase();
}, 300_000);
afterEach(async () => {
  await server?.kill();
  server = undefined;
});
afterAll(async () => {
  await pdb?.dispose();
});

describe('sms: a job killed mid-way', () => {
  it('sends no message twice after a SIGKILL and a restart', async () => {
    // the job, started while no server runs: queued
    const { id, recipients } = await pdb.api(async (api) => {
      const admin = await api.login('admin');
      const bids = (
        await api.db.selectFrom('buildings').select('id').where('rid', '=', 1).orderBy('sort').orderBy('id').limit(2).execute()
      ).map((b) => b.id);
      const tpl = await api.db
        .selectFrom('sms_templates')
        .select('id')
        .where('rid', '=', 1)
        .where('code', '=', 'SMS_468220001')
        .executeTakeFirstOrThrow();
      const added = await api.call(
        'smsjobadd',
        {
          name: '欠费催缴（崩溃演练）',
          kind: 'arrears',
          template_id: tpl.id,
          var_map: { name: { source: 'name' }, room: { source: 'room' }, amount: { source: 'amount' } },
          audience: { type: 'arrears', bids, min_amount: '0.01' },
          urgent: 'Y',
        },
        admin,
      );
      expect(added.return_code, added.return_msg).toBe('SUCCESS');
      const p = await api.call('smsjobpreview', { id: added.data.id }, admin);
      expect(p.data.recipients).toBeGreaterThanOrEqual(6);
      const started = await api.call('smsjobstart', { id: added.data.id, confirm_count: p.data.messages }, admin);
      expect(started.return_code, started.return_msg).toBe('SUCCESS');
      return { id: added.data.id as number, recipients: p.data.recipients as number };
    });
    const count = (status: string) =>
      pdb.with(async (db) =>
        Number(
          (
            await db
              .selectFrom('sms_messages')
              .select(sql<number>`count(*)::int`.as('n'))
              .where('rid', '=', 1)
              .where('sms_job_id', '=', id)
              .where('submit_status', '=', status as 'S')
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
    // killed once some, not all, messages went: a pause of 300 ms between a claim and its send, and
    // the kill as soon as the job reports progress (what the server reports, not a guess at its speed)
    server = await spawnServer(pdb, { ...SECRETS, SMS_SEND_DELAY_MS: '300' }, { ready: 'started' });
    const watcher = await server.login('admin');
    await waitFor(
      'the first messages sent',
      // its progress, reported every ten messages
      async () => ((await server!.call('smsjobinfo', { id }, watcher)).data?.percent ?? 0) > 0,
      120_000,
      20,
    );
    await server.kill();
    server = undefined;
    const [sent, waiting] = [await count('S'), await count('W')];
    expect(sent).toBeGreaterThan(0);
    expect(waiting, 'some messages still wait').toBeGreaterThan(0);
    const claimed = await count('C');
    // started again (the embedded database's server queues its own running job again at once; PostgreSQL's after a minute)
    await pdb.with((db) =>
      db
        .updateTable('jobs')
        .set({ heartbeat_at: sql`now() - interval '5 minutes'` })
        .where('status', '=', 'running')
        .execute(),
    );
    server = await spawnServer(pdb, SECRETS);
    const admin = await server.login('admin');
    const info = await waitFor(
      'the job to end',
      async () => {
        const r = await server!.call('smsjobinfo', { id }, admin);
        return ['Y', 'F'].includes(r.data?.status) ? r.data : undefined;
      },
      120_000,
      200,
    );
    await server.kill();
    server = undefined;
    const { msgs, outbox } = await pdb.with(async (db) => {
      const msgs = await db.selectFrom('sms_messages').selectAll().where('rid', '=', 1).where('sms_job_id', '=', id).execute();
      const outbox = await db
        .selectFrom('sms_sandbox_outbox')
        .select(['mobile', 'out_id'])
        .where(
          'out_id',
          'in',
          msgs.map((m) => m.out_id),
        )
        .execute();
      return { msgs, outbox };
    });
    expect(msgs).toHaveLength(recipients);
    // each recipient at the provider at most once
    expect(new Set(outbox.map((o) => o.mobile)).size).toBe(outbox.length);
    // everything settled: submitted, or failed as interrupted (a claim the provider never got)
    expect(msgs.filter((m) => m.submit_status === 'W' || m.submit_status === 'C')).toHaveLength(0);
    const interrupted = msgs.filter((m) => m.submit_status === 'F');
    expect(interrupted.every((m) => m.code === 'INTERRUPTED')).toBe(true);
    expect(interrupted.length).toBeLessThanOrEqual(claimed);
    expect(outbox.length).toBe(msgs.filter((m) => m.submit_status === 'S').length);
    expect(info.sent + info.failed).toBe(recipients);
  }, 400_000);
});
