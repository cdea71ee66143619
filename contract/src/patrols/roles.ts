/**
 * Who may do what in security patrols (安保巡更 /security; docs/product.md#patrols). Guards and
 * their supervisors hold `security` (the demo's guard 周保安 holds it); admin always passes.
 *
 * The supervisor's corrections (patrolrecordedit) and transfers (patroltasktransfer) are for admin or
 * any `security` holder on a task that is not their own: a guard never corrects or hands over their
 * own round. Running the patrol jobs at a given moment (patroljobrun) is admin's alone.
 */
export const PATROL_ROLES = {
  /** points, plans, tasks, records, the report, check-in, corrections of others' tasks */
  staff: ['security'],
  /** the jobs at a simulated moment (tests, training, the journey) */
  admin: ['admin'],
} as const;
