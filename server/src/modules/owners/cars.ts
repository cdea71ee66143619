import { car, isNewEnergyPlate, normalizePlate } from '@wuye/contract';
import { fail } from '../../http/errors.js';
import { likePattern } from '../../lib/like.js';
import { defineResource } from '../../lib/resource.js';

/** The room and the owner (a person living in it) are checked by their widgets (lib/resource.ts). */
export const carMethods = defineResource(car, {
  table: 'cars',
  query: (db, rid) =>
    db
      .selectFrom('cars as t')
      .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
      .leftJoin('members as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.member_id'))
      .select(['t.id', 't.hid', 'r.bid', 'r.tid', 'r.address', 't.member_id', 'm.realname', 'm.mobile'])
      .select(['t.carlicense', 't.car_type', 't.color', 't.brand', 't.status', 't.remark', 't.create_time'])
      .where('t.rid', '=', rid),
  where: {
    carlicense: (qb, v) => qb.where('t.carlicense', 'ilike', likePattern(normalizePlate(String(v)))),
    bid: (qb, v) => qb.where('r.bid', '=', v),
    keyword: (qb, v) => {
      const p = likePattern(String(v));
      return qb.where((eb) => eb.or([eb('m.realname', 'ilike', p), eb('m.mobile', 'like', p)]));
    },
  },
  row: (c) => ({ ...c, realname: c.realname ?? '', mobile: c.mobile ?? '' }),
  values: (v) => ({
    ...v,
    member_id: v.member_id ?? null,
    car_type: v.car_type ?? (isNewEnergyPlate(String(v.carlicense)) ? 'new_energy' : 'small'),
  }),
  unique: [{ on: ['carlicense'], message: (v) => `车牌 ${String(v.carlicense)} 已登记` }],
  async beforeDelete(ctx, row) {
    const space = await ctx.db
      .selectFrom('parking_spaces')
      .select('title')
      .where('rid', '=', ctx.rid)
      .where('carlicense', '=', row.carlicense as string)
      .where('status', '<>', 'idle')
      .executeTakeFirst();
    if (space) fail(`车辆 ${String(row.carlicense)} 绑定了车位 ${space.title}，请先解除车位绑定`);
  },
  summaries: {
    list: '房屋车辆列表：按车牌、楼栋、房屋、状态、车主姓名或手机号、登记时间筛选',
    add: '为房屋登记车辆（车牌校验含新能源 8 位车牌，同一小区车牌唯一；车主须为该房屋的在住住户）',
    del: '删除车辆（绑定了在用车位时拒绝）',
  },
});
