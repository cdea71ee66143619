import { fenToYuan, toFen, type RoomArrears } from '@wuye/contract';
import { sql, type RawBuilder } from 'kysely';

/**
 * What a room owes is computed in one place, by the database (202611261945_fee_arrears.sql): the
 * late fee of a bill by `fee_late_fee`, a room's arrears by `room_arrears`. The cashier, the payment,
 * the owner drawer, the owner search, the bill list, the dunning notices and the arrears report all
 * read them, so the same room shows the same amount on every screen (issue 34).
 */

/** The late fee on `day` of the unpaid bill `b` of item `i` (their usual aliases), as money text. */
export const billLateFee = (day: RawBuilder<unknown> | string) =>
  sql<string>`fee_late_fee(b.fee, b.due_date, ${day}::date, i.late_fee_rule, i.late_fee_rate, i.late_fee_grace_days, i.late_fee_cap_percent)::numeric(14,2)::text`;

/**
 * The arrears of room `hid` of community `rid` on `day`, joined as `alias` (columns bill_count, fee,
 * late_fee). Any of the three may be a statement template's slot.
 */
export const roomArrearsJoin = (rid: unknown, hid: RawBuilder<unknown>, day: unknown, alias = 'a') =>
  sql`CROSS JOIN LATERAL room_arrears(${rid}, ${hid}, ${day}::date) ${sql.raw(alias)}`;

/** A room's arrears joined as `alias` (roomArrearsJoin), as the JSON object of a RoomArrears. */
export const arrearsJson = (alias = 'a') => {
  const a = (col: string) => sql.raw(`${alias}.${col}`);
  return sql`json_build_object('bill_count', ${a('bill_count')}, 'fee', ${a('fee')}::numeric(14,2)::text,
    'late_fee', ${a('late_fee')}::numeric(14,2)::text, 'total', (${a('fee')} + ${a('late_fee')})::numeric(14,2)::text)`;
};

/** The wire arrears of a room_arrears row. */
export function toArrears(row: { bill_count: number; fee: string; late_fee: string }): RoomArrears {
  const fee = toFen(row.fee);
  const late = toFen(row.late_fee);
  return { bill_count: row.bill_count, fee: fenToYuan(fee), late_fee: fenToYuan(late), total: fenToYuan(fee + late) };
}
