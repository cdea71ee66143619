import {
  genderOfIdCard,
  isValidIdCard,
  MOBILE_RE,
  RELATION_CH,
  WIRE_DATE_RE,
  type MemberImportResult,
  type RelationCode,
} from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { SheetRow } from '../../lib/xlsxReader.js';
import type { ImportScope } from '../../jobs/imports.js';

export const MEMBER_IMPORT_KIND = 'member_import';
const BATCH = 200;

type RowError = MemberImportResult['errors'][number];

export interface ParsedLink {
  row: number;
  hid: number;
  mobile: string;
  realname: string;
  relation: RelationCode;
  id_card: string;
  gender: '' | 'M' | 'F';
  move_in_date: string | null;
}

const RELATION_BY_TEXT = new Map<string, RelationCode>(
  (Object.entries(RELATION_CH) as [RelationCode, string][]).flatMap(([code, ch]) => [
    [code, code],
    [ch, code],
  ]),
);
const GENDER_BY_TEXT = new Map<string, '' | 'M' | 'F'>([
  ['', ''],
  ['男', 'M'],
  ['女', 'F'],
  ['M', 'M'],
  ['F', 'F'],
]);

export interface Existing {
  /** `${building}|${unit}|${room}` -> hid */
  rooms: Map<string, number>;
  /** mobile -> member */
  members: Map<string, { id: number; realname: string }>;
  /** `${member_id}|${hid}` of current links */
  links: Set<string>;
}

export async function loadExisting(db: Kysely<DB>, rid: number, mobiles: string[]): Promise<Existing> {
  const rooms = await db
    .selectFrom('rooms as r')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
    .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
    .select(['r.id', 'b.title as building', 'u.title as unit', 'r.title'])
    .where('r.rid', '=', rid)
    .execute();
  const members = mobiles.length
    ? await db.selectFrom('members').select(['id', 'realname', 'mobile']).where('rid', '=', rid).where('mobile', 'in', mobiles).execute()
    : [];
  const links = members.length
    ? await db
        .selectFrom('room_members')
        .select(['member_id', 'hid'])
        .where('rid', '=', rid)
        .where('status', '=', 'Y')
        .where(
          'member_id',
          'in',
          members.map((m) => m.id),
        )
        .execute()
    : [];
  return {
    rooms: new Map(rooms.map((r) => [`${r.building}|${r.unit}|${r.title}`, r.id])),
    members: new Map(members.map((m) => [m.mobile, { id: m.id, realname: m.realname }])),
    links: new Set(links.map((l) => `${l.member_id}|${l.hid}`)),
  };
}

