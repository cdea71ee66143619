import crypto from 'node:crypto';
import { DEFAULT_CALL_TEMPLATE, DEFAULT_CODE_TEMPLATE } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { runDeviceQueue } from '../../devices/access.js';
import { demoRooms, peopledCommunities } from '../owners/seed.js';
import { refreshUnitRegions } from './regions.js';
import { generateRoomCodes, pushRoomCodes, refreshRoomSyncState } from './roomcodes.js';
import { syncGrant } from './sync.js';

/**
 * Demo data of the access area (server/src/db/OWNERS.md, docs/product.md#access-control) (the
 * visitors are the visitor area's: modules/visitors/seed.ts): the door devices (simulated terminals, one of them offline),
 * their regions (a unit's own, the gates, all doors); grants in every status, pushed through the
 * queue so the devices hold what the grants say (those on the offline device fail, so some are
 * partial); a month of passes (the demo owner's rooms have plenty of each); every home's room code,
 * synced a day ago, three since changed and failing on the door that is off.
 */
export async function seedAccess(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunity(db, rid);
  // the approved grants go to the devices now: sent, then answered by the simulated terminals
  const now = Date.now();
  for (let i = 0; i < 20; i++) {
    const r = await runDeviceQueue(db, new Date(now + i * 2000));
    if (r.sent + r.answered + r.failed === 0 && i > 0) break;
  }
}

/** A small PNG (a grey silhouette tile) stored as an upload of the community: its address. */
async function sampleFace(db: Kysely<DB>, rid: number): Promise<string> {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAARElEQVR4nGN4+OwNVRDDCDeoomkiRQYB9WMikg3Cagoes4aKQXhMwWXWUPEaNQ2iWjpCM5GgGtrkNYKxjsenowaNaIMA/g8YJMxBt6oAAAAASUVORK5CYII=',
    'base64',
  );
  const region = await db.selectFrom('regions').select('group_id').where('id', '=', rid).executeTakeFirstOrThrow();
  const key = crypto.randomBytes(16).toString('hex');
  const row = await db
    .insertInto('uploaded_images')
    .values({ group_id: region.group_id, rid, key, name: '人脸样例.png', mime: 'image/png', size: png.length, content: png })
    .returning('id')
    .executeTakeFirstOrThrow();
  return `/files/${row.id}/${key}.png`;
}

