/**
 * A community's visitor settings (visitorsetinfo / visitorsetedit; docs/product.md#visitors): review
 * needed, push the face, reserve a space for a visitor's car in a lot with its free minutes, and a
 * per-owner daily limit of visitor cars. A community without a row has the defaults.
 */
import type { VisitorSettings, YN } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { wireTime } from '../../lib/wire.js';
import { VISITOR_ROLES } from '@wuye/contract';

export interface Settings {
  review: YN;
  push_face: YN;
  reserve_car: YN;
  lot_id: number | null;
  free_minutes: number;
  daily_car_limit: number;
}

export const DEFAULT_SETTINGS: Settings = {
  review: 'N',
  push_face: 'N',
  reserve_car: 'N',
  lot_id: null,
  free_minutes: 120,
  daily_car_limit: 0,
};

/** The community's settings (the defaults without a row). */
export async function visitorSettings(db: Kysely<DB>, rid: number): Promise<Settings> {
  const row = await db
    .selectFrom('visitor_settings')
    .select(['review', 'push_face', 'reserve_car', 'lot_id', 'free_minutes', 'daily_car_limit'])
    .where('rid', '=', rid)
    .executeTakeFirst();
  if (!row) return { ...DEFAULT_SETTINGS };
  return {
    review: row.review as YN,
    push_face: row.push_face as YN,
    reserve_car: row.reserve_car as YN,
    lot_id: row.lot_id === null ? null : Number(row.lot_id),
    free_minutes: row.free_minutes,
    daily_car_limit: row.daily_car_limit,
  };
}

async function answer(db: Kysely<DB>, rid: number): Promise<VisitorSettings> {
  const s = await visitorSettings(db, rid);
  const row = await db.selectFrom('visitor_settings').select('updated_at').where('rid', '=', rid).executeTakeFirst();
  const lot =
    s.lot_id === null
      ? undefined
      : await db.selectFrom('parking_lots').select('title').where('rid', '=', rid).where('id', '=', s.lot_id).executeTakeFirst();
  return { ...s, lot_title: lot?.title ?? '', update_time: wireTime(row?.updated_at ?? null) };
}

const visitorsetinfo = defineMethod('visitorsetinfo', {
  side: 'community',
  roles: VISITOR_ROLES.staff,
  writes: false,
  summary: '访客设置：是否审核、人脸下发、访客车辆预留车位（停车场、免费时长）、每位业主每日访客车辆上限',
  async handler(ctx) {
    return answer(ctx.db, ctx.rid);
  },
});

const visitorsetedit = defineMethod('visitorsetedit', {
  side: 'community',
  roles: VISITOR_ROLES.manager,
  writes: true,
  summary: '保存访客设置（开启车位预留须选择本小区的停车场）',
  async handler(ctx, input) {
    const lotId = input.lot_id ?? null;
    if (lotId !== null) {
      const lot = await ctx.db
        .selectFrom('parking_lots')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', '=', lotId)
        .executeTakeFirst();
      if (!lot) fail('所选停车场不存在');
    }
    const values = {
      review: input.review,
      push_face: input.push_face,
      reserve_car: input.reserve_car,
      lot_id: lotId,
      free_minutes: input.free_minutes,
      daily_car_limit: input.daily_car_limit,
      updated_by: ctx.session.accountId,
    };
    await ctx.db
      .insertInto('visitor_settings')
      .values({ rid: ctx.rid, ...values, created_by: ctx.session.accountId })
      .onConflict((oc) => oc.column('rid').doUpdateSet({ ...values, updated_at: new Date() }))
      .execute();
    return reply(await answer(ctx.db, ctx.rid), '保存成功');
  },
});

export const visitorSettingsMethods = [visitorsetinfo, visitorsetedit];
