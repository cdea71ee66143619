/**
 * Demo data of the invoices (server/src/db/OWNERS.md; docs/product.md#invoices), in each peopled
 * community: the seller's settings, every fee item but deposits mapped to its tax code, titles of
 * some owners (the demo owner 陈建国 has a personal and a company one), invoices issued through the
 * sandbox for a dozen receipts, one of them reversed in full and one in part, one that failed, and
 * two applications: one waiting for review, one approved.
 */
import { fenToYuan, INVOICE_ITEM_SUGGESTIONS, invoiceApplyFlow, type Buyer } from '@wuye/contract';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { InvoiceTitlesTable } from '../../db/types.generated.js';
import type { DB } from '../../db/schema.js';
import { seedCtxOf } from '../../db/seedAs.js';
import type { CommunityCtx } from '../../http/registry.js';
import { today } from '../../lib/wire.js';
import { writeFlowLog } from '../../lib/workflow.js';
import { DEMO_MOBILE, peopledCommunities } from '../owners/seed.js';
import { applyBacklog } from './applications.js';
import { invoiceSettings, leftFen, linesQuery } from './core.js';
import { callPlatform, issueLines, writeRedInvoice } from './issue.js';

/** Valid unified social credit codes (their check digits right) of the demo's sellers and company buyers. */
const SELLERS: Record<number, string> = { 1: '91310115MA1K3YJ73R', 2: '91110108MA01ABCD1E' };
const COMPANY_TAX_NO = '91310000MA1FL8TQ23';

export async function seedInvoices(db: Kysely<DB>): Promise<void> {
  for (const rid of await peopledCommunities(db)) await seedCommunity(db, rid);
}

