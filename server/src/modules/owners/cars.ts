import { CAR_TYPE_CH, isNewEnergyPlate, normalizePlate, type CarItem } from '@wuye/contract';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { likePattern } from '../../lib/like.js';
import { CAR_MANAGERS, findHouse } from './access.js';

const carlist = defineMethod('carlist', {
  side: 'community',
  roles: CAR_MANAGERS,
  writes: false,
  summary: '房屋车辆列表：按车牌、楼栋、房屋、状态、车主姓名或手机号筛选',
  async handler(ctx, input) {
    let qb = ctx.db
      .selectFrom('cars as c')
      .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'c.rid').onRef('r.id', '=', 'c.hid'))
      .leftJoin('members as m', (j) => j.onRef('m.rid', '=', 'c.rid').onRef('m.id', '=', 'c.member_id'))
      .select([
        'c.id',
        'c.hid',
        'r.bid',
        'r.tid',
        'r.address',
        'c.member_id',
        'm.realname',
        'm.mobile',
        'c.carlicense',
        'c.car_type',
        'c.color',
        'c.brand',
        'c.status',
        'c.remark',
        'c.create_time',
      ])
      .where('c.rid', '=', ctx.rid);
    if (input.carlicense) qb = qb.where('c.carlicense', 'ilike', likePattern(normalizePlate(input.carlicense)));
    if (input.hid) qb = qb.where('c.hid', '=', input.hid);
    if (input.bid) qb = qb.where('r.bid', '=', input.bid);
    if (input.status) qb = qb.where('c.status', '=', input.status);
    if (input.keyword) {
      const p = likePattern(input.keyword);
      qb = qb.where((eb) => eb.or([eb('m.realname', 'ilike', p), eb('m.mobile', 'like', p)]));
    }
    const page = await listPage(qb, input, 'c.id');
    return {
      total: page.total,
      items: page.items.map((c): CarItem => ({
        ...c,
        realname: c.realname ?? '',
        mobile: c.mobile ?? '',
        car_type_ch: CAR_TYPE_CH[c.car_type] ?? c.car_type,
        status_ch: c.status === 'Y' ? '正常' : '停用',
        create_time: wireTime(c.create_time),
      })),
    };
  },
});

interface CarInput {
  hid: number;
  member_id?: number;
  carlicense: string;
  car_type?: 'small' | 'large' | 'new_energy';
}

/** The room is in this community; the owner of the car, if named, lives in it. */
async function checkCar(ctx: CommunityCtx, input: CarInput, exceptId?: number): Promise<void> {
  if (!(await findHouse(ctx, { hid: input.hid }))) fail('所选房屋不存在或不属于当前小区');
  if (input.member_id !== undefined) {
    const link = await ctx.db
      .selectFrom('room_members')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('hid', '=', input.hid)
      .where('member_id', '=', input.member_id)
      .where('status', '=', 'Y')
      .executeTakeFirst();
    if (!link) fail('车主必须是该房屋的在住住户');
  }
  const taken = await ctx.db
    .selectFrom('cars')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('carlicense', '=', input.carlicense)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .executeTakeFirst();
  if (taken) fail(`车牌 ${input.carlicense} 已登记`);
}

const carType = (input: CarInput) => input.car_type ?? (isNewEnergyPlate(input.carlicense) ? 'new_energy' : 'small');

const caradd = defineMethod('caradd', {
  side: 'community',
  roles: CAR_MANAGERS,
  writes: true,
  summary: '为房屋登记车辆（车牌校验含新能源 8 位车牌，同一小区车牌唯一）',
  async handler(ctx, input) {
    await checkCar(ctx, input);
    const { id } = await ctx.db
      .insertInto('cars')
      .values({
        rid: ctx.rid,
        hid: input.hid,
        member_id: input.member_id ?? null,
        carlicense: input.carlicense,
        car_type: carType(input),
        color: input.color,
        brand: input.brand,
        status: input.status,
        remark: input.remark,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id }, '添加成功');
  },
});

const caredit = defineMethod('caredit', {
  side: 'community',
  roles: CAR_MANAGERS,
  writes: true,
  summary: '编辑车辆',
  async handler(ctx, input) {
    const car = await ctx.db.selectFrom('cars').select('id').where('rid', '=', ctx.rid).where('id', '=', input.id).executeTakeFirst();
    if (!car) fail('车辆不存在');
    await checkCar(ctx, input, input.id);
    await ctx.db
      .updateTable('cars')
      .set({
        hid: input.hid,
        member_id: input.member_id ?? null,
        carlicense: input.carlicense,
        car_type: carType(input),
        color: input.color,
        brand: input.brand,
        status: input.status,
        remark: input.remark,
      })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    return reply({ id: input.id }, '保存成功');
  },
});

const cardel = defineMethod('cardel', {
  side: 'community',
  roles: CAR_MANAGERS,
  writes: true,
  summary: '删除车辆（绑定了在用车位时拒绝）',
  async handler(ctx, input) {
    const car = await ctx.db
      .selectFrom('cars')
      .select(['id', 'carlicense'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!car) fail('车辆不存在');
    const space = await ctx.db
      .selectFrom('parking_spaces')
      .select('title')
      .where('rid', '=', ctx.rid)
      .where('carlicense', '=', car.carlicense)
      .where('status', '<>', 'idle')
      .executeTakeFirst();
    if (space) fail(`车辆 ${car.carlicense} 绑定了车位 ${space.title}，请先解除车位绑定`);
    await ctx.db.deleteFrom('cars').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply({ id: input.id }, '删除成功');
  },
});

export const carMethods = [carlist, caradd, caredit, cardel];
