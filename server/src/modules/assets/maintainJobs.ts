/**
 * The maintenance tasks' job (docs/product.md#equipment-ledger): every 15 minutes, for every
 * enabled plan of every community not generated up to today, the tasks of its days (each once:
 * see generatePlanTasks), each plan in its own short transaction; then the tasks gone overdue go
 * on the to-do list, once each.
 */
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { today } from '../../lib/wire.js';
import { generatePlanTasks, noteOverdue } from './maintain.js';

export const MAINTAIN_TASKS_JOB = 'maintain_tasks';

registerJobKind(MAINTAIN_TASKS_JOB, async (ctx) => {
  const day = today();
  const due = await ctx.db
    .selectFrom('maintain_plans')
    .select(['rid', 'id'])
    .where('enabled', '=', 'Y')
    .where('generated_until', '<', day)
    .orderBy('rid')
    .orderBy('id')
    .execute();
  let tasks = 0;
  for (const p of due) tasks += await ctx.db.transaction().execute((trx) => generatePlanTasks(trx, p.rid, Number(p.id), day));
  const overdue = await ctx.db.transaction().execute((trx) => noteOverdue(trx, null, day));
  return { plans: due.length, tasks, overdue };
});
registerPeriodicJob(MAINTAIN_TASKS_JOB, 15);