async function seedCommunity(db: Kysely<DB>, rid: number): Promise<void> {
  const region = await db.selectFrom('regions').select('title').where('id', '=', rid).executeTakeFirstOrThrow();
  const finance = await db.selectFrom('accounts').select(['id', 'name']).where('username', '=', 'finance').executeTakeFirst();
  const cashier = await db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .where('username', '=', rid === 1 ? 'cashier' : 'cashier2')
    .executeTakeFirst();
  await db
    .insertInto('invoice_settings')
    .values({
      rid,
      seller_name: `${region.title}物业服务有限公司`,
      seller_tax_no: SELLERS[rid] ?? SELLERS[1]!,
      seller_address: `${region.title}物业服务中心`,
      seller_phone: '021-55556666',
      seller_bank: '招商银行上海分行',
      seller_account: `1219${String(rid).padStart(11, '0')}`,
      payee: '赵收银',
      checker: '郑会计',
      clerk: '郑会计',
      merge_rule: 'payment',
      push_default: 'none',
    })
    .execute();
  // every item but deposits, named as invoices name it (物业管理服务 at 6 %, parking at 9 %…)
  const items = await db
    .selectFrom('fee_items')
    .select(['id', 'cost_type'])
    .where('rid', '=', rid)
    .where('cost_type', '<>', 'deposit')
    .orderBy('id')
    .execute();
  if (items.length) {
    await db
      .insertInto('invoice_item_maps')
      .values(
        items.map((i) => {
          const s = INVOICE_ITEM_SUGGESTIONS[i.cost_type] ?? INVOICE_ITEM_SUGGESTIONS.other!;
          return { rid, item_id: i.id, goods_name: s.goods_name, tax_code: s.tax_code, rate: s.rate, tax_included: 'Y', special: 'none' };
        }),
      )
      .execute();
  }

  // titles: the demo owner's two, and a personal one for some other owners
  const owners = await db
    .selectFrom('room_members as rm')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .select(['rm.hid', 'rm.member_id', 'm.realname', 'm.mobile'])
    .where('rm.rid', '=', rid)
    .where('rm.relation', '=', 'owner')
    .where('rm.status', '=', 'Y')
    .orderBy('rm.id')
    .limit(12)
    .execute();
  const demo = await db
    .selectFrom('room_members as rm')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .select(['rm.hid', 'rm.member_id', 'm.realname', 'm.mobile'])
    .where('rm.rid', '=', rid)
    .where('m.mobile', '=', DEMO_MOBILE)
    .orderBy('rm.id')
    .executeTakeFirst();
  const titles: Array<Omit<Insertable<InvoiceTitlesTable>, 'rid'>> = [
    ...(demo
      ? [
          {
            hid: demo.hid,
            member_id: demo.member_id,
            kind: 'person' as const,
            title: demo.realname,
            tax_no: '',
            email: 'chenjianguo@example.com',
            mobile: demo.mobile,
            is_default: 'Y' as const,
          },
          {
            hid: demo.hid,
            member_id: demo.member_id,
            kind: 'company' as const,
            title: '上海建国贸易有限公司',
            tax_no: COMPANY_TAX_NO,
            address_phone: '上海市浦东新区世纪大道100号 021-68886666',
            bank_account: '中国银行上海分行 4567 0000 1234',
            email: 'finance@jianguo.example.com',
            is_default: 'N' as const,
          },
        ]
      : []),
    ...owners
      .filter((o) => o.member_id !== demo?.member_id)
      .slice(0, 8)
      .map((o) => ({
        hid: o.hid,
        member_id: o.member_id,
        kind: 'person' as const,
        title: o.realname,
        tax_no: '',
        mobile: o.mobile,
        is_default: 'Y' as const,
      })),
  ];
  if (titles.length)
    await db
      .insertInto('invoice_titles')
      .values(titles.map((t) => ({ rid, created_by: finance ? Number(finance.id) : null, ...t })))
      .execute();

  if (!finance) return;
  const ctx = seedCtxOf(db, rid, finance, ['admin']);
  const settings = (await invoiceSettings(db, rid))!;
  const month = today().slice(0, 7);
  // receipts of owners, paid, every line mapped and of this month or before; the newest but the demo owner's
  const payments = await sql<{ id: string; member_id: string; realname: string }>`
    SELECT p.id, p.member_id, m.realname FROM fee_payments p JOIN members m ON m.rid = p.rid AND m.id = p.member_id
    WHERE p.rid = ${rid} AND p.status = 'Y' AND m.mobile <> ${DEMO_MOBILE}
      AND NOT EXISTS (SELECT 1 FROM fee_payment_items pi LEFT JOIN fee_bills b ON b.rid = pi.rid AND b.id = pi.bill_id
        LEFT JOIN invoice_item_maps im ON im.rid = b.rid AND im.item_id = b.item_id
        WHERE pi.rid = p.rid AND pi.payment_id = p.id AND (im.item_id IS NULL OR pi.period > ${month} OR pi.cost_type = 'deposit'))
    ORDER BY p.id DESC LIMIT 14`.execute(db);
  const issued: number[] = [];
  for (const [i, p] of payments.rows.entries()) {
    const lines = await linesQuery(db, rid).where('pi.payment_id', '=', Number(p.id)).orderBy('pi.id').execute();
    if (lines.length === 0) continue;
    if (i === 12) {
      // an application waiting for review, from the cashier
      await seedApplication(db, ctx, rid, cashier, lines, p, 'W');
      continue;
    }
    if (i === 13) {
      await seedApplication(db, ctx, rid, cashier, lines, p, 'Y');
      continue;
    }
    const buyer: Buyer =
      i % 4 === 1
        ? {
            kind: 'company',
            title: `${p.realname}所在公司（演示）有限公司`,
            tax_no: COMPANY_TAX_NO,
            address_phone: '',
            bank_account: '',
            email: '',
            mobile: '',
          }
        : { kind: 'person', title: p.realname, tax_no: '', address_phone: '', bank_account: '', email: '', mobile: '' };
    if (i === 11) await db.updateTable('invoice_settings').set({ sandbox_mode: 'fail' }).where('rid', '=', rid).execute();
    const picks = i === 3 ? [{ id: Number(lines[0]!.id), amount: halfOf(lines[0]!) }] : lines.map((l) => ({ id: Number(l.id) }));
    const out = await issueLines(ctx, settings, picks, { buyer, kind: 'p', push: 'none', remark: '', queue: false });
    for (const id of out.ids) {
      await callPlatform(db, rid, id);
      issued.push(id);
    }
    if (i === 11) await db.updateTable('invoice_settings').set({ sandbox_mode: 'ok' }).where('rid', '=', rid).execute();
  }
  // one reversed in full (开票有误), one in part (销售折让)
  if (issued[0]) {
    const red = await writeRedInvoice(ctx, settings, issued[0], { reason: 'wrong', remark: '抬头有误，重开', lines: [] }, false);
    await callPlatform(db, rid, red.id);
  }
  if (issued[2]) {
    const line = await db
      .selectFrom('invoice_lines')
      .select(['id', 'amount'])
      .where('rid', '=', rid)
      .where('invoice_id', '=', issued[2])
      .orderBy('id')
      .executeTakeFirst();
    if (line) {
      const red = await writeRedInvoice(
        ctx,
        settings,
        issued[2],
        {
          reason: 'discount',
          remark: '物业费折让',
          lines: [{ id: Number(line.id), amount: halfOf({ fee: line.amount, late_fee: '0', discount: '0', invoiced: '0' }) }],
        },
        false,
      );
      await callPlatform(db, rid, red.id);
    }
  }
}

