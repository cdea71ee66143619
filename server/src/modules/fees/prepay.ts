import { FEE_ROLES, fenToYuan, toFen } from '@wuye/contract';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { moveBalance } from '../cards/ledger.js';
import { houseOwner } from './balance.js';
import { house } from './cashier.js';
import { requireRoom } from '../structure/require-room.js';
import { requirePayType } from '../leader/paytypes.js';

const housebalance = defineMethod('housebalance', {
  side: 'community',
  roles: FEE_ROLES.quickpay,
  writes: false,
  summary: '房屋地址、业主与预存余额（收银台预存、临时收费）',
  async handler(ctx, input) {
    const room = await house(ctx, input.hid);
    const owner = await houseOwner(ctx.db, ctx.rid, input.hid);
    return {
      hid: input.hid,
      address: room.address,
      member_id: owner?.member_id ?? 0,
      owner_name: owner?.realname ?? '',
      balance: owner?.balance ?? '0.00',
    };
  },
});

const balancetopup = defineMethod('balancetopup', {
  side: 'community',
  roles: FEE_ROLES.cashier,
  writes: true,
  summary: '预存（充值业主余额）：写入余额流水（io_type 1）；同一 idempotency_key 重试只充一次',
  async handler(ctx, input) {
    await requireRoom(ctx.db, ctx.rid, input.hid);
    const method = await requirePayType(ctx.db, ctx.session.groupId, input.pay_type, input.pay_ref, input.pay_method_id);
    const owner = await houseOwner(ctx.db, ctx.rid, input.hid, true);
    if (!owner) fail('该房屋没有登记业主，不能预存');
    const orderid = `TU${input.idempotency_key}`.slice(0, 64);
    // the member row is locked: a concurrent retry waits here and then finds the ledger row
    const done = await ctx.db
      .selectFrom('balance_ledger')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('member_id', '=', owner.member_id)
      .where('orderid', '=', orderid)
      .executeTakeFirst();
    if (!done) {
      await moveBalance(ctx.db, {
        rid: ctx.rid,
        memberId: owner.member_id,
        hid: input.hid,
        fen: toFen(input.amount),
        ioType: 1,
        feetype: 'recharge',
        paytype: input.pay_type,
        orderid,
        // the ledger keeps the system method; the group's own way is named in the remark
        remark: [input.remark || '收银台预存', method.name, input.pay_ref && `凭证号 ${input.pay_ref}`].filter(Boolean).join('，'),
        createUser: ctx.session.name,
      });
    }
    const after = await ctx.db
      .selectFrom('members')
      .select('balance')
      .where('rid', '=', ctx.rid)
      .where('id', '=', owner.member_id)
      .executeTakeFirstOrThrow();
    return reply(
      { member_id: owner.member_id, balance: fenToYuan(toFen(after.balance)), orderid },
      `预存成功，当前余额 ${after.balance} 元`,
    );
  },
});

export const prepayMethods = [housebalance, balancetopup];
