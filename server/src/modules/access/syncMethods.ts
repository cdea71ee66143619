/**
 * The sync grid (/carpark/face_user_synclog; docs/product.md#access-control): people by devices,
 * each cell held, pending, failed (with the device's error) or deleting; "retry all failed" and the
 * export of the errors.
 */
import { GRANT_STATUS, SYNC_STATE, enumText } from '@wuye/contract';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isOnline } from '../../devices/access.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { grantKeyword } from './grants.js';
import { retryFailed } from './sync.js';

async function syncedGrants(db: Kysely<DB>, rid: number, f: { keyword?: string; state?: '' | 'pending' | 'held' | 'failed' }) {
  let qb = db
    .selectFrom('access_grants as g')
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'g.rid').onRef('r.id', '=', 'g.hid'))
    .select(['g.id', 'g.person_name', 'r.address', 'g.status', 'g.revoked_at'])
    .where('g.rid', '=', rid)
    // the grants with any device row: their kept count (migration 202611301130)
    .where('g.device_rows', '>', 0);
  const state = f.state;
  if (state)
    qb = qb.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('access_grant_devices as s')
          .select('s.grant_id')
          .whereRef('s.rid', '=', 'g.rid')
          .whereRef('s.grant_id', '=', 'g.id')
          .where('s.state', '=', state),
      ),
    );
  if (f.keyword) qb = qb.where(await grantKeyword(db, rid, f.keyword));
  return qb;
}

const accesssynclist = defineMethod('accesssynclist', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: false,
  summary: '人员下发情况：人员 × 门禁设备的表格，每格为已下发、下发中、失败（附设备的错误）或删除中；可按姓名房屋和状态筛选',
  async handler(ctx, input) {
    const page = await listPage(await syncedGrants(ctx.db, ctx.rid, input), input, 'g.id');
    const ids = page.items.map((g) => Number(g.id));
    const cells = ids.length
      ? await ctx.db
          .selectFrom('access_grant_devices')
          .select(['grant_id', 'device_id', 'state', 'last_error'])
          .where('rid', '=', ctx.rid)
          .where('grant_id', 'in', ids)
          .execute()
      : [];
    const deviceIds = [...new Set(cells.map((c) => Number(c.device_id)))];
    const devices = deviceIds.length
      ? await ctx.db
          .selectFrom('devices')
          .select(['id', 'code', 'title', 'last_heartbeat'])
          .where('rid', '=', ctx.rid)
          .where('id', 'in', deviceIds)
          .orderBy('id')
          .execute()
      : [];
    return {
      total: page.total,
      devices: devices.map((d) => ({
        id: Number(d.id),
        code: d.code,
        title: d.title,
        online: isOnline(d.last_heartbeat) ? ('Y' as const) : ('N' as const),
      })),
      items: page.items.map((g) => ({
        grant_id: Number(g.id),
        person_name: g.person_name,
        address: g.address ?? '',
        status: g.status,
        status_ch: g.revoked_at ? '已注销' : enumText(GRANT_STATUS, g.status),
        cells: cells
          .filter((c) => Number(c.grant_id) === Number(g.id))
          .map((c) => ({
            device_id: Number(c.device_id),
            state: c.state,
            state_ch: enumText(SYNC_STATE, c.state),
            last_error: c.last_error,
          })),
      })),
    };
  },
});

const accesssyncretry = defineMethod('accesssyncretry', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '重试下发失败：立即重发失败的下发与删除指令（全部，或某授权、某设备的）',
  async handler(ctx, input) {
    if (input.grant_id) {
      const g = await ctx.db
        .selectFrom('access_grants')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.grant_id)
        .executeTakeFirst();
      if (!g) return fail('门禁授权不存在');
    }
    if (input.device_id) {
      const d = await ctx.db
        .selectFrom('devices')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.device_id)
        .where('family', '=', 'door')
        .executeTakeFirst();
      if (!d) return fail('门禁设备不存在');
    }
    const retried = await retryFailed(ctx.db, ctx.rid, { grantId: input.grant_id, deviceId: input.device_id });
    return reply({ retried }, retried ? `已重新下发 ${retried} 条失败的指令` : '没有失败的指令');
  },
});

/** The failed device rows the export lists, narrowed by the grid's keyword (the grants' keyword, grantKeyword). */
async function failures(db: Kysely<DB>, rid: number, keyword: string) {
  let qb = db
    .selectFrom('access_grant_devices as s')
    .innerJoin('access_grants as g', (j) => j.onRef('g.rid', '=', 's.rid').onRef('g.id', '=', 's.grant_id'))
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 's.rid').onRef('d.id', '=', 's.device_id'))
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'g.rid').onRef('r.id', '=', 'g.hid'))
    .where('s.rid', '=', rid)
    .where((eb) => eb.or([eb('s.state', '=', 'failed'), eb('s.last_error', '!=', '')]));
  if (keyword) qb = qb.where(await grantKeyword(db, rid, keyword));
  return qb;
}

const accesssyncexport = defineExport('accesssyncexport', {
  roles: ACCESS_ROLES.staff,
  summary: '导出下发失败：人员、房屋、设备、状态、错误、时间',
  filename: () => `门禁下发失败_${today()}.xlsx`,
  check: async (scope, input) => refuseOversizedExport(scope.db, (await failures(scope.db, scope.rid, input.keyword)).select('s.grant_id')),
  async sheet(scope, input) {
    const rows = await (
      await failures(scope.db, scope.rid, input.keyword)
    )
      .select(['g.person_name', 'r.address', 'd.code', 'd.title', 's.state', 's.last_error', 's.updated_at'])
      .orderBy('s.grant_id')
      .orderBy('s.device_id')
      .limit(EXPORT_MAX)
      .execute();
    return sheetOf(
      '下发失败',
      [
        { header: '人员', value: (r) => r.person_name },
        { header: '房屋', value: (r) => r.address ?? '', width: 24 },
        { header: '设备编号', value: (r) => r.code },
        { header: '设备', value: (r) => r.title, width: 18 },
        { header: '状态', value: (r) => enumText(SYNC_STATE, r.state) },
        { header: '错误', value: (r) => r.last_error, width: 30 },
        { header: '时间', value: (r) => wireTime(r.updated_at), width: 20 },
      ],
      rows,
    );
  },
});

export const syncModule = [accesssynclist, accesssyncretry, accesssyncexport];