/** Half of what is left of a line, in yuan (at least a fen). */
function halfOf(l: { fee: string; late_fee: string; discount: string; invoiced: string }): string {
  const half = leftFen(l) / 2n;
  return fenToYuan(half > 0n ? half : 1n);
}

async function seedApplication(
  db: Kysely<DB>,
  ctx: CommunityCtx,
  rid: number,
  cashier: { id: number | string; name: string } | undefined,
  lines: Array<{ id: number | string; hid: number | string | null; fee: string; late_fee: string; discount: string; invoiced: string }>,
  p: { member_id: string; realname: string },
  status: 'W' | 'Y',
): Promise<void> {
  const amount = fenToYuan(lines.reduce((s, l) => s + leftFen(l), 0n));
  const buyer: Buyer = { kind: 'person', title: p.realname, tax_no: '', address_phone: '', bank_account: '', email: '', mobile: '' };
  const row = await db
    .insertInto('invoice_applications')
    .values({
      rid,
      hid: Number(lines[0]!.hid),
      member_id: Number(p.member_id),
      buyer_kind: buyer.kind,
      buyer_title: buyer.title,
      kind: 'p',
      lines: JSON.stringify(lines.map((l) => ({ id: Number(l.id), amount: fenToYuan(leftFen(l)) }))),
      amount,
      remark: '业主来电要求开具物业费发票',
      applicant: cashier?.name ?? '赵收银',
      created_by: cashier ? Number(cashier.id) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const byCashier = {
    ...ctx,
    session: { ...ctx.session, name: cashier?.name ?? '赵收银', accountId: cashier ? Number(cashier.id) : null },
  } as CommunityCtx;
  await writeFlowLog(byCashier, invoiceApplyFlow.def, Number(row.id), {
    transition: 'create',
    from: '',
    to: 'W',
    input: { amount, title: buyer.title },
  });
  if (status === 'W') {
    await applyBacklog.raise(db, rid, {
      sourceId: Number(row.id),
      title: `审核开票申请：${buyer.title} ${amount} 元`,
      content: '业主来电要求开具物业费发票',
      submitter: cashier ? { accountId: Number(cashier.id), name: cashier.name } : null,
    });
    return;
  }
  const settings = (await invoiceSettings(db, rid))!;
  const out = await issueLines(
    ctx,
    settings,
    lines.map((l) => ({ id: Number(l.id) })),
    { buyer, kind: 'p', push: 'none', remark: '', applicationId: Number(row.id), queue: false },
  );
  for (const id of out.ids) await callPlatform(db, rid, id);
  await db
    .updateTable('invoice_applications')
    .set({ status: 'Y', invoice_ids: out.ids, reviewer: ctx.session.name, review_remark: '同意', reviewed_at: sql<Date>`now()` })
    .where('rid', '=', rid)
    .where('id', '=', Number(row.id))
    .execute();
  await writeFlowLog(ctx, invoiceApplyFlow.def, Number(row.id), { transition: 'approve', from: 'W', to: 'Y', input: { remark: '同意' } });
}