async function seedCommunity(db: Kysely<DB>, rid: number): Promise<void> {
  const demo = demoRooms(rid);
  // the first unit of the first building has a door of its own
  const unit = await db
    .selectFrom('units as u')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'u.rid').onRef('b.id', '=', 'u.bid'))
    .select(['u.id', 'u.bid', 'b.title as building', 'u.title as unit'])
    .where('u.rid', '=', rid)
    .orderBy('b.sort')
    .orderBy('b.id')
    .orderBy('u.sort')
    .orderBy('u.id')
    .executeTakeFirst();
  const place = unit ? { location: 'unit' as const, bid: unit.bid, tid: unit.id } : { location: 'community' as const };
  // named apart in each community (the owner drawer's device list is a community's)
  const unitName = `${rid === 1 ? '' : '翠湖苑'}${unit ? `${unit.building}${unit.unit}` : '单元'}门禁`;
  type Door = { title: string; address: string; direction: 'in' | 'out' | 'both'; at: 'gate' | 'unit' | 'garage' };
  const devices: Door[] =
    rid === 1
      ? [
          { title: unitName, address: unit ? `${unit.building}${unit.unit}大堂` : '', direction: 'both', at: 'unit' },
          { title: '东门人行闸机', address: '小区东门', direction: 'both', at: 'gate' },
          { title: '地下车库电梯厅', address: '地下一层电梯厅', direction: 'both', at: 'garage' },
          { title: '南门人行闸机', address: '小区南门', direction: 'in', at: 'gate' },
        ]
      : [
          { title: '翠湖苑正门闸机', address: '小区正门', direction: 'both', at: 'gate' },
          { title: unitName, address: unit ? `${unit.building}${unit.unit}大堂` : '', direction: 'both', at: 'unit' },
        ];
  const ids: number[] = [];
  for (const [i, d] of devices.entries()) {
    const row = await db
      .insertInto('devices')
      .values({
        rid,
        family: 'door',
        code: `D${String(i + 1).padStart(4, '0')}`,
        title: d.title,
        address: d.address,
        direction: d.direction,
        version: 'SIM-2.1',
        ip: `192.168.${rid}.${21 + i}`,
        mac: `02:00:00:0${rid}:00:${String(21 + i).padStart(2, '0')}`,
        ...(d.at === 'unit' ? place : { location: 'community' as const }),
        last_heartbeat: sql<Date>`now()`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(Number(row.id));
  }
  // 南门 (翠湖苑: its unit door) is switched off: it stopped beating ten minutes ago
  const offline = rid === 1 ? ids[3]! : ids[1]!;
  await db
    .updateTable('devices')
    .set({ last_heartbeat: sql<Date>`now() - interval '10 minutes'` })
    .where('rid', '=', rid)
    .where('id', '=', offline)
    .execute();
  await db.insertInto('device_sims').values({ rid, device_id: offline, offline: 'Y' }).execute();

  await refreshUnitRegions(db, rid);
  const gates = devices.flatMap((d, i) => (d.at === 'gate' ? [ids[i]!] : []));
  const region = async (title: string, deviceIds: number[], weekdays = '1234567', windows = '[]') => {
    const r = await db
      .insertInto('access_regions')
      .values({ rid, title, scope: 'community', weekdays, windows })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('access_region_devices')
      .values(deviceIds.map((device_id) => ({ rid, region_id: r.id, device_id })))
      .execute();
    return Number(r.id);
  };
  const gateRegion = await region('小区大门', gates);
  const allRegion = await region('全部门禁', ids);
  const workRegion = await region('工作时间', gates, '123456', JSON.stringify([{ start: '07:00', end: '19:00' }]));
  const unitRegion = await db
    .selectFrom('access_regions')
    .select('id')
    .where('rid', '=', rid)
    .where('auto', '=', 'Y')
    .orderBy('id')
    .executeTakeFirst();

  // residents' grants: statuses spread over every value; the approved ones are pushed below
  const grants = await sql<{ id: string; status: string }>`
    INSERT INTO access_grants (rid, member_id, hid, person_kind, person_name, mobile, area_title, door_start_time, door_end_time,
                               status, face_image, card_no, create_user, create_time)
    SELECT ${rid}, rm.member_id, rm.hid, rm.relation, m.realname, m.mobile, '',
           date_trunc('day', now()) - ((100 * g) * interval '1 day'), date_trunc('day', now()) + ((365 - 30 * g) * interval '1 day'),
           (ARRAY['Y','W','P','N','Y',''])[1 + (rm.id + g) % 6], '',
           CASE WHEN (rm.id + g) % 3 = 0 THEN 'C' || lpad((rm.id * 10 + g)::text, 8, '0') ELSE '' END,
           CASE WHEN g % 2 = 0 THEN '业主小程序' ELSE '钱管家' END,
           now() - ((g * 9 + rm.id % 3) * interval '1 day')
    FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
    CROSS JOIN generate_series(1, CASE WHEN rm.hid IN ${demo} THEN 2 ELSE 1 END) g
    WHERE rm.rid = ${rid} AND rm.status = 'Y' AND (rm.hid IN ${demo} OR rm.hid % 10 = 0)
    RETURNING id, status`.execute(db);
  // a photo where the grant has no card (the demo's faces are one sample image, uploaded as a user would)
  const face = await sampleFace(db, rid);
  await sql`UPDATE access_grants SET face_image = ${face} WHERE rid = ${rid} AND card_no = ''`.execute(db);
  // staff
  const staff = await sql<{ id: string; status: string }>`
    INSERT INTO access_grants (rid, person_kind, person_name, mobile, area_title, door_start_time, door_end_time, status, card_no, create_user)
    VALUES (${rid}, 'staff', '保洁王阿姨', '13910000001', '', date_trunc('day', now()) - interval '30 days', date_trunc('day', now()) + interval '300 days', 'Y', 'S${sql.raw(String(rid))}0001', '钱管家'),
           (${rid}, 'staff', '保安周师傅', '13910000002', '', date_trunc('day', now()) - interval '30 days', date_trunc('day', now()) + interval '300 days', 'Y', 'S${sql.raw(String(rid))}0002', '钱管家'),
           (${rid}, 'other', '快递柜维护员', '', '', date_trunc('day', now()), date_trunc('day', now()) + interval '30 days', 'W', 'S${sql.raw(String(rid))}0003', '钱管家')
    RETURNING id, status`.execute(db);
  const all = [...grants.rows, ...staff.rows];
  const links: Array<{ rid: number; grant_id: number; region_id: number }> = [];
  for (const g of all) {
    const id = Number(g.id);
    const n = id % 4;
    const regions =
      n === 0 && unitRegion ? [Number(unitRegion.id)] : n === 1 ? [gateRegion, allRegion] : n === 2 ? [gateRegion] : [workRegion];
    for (const region_id of regions) links.push({ rid, grant_id: id, region_id });
  }
  for (let i = 0; i < links.length; i += 500)
    await db
      .insertInto('access_grant_regions')
      .values(links.slice(i, i + 500))
      .execute();
  await sql`UPDATE access_grants g SET area_title = coalesce((SELECT string_agg(ar.title, '、' ORDER BY ar.id) FROM access_grant_regions gr
    JOIN access_regions ar ON ar.rid = gr.rid AND ar.id = gr.region_id WHERE gr.rid = g.rid AND gr.grant_id = g.id), '')
    WHERE g.rid = ${rid}`.execute(db);
  await sql`UPDATE access_grants SET reason = '照片不清晰，请重新拍摄' WHERE rid = ${rid} AND status = 'N'`.execute(db);
  // approved: the Y and P ones (pushed now), the N ones were refused at review
  await sql`UPDATE access_grants SET approved_at = create_time + interval '1 hour', status = 'P' WHERE rid = ${rid} AND status IN ('Y', 'P')`.execute(
    db,
  );
  for (const g of all) if (g.status === 'Y' || g.status === 'P') await syncGrant(db, rid, Number(g.id));

  // a month of passes: face, card and QR, now and then a refusal
  await sql`
    INSERT INTO access_passes (rid, device_id, member_id, hid, person_name, grant_id, method, similarity, result, rec_time)
    SELECT ${rid}, d.id, g.member_id, g.hid, g.person_name, g.id,
           CASE WHEN g.card_no <> '' AND k % 3 = 0 THEN 'card' ELSE 'face' END,
           CASE WHEN g.card_no <> '' AND k % 3 = 0 THEN NULL ELSE 88 + (g.id * 7 + k) % 11 END,
           CASE WHEN (g.id + k) % 17 = 0 THEN 'refused' ELSE 'open' END,
           now() - ((k * 29 + g.id % 23) * interval '1 hour') - ((g.id * 13 + k * 7) % 60) * interval '1 minute'
    FROM access_grants g CROSS JOIN generate_series(1, CASE WHEN g.hid IN ${demo} THEN 24 ELSE 3 END) k
    JOIN LATERAL (SELECT rd.device_id AS id FROM access_grant_regions gr JOIN access_region_devices rd ON rd.rid = gr.rid AND rd.region_id = gr.region_id
                  WHERE gr.rid = g.rid AND gr.grant_id = g.id ORDER BY rd.device_id OFFSET (k % 2) LIMIT 1) d ON true
    WHERE g.rid = ${rid} AND g.approved_at IS NOT NULL`.execute(db);
  // strangers refused at the gates
  await sql`
    INSERT INTO access_passes (rid, device_id, person_name, method, similarity, result, rec_time)
    SELECT ${rid}, ${gates[0]!}, '', 'face', 30 + k % 20, 'refused', now() - (k * 37 * interval '1 hour')
    FROM generate_series(1, 20) k`.execute(db);

  // room codes from the default templates, pushed a day ago and answered by every door (the shops'
  // codes clash with their floor's rooms and are left to set by hand); three rooms changed since
  // are pushed now, so they fail on the door that is off
  await generateRoomCodes(
    db,
    rid,
    { code_template: DEFAULT_CODE_TEMPLATE, call_template: DEFAULT_CALL_TEMPLATE, bid: undefined, overwrite: 'N' },
    null,
  );
  await sql`UPDATE device_commands SET state = 'done', attempts = 1, created_at = now() - interval '1 day', sent_at = now() - interval '1 day',
      acked_at = now() - interval '1 day' + interval '2 seconds'
    WHERE rid = ${rid} AND kind = 'room_sync'`.execute(db);
  await sql`UPDATE room_codes SET created_at = now() - interval '1 day', updated_at = now() - interval '1 day',
      created_by = (SELECT id FROM accounts WHERE username = 'access'), updated_by = (SELECT id FROM accounts WHERE username = 'access')
    WHERE rid = ${rid}`.execute(db);
  await refreshRoomSyncState(db, rid, 'all');
  const changed = await db.selectFrom('room_codes').select('hid').where('rid', '=', rid).orderBy('hid').limit(3).execute();
  await sql`UPDATE room_codes SET updated_at = now() - interval '1 hour' WHERE rid = ${rid} AND hid = ANY(${changed.map((c) => Number(c.hid))}::bigint[])`.execute(
    db,
  );
  await pushRoomCodes(
    db,
    rid,
    changed.map((c) => Number(c.hid)),
  );
}
