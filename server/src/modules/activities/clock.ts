/**
 * The activities' clock (docs/product.md#activities), a periodic job: releases unpaid seats past
 * their time (their bills deleted), lapses waiting-list offers not confirmed in time, offers each
 * freed seat to the next waiting, and marks those signed up and not checked in after an event
 * 未到场. The job's payload may carry `now` (an ISO instant): a test or a journey runs the clock
 * as of a simulated time.
 */
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { runSignupClock } from './money.js';

export const SIGNUP_CLOCK = 'signup_clock';

registerJobKind(
  SIGNUP_CLOCK,
  (ctx) => {
    const at = typeof ctx.payload.now === 'string' ? new Date(ctx.payload.now) : new Date();
    if (Number.isNaN(at.getTime())) throw new Error('now 不是有效的时间');
    return runSignupClock(ctx.db, at);
  },
  { viewers: ['service'] },
);
registerPeriodicJob(SIGNUP_CLOCK, 1);
