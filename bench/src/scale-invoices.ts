/**
 * Invoices (docs/product.md#invoices) of the scale data (bench/README.md#scale-data), per community,
 * set-based:
 *
 * - the seller's settings, every fee item but deposits mapped to its tax code and rate;
 * - a personal title for TITLES_PER_COMMUNITY owners (their default);
 * - one blue invoice, issued, for each of the INVOICED_PAYMENTS oldest receipts of an owner (all
 *   their lines, tax separated), the lines' `invoiced` taken; one in twenty of them reversed in full
 *   by an issued red invoice (the lines given back).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const INVOICE_STEPS = 1;
export const TITLES_PER_COMMUNITY = 20_000;
export const INVOICED_PAYMENTS = 60_000;

export async function fillInvoices(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step(
    `invoices: settings, mappings, ${TITLES_PER_COMMUNITY} titles and ${INVOICED_PAYMENTS} receipts invoiced a community`,
    async () => {
      for (const rid of rids) await community(c, rid);
      // the waiting and the invoiced lines' kept totals (202612010100, 202612010120), whose triggers the bulk load ran without
      await sql`SELECT invoice_wait_totals_rebuild(), invoice_period_totals_rebuild()`.execute(c);
      await sql`ANALYZE invoice_settings, invoice_item_maps, invoice_titles, invoices, invoice_lines, fee_payment_items`.execute(c);
    },
  );
}

async function community(c: Kysely<DB>, rid: number) {
  await sql`
    INSERT INTO invoice_settings (rid, seller_name, seller_tax_no, seller_address, seller_phone, payee, checker, clerk)
    SELECT id, title || '物业服务有限公司', '91310115MA1K3YJ73R', title || '物业服务中心', '021-55556666', '收银', '复核', '开票'
    FROM regions WHERE id = ${rid}`.execute(c);
  await sql`
    INSERT INTO invoice_item_maps (rid, item_id, goods_name, tax_code, rate)
    SELECT rid, id,
      CASE cost_type WHEN 'property' THEN '物业管理服务' WHEN 'parking' THEN '车辆停放服务' WHEN 'water' THEN '水费' WHEN 'electricity' THEN '电费' ELSE '其他服务' END,
      CASE cost_type WHEN 'property' THEN '3040801010000000000' WHEN 'parking' THEN '3040502020200000000' WHEN 'water' THEN '1100301010000000000'
        WHEN 'electricity' THEN '1100101020200000000' ELSE '3049900000000000000' END,
      CASE cost_type WHEN 'property' THEN 6 WHEN 'parking' THEN 9 WHEN 'water' THEN 3 WHEN 'electricity' THEN 13 ELSE 6 END
    FROM fee_items WHERE rid = ${rid} AND cost_type <> 'deposit'`.execute(c);
  await sql`
    INSERT INTO invoice_titles (rid, hid, member_id, kind, title, is_default)
    SELECT DISTINCT ON (rm.member_id) rm.rid, rm.hid, rm.member_id, 'person', m.realname, 'Y'
    FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
    WHERE rm.rid = ${rid} AND rm.relation = 'owner' AND rm.status = 'Y' AND rm.member_id IN (
      SELECT member_id FROM room_members WHERE rid = ${rid} AND relation = 'owner' AND status = 'Y' ORDER BY member_id LIMIT ${TITLES_PER_COMMUNITY})
    ORDER BY rm.member_id, rm.id`.execute(c);
  // the receipts invoiced: an owner's, paid, every line mapped and of a past period
  await sql`
    CREATE TEMP TABLE picked AS
    SELECT p.id AS payment_id, p.member_id, p.payer_name, p.created_at, nextval(pg_get_serial_sequence('invoices', 'id')) AS invoice_id
    FROM fee_payments p
    WHERE p.rid = ${rid} AND p.status = 'Y' AND p.member_id IS NOT NULL AND p.hid IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM fee_payment_items pi LEFT JOIN fee_bills b ON b.rid = pi.rid AND b.id = pi.bill_id
        LEFT JOIN invoice_item_maps im ON im.rid = b.rid AND im.item_id = b.item_id
        WHERE pi.rid = p.rid AND pi.payment_id = p.id AND (im.item_id IS NULL OR pi.cost_type = 'deposit'))
    ORDER BY p.id LIMIT ${INVOICED_PAYMENTS}`.execute(c);
  await sql`
    INSERT INTO invoices (rid, id, serial, invoice_no, kind, color, status, member_id, buyer_kind, buyer_title, seller_name, seller_tax_no,
      amount, ex_tax, tax, issued_at, issuer, created_at)
    SELECT ${rid}, k.invoice_id, 'FP' || ${rid} || '-' || lpad(k.invoice_id::text, 10, '0'), '2631' || '2' || lpad(k.invoice_id::text, 15, '0'), 'p', 'B', 'Y',
      k.member_id, 'person', k.payer_name, s.seller_name, s.seller_tax_no, 0, 0, 0, k.created_at + interval '1 hour', '开票', k.created_at + interval '1 hour'
    FROM picked k CROSS JOIN invoice_settings s WHERE s.rid = ${rid}`.execute(c);
  await sql`
    INSERT INTO invoice_lines (rid, invoice_id, payment_item_id, payment_id, hid, item_id, goods_name, tax_code, rate, amount, discount, ex_tax, tax)
    SELECT pi.rid, k.invoice_id, pi.id, pi.payment_id, b.hid, b.item_id, im.goods_name, im.tax_code, im.rate,
      x.amount, pi.discount, round(x.amount * 100 / (100 + im.rate), 2), x.amount - round(x.amount * 100 / (100 + im.rate), 2)
    FROM picked k
    JOIN fee_payment_items pi ON pi.rid = ${rid} AND pi.payment_id = k.payment_id
    JOIN fee_bills b ON b.rid = pi.rid AND b.id = pi.bill_id
    JOIN invoice_item_maps im ON im.rid = b.rid AND im.item_id = b.item_id
    CROSS JOIN LATERAL (SELECT pi.fee + pi.late_fee - pi.discount AS amount) x
    WHERE x.amount > 0`.execute(c);
  await sql`
    UPDATE invoices v SET amount = t.amount, ex_tax = t.ex_tax, tax = t.tax
    FROM (SELECT invoice_id, sum(amount) amount, sum(ex_tax) ex_tax, sum(tax) tax FROM invoice_lines WHERE rid = ${rid} GROUP BY 1) t
    WHERE v.rid = ${rid} AND v.id = t.invoice_id`.execute(c);
  // every twentieth reversed in full
  await sql`
    INSERT INTO invoices (rid, id, serial, invoice_no, kind, color, blue_id, status, member_id, buyer_kind, buyer_title, seller_name, seller_tax_no,
      amount, ex_tax, tax, red_reason, issued_at, issuer, created_at)
    SELECT v.rid, r.id, 'FP' || v.rid || '-' || lpad(r.id::text, 10, '0'), '2631' || '2' || lpad(r.id::text, 15, '0'), v.kind, 'R', v.id, 'Y',
      v.member_id, v.buyer_kind, v.buyer_title, v.seller_name, v.seller_tax_no, -v.amount, -v.ex_tax, -v.tax, 'wrong',
      v.issued_at + interval '1 day', v.issuer, v.created_at + interval '1 day'
    FROM invoices v CROSS JOIN LATERAL (SELECT nextval(pg_get_serial_sequence('invoices', 'id')) AS id) r
    WHERE v.rid = ${rid} AND v.color = 'B' AND v.id % 20 = 0`.execute(c);
  await sql`
    INSERT INTO invoice_lines (rid, invoice_id, payment_item_id, payment_id, hid, item_id, goods_name, tax_code, rate, amount, ex_tax, tax, blue_line_id)
    SELECT l.rid, r.id, l.payment_item_id, l.payment_id, l.hid, l.item_id, l.goods_name, l.tax_code, l.rate, -l.amount, -l.ex_tax, -l.tax, l.id
    FROM invoices r JOIN invoice_lines l ON l.rid = r.rid AND l.invoice_id = r.blue_id
    WHERE r.rid = ${rid} AND r.color = 'R'`.execute(c);
  await sql`UPDATE invoice_lines SET reversed = amount WHERE rid = ${rid} AND invoice_id IN (SELECT blue_id FROM invoices WHERE rid = ${rid} AND color = 'R')`.execute(
    c,
  );
  await sql`UPDATE invoices SET reversed = amount, status = 'R' WHERE rid = ${rid} AND id IN (SELECT blue_id FROM invoices WHERE rid = ${rid} AND color = 'R')`.execute(
    c,
  );
  // what the invoices still hold of each line
  await sql`
    UPDATE fee_payment_items pi SET invoiced = h.held
    FROM (SELECT l.payment_item_id, sum(l.amount) held FROM invoice_lines l WHERE l.rid = ${rid} GROUP BY 1) h
    WHERE pi.rid = ${rid} AND pi.id = h.payment_item_id AND h.held <> 0`.execute(c);
  await sql`DROP TABLE picked`.execute(c);
}
