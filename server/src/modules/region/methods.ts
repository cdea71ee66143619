import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { daysLeft } from '../../lib/wire.js';
import { accountRegionIds, mayEnterRegion } from '../team/scope.js';

const regionlist = defineMethod('regionlist', {
  side: 'community',
  roles: 'any',
  writes: false,
  allowExpired: true,
  summary: '当前账号可进入的小区（切换小区用）',
  async handler(ctx) {
    const rids = await accountRegionIds(ctx.db, ctx.session.accountId);
    const found = rids.length
      ? await ctx.db.selectFrom('regions as r').select(['r.id', 'r.title', 'r.address', 'r.end_time']).where('r.id', 'in', rids).execute()
      : [];
    const byId = new Map(found.map((r) => [r.id, r]));
    const rows = rids.flatMap((rid) => byId.get(rid) ?? []);
    return {
      items: rows.map((r) => ({
        rid: r.id,
        title: r.title,
        address: r.address,
        end_time: r.end_time,
        days_left: daysLeft(r.end_time),
        current: r.id === ctx.rid,
      })),
    };
  },
});

const regionswitch = defineMethod('regionswitch', {
  side: 'community',
  roles: 'any',
  writes: true,
  allowExpired: true,
  summary: '把当前会话切换到账号的另一个小区（令牌不变）',
  async handler(ctx, input) {
    if (!(await mayEnterRegion(ctx.db, ctx.session.accountId, input.rid))) fail('无权进入该小区');
    await ctx.db.updateTable('sessions').set({ rid: input.rid }).where('token_hash', '=', ctx.session.tokenHash).execute();
    return reply({ rid: input.rid }, '已切换小区');
  },
});

export const regionModule = [regionlist, regionswitch];
