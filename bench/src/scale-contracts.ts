/**
 * Room-sales contracts (docs/product.md#crm-contracts) of the scale data (bench/README.md#scale-data):
 * per community the contract types, a contract for every fifth room (a sale, every fifth of them a
 * lease) in every state, three instalments each (deposit, down payment, mortgage; the past ones paid
 * but one contract in seven overdue), the units' kept states, list prices for every other room and a
 * change request for every fiftieth contract in effect.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const CONTRACT_STEPS = 4;
/** a contract for every ROOM_STRIDE-th room */
export const ROOM_STRIDE = 5;

export async function fillContracts(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step('contracts: types and settings', async () => {
    await sql`INSERT INTO contract_settings (rid) SELECT unnest(${rids}::int[]) ON CONFLICT DO NOTHING`.execute(c);
    await sql`
      INSERT INTO contract_types (rid, name, kind, prefix, need_audit, fields, sort)
      SELECT rid, t.name, t.kind, t.prefix, t.audit, t.fields::jsonb, t.sort
      FROM unnest(${rids}::int[]) AS rid CROSS JOIN (VALUES
        ('商品房买卖合同', 'sale', 'HT', 'Y', '[{"key":"f1","label":"付款方式","type":"select","required":true,"options":["一次性付款","商业按揭"]}]', 1),
        ('房屋租赁合同', 'lease', 'ZL', 'Y', '[]', 2),
        ('车位买卖合同', 'parking', 'CW', 'Y', '[]', 3),
        ('外包服务合同', 'other', 'FW', 'N', '[]', 4)) AS t(name, kind, prefix, audit, fields, sort)`.execute(c);
  });
  await step(`contracts: one for every ${ROOM_STRIDE}th room, its unit`, async () => {
    await sql`
      INSERT INTO contracts (rid, contract_no, type_id, kind, name, status, party_name, party_mobile, member_id, total_amount,
        sign_date, start_date, end_date, custom, submitted_at, approved_at, created_at)
      SELECT r.rid, 'HT' || lpad(r.id::text, 10, '0'), ty.id, ty.kind, ty.name,
        (ARRAY['Y','Y','Y','Y','Y','Y','Y','E','D','A','T','V','Y','Y','R','Y','Y','Y','Y','Y'])[1 + (r.id / ${ROOM_STRIDE}) % 20],
        '买家' || r.id, '139' || lpad((r.id % 100000000)::text, 8, '0'), NULL,
        1000000 + (r.id % 100) * 1000,
        current_date - (r.id % 700)::int, current_date - (r.id % 700)::int,
        CASE WHEN ty.kind = 'lease' THEN current_date - (r.id % 700)::int + 365 END,
        '{"f1":"商业按揭"}'::jsonb,
        now() - (r.id % 700) * interval '1 day', now() - (r.id % 700) * interval '1 day' + interval '1 day',
        now() - (r.id % 700) * interval '1 day'
      FROM rooms r
      JOIN contract_types ty ON ty.rid = r.rid AND ty.kind = CASE WHEN (r.id / ${ROOM_STRIDE}) % 5 = 4 THEN 'lease' ELSE 'sale' END
      WHERE r.rid = ANY(${rids}::int[]) AND r.id % ${ROOM_STRIDE} = 0`.execute(c);
    await sql`
      INSERT INTO contract_units (rid, contract_id, unit_kind, hid, area, price)
      SELECT k.rid, k.id, 'room', substr(k.contract_no, 3)::bigint, r.built_area, k.total_amount
      FROM contracts k JOIN rooms r ON r.rid = k.rid AND r.id = substr(k.contract_no, 3)::bigint
      WHERE k.rid = ANY(${rids}::int[]) AND k.contract_no LIKE 'HT%'`.execute(c);
  });
  await step('contracts: three instalments each, the past ones paid but one contract in seven', async () => {
    await sql`
      INSERT INTO contract_instalments (rid, contract_id, seq, name, amount, due_date, paid_at, receipt_no)
      SELECT k.rid, k.id, p.seq, p.name, p.amount, p.due,
        CASE WHEN k.status IN ('Y', 'E', 'R', 'T') AND p.due < current_date - 10 AND k.id % 7 <> 0 THEN p.due::timestamptz + interval '10 hours' END,
        CASE WHEN k.status IN ('Y', 'E', 'R', 'T') AND p.due < current_date - 10 AND k.id % 7 <> 0 THEN 'S' || lpad(k.id::text, 9, '0') || p.seq ELSE '' END
      FROM contracts k
      CROSS JOIN LATERAL (VALUES
        (1, '定金', 20000::numeric, k.sign_date),
        (2, '首付', round(k.total_amount * 0.3, 2) - 20000, k.sign_date + 30),
        (3, '按揭', k.total_amount - round(k.total_amount * 0.3, 2), k.sign_date + 120)) AS p(seq, name, amount, due)
      WHERE k.rid = ANY(${rids}::int[])`.execute(c);
  });
  await step('contracts: units’ states, list prices, change requests', async () => {
    await sql`
      INSERT INTO contract_unit_states (rid, unit_kind, unit_id, state, contract_id, price)
      SELECT u.rid, 'room', u.hid,
        CASE WHEN k.status = 'D' THEN 'reserved' WHEN k.status = 'A' THEN 'subscribed' WHEN k.kind = 'lease' THEN 'rented' ELSE 'signed' END,
        k.id, u.price
      FROM contract_units u JOIN contracts k ON k.rid = u.rid AND k.id = u.contract_id
      WHERE u.rid = ANY(${rids}::int[]) AND (k.status IN ('D', 'A', 'Y') OR (k.status = 'E' AND k.kind <> 'lease'))
      ON CONFLICT DO NOTHING`.execute(c);
    await sql`
      INSERT INTO contract_unit_prices (rid, unit_kind, unit_id, price)
      SELECT rid, 'room', id, round(built_area * 16800, 2) FROM rooms WHERE rid = ANY(${rids}::int[]) AND id % 2 = 1`.execute(c);
    await sql`
      INSERT INTO contract_changes (rid, contract_id, status, reason, before, after, opinion, created_at)
      SELECT k.rid, k.id, (ARRAY['A', 'Y', 'N'])[1 + (k.id / 50) % 3], '客户申请调整付款日期',
        jsonb_build_object('party_name', k.party_name, 'party_mobile', k.party_mobile, 'party_id_card', '', 'total_amount', k.total_amount::text,
          'sign_date', k.sign_date::text, 'start_date', k.start_date::text, 'end_date', k.end_date::text, 'instalments', '[]'::jsonb),
        jsonb_build_object('party_name', k.party_name, 'party_mobile', k.party_mobile, 'party_id_card', '', 'total_amount', k.total_amount::text,
          'sign_date', k.sign_date::text, 'start_date', (k.start_date + 1)::text, 'end_date', k.end_date::text, 'instalments', '[]'::jsonb),
        '', now() - (k.id % 300) * interval '1 day'
      FROM contracts k WHERE k.rid = ANY(${rids}::int[]) AND k.status = 'Y' AND k.id % 50 = 0`.execute(c);
  });
}