/** Checks every row; answers the links to create and the row errors (row, column, reason). */
export function validateRows(rows: SheetRow[], existing: Existing): { links: ParsedLink[]; errors: RowError[] } {
  const errors: RowError[] = [];
  const links: ParsedLink[] = [];
  const nameByMobile = new Map<string, { name: string; row: number }>();
  const seen = new Map<string, number>();
  for (const { rowNumber: row, values } of rows) {
    const v = (h: string) => (values[h] ?? '').trim();
    const before = errors.length;
    const bad = (column: string, reason: string) => {
      errors.push({ row, column, reason });
    };
    const building = v('楼栋');
    const unit = v('单元');
    const room = v('房号');
    const hid = existing.rooms.get(`${building}|${unit}|${room}`);
    if (!building || !unit || !room) bad('房号', '楼栋、单元、房号都不能为空');
    else if (hid === undefined) bad('房号', `房屋 ${building}${unit}${room} 不存在，请先导入房屋`);
    const realname = v('姓名');
    if (!realname) bad('姓名', '姓名不能为空');
    else if (realname.length > 30) bad('姓名', '姓名不能超过30个字符');
    const mobile = v('手机号');
    if (!MOBILE_RE.test(mobile)) bad('手机号', '手机号码格式不正确，应为11位手机号');
    const relation = RELATION_BY_TEXT.get(v('身份') || '业主');
    if (!relation) bad('身份', `身份“${v('身份')}”不正确，应为 业主、家属 或 租户`);
    const idCard = v('身份证号').toUpperCase();
    if (idCard && !isValidIdCard(idCard)) bad('身份证号', '身份证号码不正确');
    const gender = GENDER_BY_TEXT.get(v('性别'));
    if (gender === undefined) bad('性别', '性别应为 男 或 女');
    const moveIn = v('入住日期');
    if (moveIn && !WIRE_DATE_RE.test(moveIn)) bad('入住日期', '入住日期格式应为 YYYY-MM-DD');
    if (MOBILE_RE.test(mobile) && realname) {
      const known = existing.members.get(mobile);
      const inFile = nameByMobile.get(mobile);
      // the stored name is not shown: the file's uploader may not know it (issue 33: messages echoed owners' names)
      if (known && known.realname !== realname) bad('姓名', '该手机号已登记在其他姓名下，姓名不一致，请核对');
      else if (inFile && inFile.name !== realname) bad('姓名', `与第 ${inFile.row} 行同一手机号的姓名不一致`);
      else if (!inFile) nameByMobile.set(mobile, { name: realname, row });
      if (hid !== undefined) {
        const key = `${mobile}|${hid}`;
        const first = seen.get(key);
        if (first !== undefined) bad('房号', `与第 ${first} 行重复（同一人同一房屋）`);
        else seen.set(key, row);
      }
    }
    if (errors.length === before) {
      links.push({
        row,
        hid: hid!,
        mobile,
        realname,
        relation: relation!,
        id_card: idCard,
        gender: gender || genderOfIdCard(idCard),
        move_in_date: moveIn || null,
      });
    }
  }
  return { links, errors };
}

/** Creates the new people, then their room links, in short batches undone together on failure (jobs/batches.ts). */
export async function importLinks(ctx: ImportScope, links: ParsedLink[], existing: Existing): Promise<MemberImportResult> {
  const { rid } = ctx;
  const total = links.length;
  const ids = new Map([...existing.members].map(([mobile, m]) => [mobile, m.id]));
  const people = [...new Map(links.filter((l) => !ids.has(l.mobile)).map((l) => [l.mobile, l])).values()];
  for (let i = 0; i < people.length; i += BATCH) {
    await ctx.batch(async (trx, record) => {
      const created = await trx
        .insertInto('members')
        .values(
          people.slice(i, i + BATCH).map((p) => ({
            rid,
            realname: p.realname,
            mobile: p.mobile,
            id_card: p.id_card,
            gender: p.gender,
          })),
        )
        .returning(['id', 'mobile'])
        .execute();
      for (const c of created) ids.set(c.mobile, c.id);
      await record(
        'members',
        created.map((c) => c.id),
      );
    });
  }
  const fresh = links.filter((l) => !existing.links.has(`${ids.get(l.mobile)!}|${l.hid}`));
  for (let i = 0; i < fresh.length; i += BATCH) {
    const last = i + BATCH >= fresh.length;
    await ctx.batch(async (trx, record) => {
      const slice = fresh.slice(i, i + BATCH);
      const created = await trx
        .insertInto('room_members')
        .values(
          slice.map((l) => ({
            rid,
            hid: l.hid,
            member_id: ids.get(l.mobile)!,
            relation: l.relation,
            move_in_date: l.move_in_date,
          })),
        )
        .returning('id')
        .execute();
      await record(
        'room_members',
        created.map((c) => c.id),
      );
      // the rooms that got people are occupied, with the last batch: a failure before it leaves them as they were
      if (last) {
        const hids = [...new Set(fresh.map((l) => l.hid))];
        for (let k = 0; k < hids.length; k += 1000) {
          await trx
            .updateTable('rooms')
            .set({ state: 'occupied' })
            .where('rid', '=', rid)
            .where('id', 'in', hids.slice(k, k + 1000))
            .where('state', '=', 'vacant')
            .execute();
        }
      }
    });
    await ctx.step(Math.min(total, i + BATCH), total);
  }
  return { created_members: people.length, linked_rooms: fresh.length, errors: [] };
}
