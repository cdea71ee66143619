/**
 * The release of visitors' cars (docs/product.md#visitors): every minute, the holds whose free time is
 * over end (car_status E): the white-list entry the visit made goes and the reserved space is free
 * again; the face grants of visits that have ended are revoked (face.ts). A run missed while no
 * process ran is made up by the next: it reads the clock.
 */
import { registerJobKind, registerPeriodicJob } from '../../jobs/queue.js';
import { releaseDue } from './car.js';
import { endFaces } from './face.js';

export const VISITOR_CAR_RELEASE = 'visitor_car_release';

registerJobKind(VISITOR_CAR_RELEASE, async (ctx) => {
  const now = new Date();
  const released = await ctx.db.transaction().execute((trx) => releaseDue(trx, now));
  // the faces of visits that have ended leave the doors
  const faces = await ctx.db.transaction().execute((trx) => endFaces(trx, now));
  return { released, faces };
});

registerPeriodicJob(VISITOR_CAR_RELEASE, 1);
