/**
 * The invoice rules in one place (docs/product.md#invoices): what a receipt line may still be
 * invoiced for, how chosen lines become invoices (mapping, tax separated, discount lines, the merge
 * rule), taking and giving back the invoiced amounts, and the provider's answer applied to an
 * invoice. Every writer locks the receipt lines (fee_payment_items) in id order before it reads
 * what is left, so concurrent issues of the same lines invoice them once.
 */
import { enumText, fenToYuan, INVOICE_RATE, mulDivRoundHalfUp, toFen, type Buyer, type InvoicePreviewLine } from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, InvoicesTable } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import type { CommunityCtx } from '../../http/registry.js';
import { enqueueJob } from '../../jobs/queue.js';
import { decryptSecret, secretsKey } from '../../lib/secrets.js';
import { today, wireTime } from '../../lib/wire.js';
import { SandboxInvoiceProvider, type InvoiceProvider, type InvoiceRequest } from './provider.js';

export const INVOICE_JOB = 'invoice_issue';
/** The most lines one invoice carries (the platforms' limit is about this); more are split. */
export const LINES_PER_INVOICE = 100;

/** '6.00' → '6', '1.50' → '1.5' */
export const rateKey = (rate: string | number): string => String(Number(rate));
export const rateCh = (rate: string | number): string => enumText(INVOICE_RATE, rateKey(rate)) || `${rateKey(rate)}%`;

/** Tax separated from a tax-included amount: ex = amount / (1 + rate), rounded half up; tax = the rest. */
export function splitTax(amountFen: bigint, rate: string | number): { exTax: bigint; tax: bigint } {
  const hundredths = BigInt(Math.round(Number(rate) * 100));
  const exTax = mulDivRoundHalfUp(amountFen, 10_000n, 10_000n + hundredths);
  return { exTax, tax: amountFen - exTax };
}

export async function invoiceSettings(db: Kysely<DB>, rid: number) {
  return db.selectFrom('invoice_settings').selectAll().where('rid', '=', rid).executeTakeFirst();
}
export type InvoiceSettingsRow = NonNullable<Awaited<ReturnType<typeof invoiceSettings>>>;

/** The community's invoice platform (the sandbox; a real one reads its credentials here). */
export function providerFor(db: Kysely<DB>, settings: InvoiceSettingsRow, dataDir: string): InvoiceProvider {
  // the credentials are opened only where a real platform needs them; the sandbox checks they open
  if (settings.secret_blob) decryptSecret(settings.secret_blob, secretsKey(dataDir));
  return new SandboxInvoiceProvider(db, settings.sandbox_mode === 'fail' ? 'fail' : 'ok');
}

/** A receipt line as the invoice rules read it. */
export function linesQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('fee_payment_items as pi')
    .innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'pi.rid').onRef('p.id', '=', 'pi.payment_id'))
    .leftJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'pi.rid').onRef('b.id', '=', 'pi.bill_id'))
    .leftJoin('invoice_item_maps as m', (j) => j.onRef('m.rid', '=', 'b.rid').onRef('m.item_id', '=', 'b.item_id'))
    .select([
      'pi.id',
      'pi.payment_id',
      'pi.bill_id',
      'pi.title',
      'pi.period',
      'pi.fee',
      'pi.late_fee',
      'pi.discount',
      'pi.invoiced',
      'pi.refunded',
      'pi.cost_type',
      'p.hid',
      'p.member_id',
      'p.status as payment_status',
      'p.receipt_no',
      'p.created_at as paid_at',
      'b.item_id',
      'm.goods_name',
      'm.tax_code',
      'm.rate',
      'm.tax_included',
      'm.special',
      'm.unit',
    ])
    .where('pi.rid', '=', rid);
}
export type LineRow = Awaited<ReturnType<ReturnType<typeof linesQuery>['executeTakeFirstOrThrow']>>;

/** What was received for a line: fee and late fee less its share of the receipt's discount. */
export const receivedFen = (l: { fee: string; late_fee: string; discount: string }) => toFen(l.fee) + toFen(l.late_fee) - toFen(l.discount);
export const leftFen = (l: { fee: string; late_fee: string; discount: string; invoiced: string }) => receivedFen(l) - toFen(l.invoiced);

/**
 * The lines chosen, by id; refuses a repeated or unknown one. With `lock`, locked in id order first
 * (a second issuer waits here, then sees what the first took).
 */
export async function readLines(ctx: CommunityCtx, ids: number[], lock: boolean): Promise<Map<number, LineRow>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length !== ids.length) fail('所选费用有重复');
  if (lock)
    await ctx.db
      .selectFrom('fee_payment_items')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', 'in', unique)
      .orderBy('id')
      .forUpdate()
      .execute();
  const rows = await linesQuery(ctx.db, ctx.rid).where('pi.id', 'in', unique).execute();
  if (rows.length !== unique.length) fail('所选费用不存在或不属于当前小区');
  return new Map(rows.map((r) => [Number(r.id), r]));
}
export const lockLines = (ctx: CommunityCtx, ids: number[]) => readLines(ctx, ids, true);

export interface TakenLine {
  line: LineRow;
  amountFen: bigint;
  discountFen: bigint;
}

/**
 * Checks chosen lines against the rules and answers what each takes: the amount asked (all that is
 * left by default), at most what is left; refuses a line that cannot be invoiced, saying why.
 */
export function takeLines(
  lines: Map<number, LineRow>,
  picks: Array<{ id: number; amount?: string | undefined }>,
  settings: InvoiceSettingsRow,
): TakenLine[] {
  const month = today().slice(0, 7);
  const out: TakenLine[] = [];
  const owners = new Set<string>();
  for (const pick of picks) {
    const l = lines.get(pick.id)!;
    const name = `${l.title} ${l.period}`;
    if (l.payment_status === 'V') fail(`收据 ${l.receipt_no} 已作废，不能开票`);
    if (l.refunded === 'Y' || l.payment_status === 'R') fail(`${name} 已退款，不能开票`);
    if (l.hid === null || l.item_id === null) fail(`收据 ${l.receipt_no} 不是房屋的收费，不能在此开票`);
    if (l.cost_type === 'deposit') fail(`${name} 是押金，押金不开具发票`);
    if (!l.goods_name) fail(`收费项目「${l.title}」未设置开票映射，请先在开票设置中设置税收分类编码和税率`);
    if (settings.allow_future !== 'Y' && l.period > month) fail(`${name} 属于未来期间，按开票设置不能预开发票`);
    const left = leftFen(l);
    if (left <= 0n) fail(`${name} 已无可开票金额`);
    const amount = pick.amount === undefined ? left : toFen(pick.amount);
    if (amount <= 0n) fail('开票金额须大于0');
    if (amount > left) fail(`${name} 最多还可开票 ${fenToYuan(left)} 元`);
    const received = receivedFen(l);
    const share = toFen(l.discount);
    // the discount shown with this part of the line, in proportion to it
    const discountFen = share > 0n && received > 0n ? mulDivRoundHalfUp(share, amount, received) : 0n;
    owners.add(l.member_id !== null ? `m${l.member_id}` : `h${l.hid}`);
    out.push({ line: l, amountFen: amount, discountFen: discountFen > share ? share : discountFen });
  }
  if (owners.size > 1) fail('一张发票不能合并不同业主的费用，请分别开票');
  return out;
}

/** The merge rule: one invoice per receipt, or per rate and month of payment; at most LINES_PER_INVOICE lines each. */
export function groupInvoices(taken: TakenLine[], rule: string): TakenLine[][] {
  const groups = new Map<string, TakenLine[]>();
  for (const t of taken) {
    const key = rule === 'owner_month' ? `${rateKey(t.line.rate!)}|${monthOf(t.line.paid_at)}` : String(t.line.payment_id);
    const g = groups.get(key) ?? [];
    g.push(t);
    groups.set(key, g);
  }
  const out: TakenLine[][] = [];
  for (const g of groups.values()) for (let i = 0; i < g.length; i += LINES_PER_INVOICE) out.push(g.slice(i, i + LINES_PER_INVOICE));
  return out;
}

/** The month of the business calendar a time falls in. */
const monthOf = (d: Date) => wireTime(d).slice(0, 7);

/** The lines of an invoice grouped by item and rate, tax separated (the preview, the report). */
export function previewLines(group: TakenLine[]): InvoicePreviewLine[] {
  const by = new Map<string, { l: LineRow; amount: bigint; discount: bigint; count: number }>();
  for (const t of group) {
    const key = `${t.line.goods_name}|${t.line.tax_code}|${rateKey(t.line.rate!)}`;
    const g = by.get(key) ?? { l: t.line, amount: 0n, discount: 0n, count: 0 };
    g.amount += t.amountFen;
    g.discount += t.discountFen;
    g.count += 1;
    by.set(key, g);
  }
  return [...by.values()].map(({ l, amount, discount, count }) => {
    const { exTax, tax } = splitTax(amount, l.rate!);
    return {
      goods_name: l.goods_name!,
      tax_code: l.tax_code!,
      rate: rateKey(l.rate!),
      rate_ch: rateCh(l.rate!),
      amount: fenToYuan(amount),
      discount: fenToYuan(discount),
      ex_tax: fenToYuan(exTax),
      tax: fenToYuan(tax),
      count,
    };
  });
}

/** Adds to (or, negative, takes from) the lines' invoiced amounts. */
export async function moveInvoiced(db: Kysely<DB>, rid: number, moves: Array<{ paymentItemId: number; fen: bigint }>): Promise<void> {
  const by = new Map<number, bigint>();
  for (const m of moves) by.set(m.paymentItemId, (by.get(m.paymentItemId) ?? 0n) + m.fen);
  for (const [id, fen] of [...by].sort((a, b) => a[0] - b[0])) {
    if (fen === 0n) continue;
    await db
      .updateTable('fee_payment_items')
      .set({ invoiced: sql`invoiced + ${fenToYuan(fen)}::numeric` })
      .where('rid', '=', rid)
      .where('id', '=', id)
      .execute();
  }
}

/**
 * Writes a blue invoice of these taken lines in 开票中, takes their amounts and queues the call to
 * the platform (a job: it runs after this transaction commits, and again after a crash).
 */
export async function writeBlueInvoice(
  ctx: CommunityCtx,
  settings: InvoiceSettingsRow,
  group: TakenLine[],
  opts: {
    buyer: Buyer;
    kind: 'p' | 's';
    push: 'none' | 'email' | 'sms';
    remark: string;
    applicationId?: number;
    memberId: number | null;
    /** false: the caller calls the platform itself (the demo's seed) */
    queue?: boolean;
  },
): Promise<{ id: number; amountFen: bigint }> {
  let amount = 0n;
  let exTax = 0n;
  let tax = 0n;
  const lines = group.map((t) => {
    const split = splitTax(t.amountFen, t.line.rate!);
    amount += t.amountFen;
    exTax += split.exTax;
    tax += split.tax;
    return { t, split };
  });
  const id = await nextInvoiceId(ctx.db);
  const inv = await ctx.db
    .insertInto('invoices')
    .values({
      rid: ctx.rid,
      id,
      serial: serialOf(ctx.rid, id),
      kind: opts.kind,
      color: 'B',
      status: 'W',
      member_id: opts.memberId,
      buyer_kind: opts.buyer.kind,
      buyer_title: opts.buyer.title,
      buyer_tax_no: opts.buyer.tax_no,
      buyer_address_phone: opts.buyer.address_phone,
      buyer_bank_account: opts.buyer.bank_account,
      buyer_email: opts.buyer.email,
      buyer_mobile: opts.buyer.mobile,
      seller_name: settings.seller_name,
      seller_tax_no: settings.seller_tax_no,
      amount: fenToYuan(amount),
      ex_tax: fenToYuan(exTax),
      tax: fenToYuan(tax),
      push: opts.push,
      remark: opts.remark,
      application_id: opts.applicationId ?? null,
      issuer: ctx.session.name,
      created_by: ctx.session.accountId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('invoice_lines')
    .values(
      lines.map(({ t, split }) => ({
        rid: ctx.rid,
        invoice_id: inv.id,
        payment_item_id: t.line.id,
        payment_id: t.line.payment_id,
        hid: t.line.hid!,
        item_id: t.line.item_id!,
        goods_name: t.line.goods_name!,
        tax_code: t.line.tax_code!,
        rate: t.line.rate!,
        tax_included: t.line.tax_included!,
        special: t.line.special!,
        unit: t.line.unit!,
        amount: fenToYuan(t.amountFen),
        discount: fenToYuan(t.discountFen),
        ex_tax: fenToYuan(split.exTax),
        tax: fenToYuan(split.tax),
      })),
    )
    .execute();
  await moveInvoiced(
    ctx.db,
    ctx.rid,
    group.map((t) => ({ paymentItemId: Number(t.line.id), fen: t.amountFen })),
  );
  if (opts.queue !== false) await queueIssue(ctx.db, ctx.rid, Number(inv.id), ctx.session.accountId);
  return { id: Number(inv.id), amountFen: amount };
}

/** An invoice's id, taken before its insert so its serial can be written with it. */
export async function nextInvoiceId(db: Kysely<DB>): Promise<number> {
  const res = await sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('invoices', 'id'))::text AS id`.execute(db);
  return Number(res.rows[0]!.id);
}
/** Our order number of an invoice: FP, the community, the id on ten digits. */
export const serialOf = (rid: number, id: number) => `FP${rid}-${String(id).padStart(10, '0')}`;

export async function queueIssue(db: Kysely<DB>, rid: number, invoiceId: number, createdBy: number | null): Promise<void> {
  await enqueueJob(db, { rid, kind: INVOICE_JOB, createdBy, payload: { invoice_id: invoiceId } });
}

type InvoiceRow = Selectable<InvoicesTable>;

/** The request the platform gets for an invoice. */
export async function requestOf(db: Kysely<DB>, inv: InvoiceRow, settings: InvoiceSettingsRow): Promise<InvoiceRequest> {
  const lines = await db
    .selectFrom('invoice_lines')
    .selectAll()
    .where('rid', '=', inv.rid)
    .where('invoice_id', '=', inv.id)
    .orderBy('id')
    .execute();
  const blue = inv.blue_id
    ? await db.selectFrom('invoices').select('invoice_no').where('rid', '=', inv.rid).where('id', '=', inv.blue_id).executeTakeFirst()
    : undefined;
  return {
    serial: inv.serial,
    color: inv.color as 'B' | 'R',
    kind: inv.kind as 'p' | 's',
    ...(blue ? { blueNo: blue.invoice_no, redReason: inv.red_reason } : {}),
    seller: {
      name: inv.seller_name,
      taxNo: inv.seller_tax_no,
      address: settings.seller_address,
      phone: settings.seller_phone,
      bank: settings.seller_bank,
      account: settings.seller_account,
      payee: settings.payee,
      checker: settings.checker,
      clerk: settings.clerk,
    },
    buyer: {
      kind: inv.buyer_kind,
      title: inv.buyer_title,
      taxNo: inv.buyer_tax_no,
      addressPhone: inv.buyer_address_phone,
      bankAccount: inv.buyer_bank_account,
    },
    lines: lines.map((l) => ({
      goods_name: l.goods_name,
      tax_code: l.tax_code,
      rate: rateKey(l.rate),
      tax_included: l.tax_included as 'Y' | 'N',
      special: l.special,
      unit: l.unit,
      amount: l.amount,
      discount: l.discount,
      ex_tax: l.ex_tax,
      tax: l.tax,
    })),
    amount: inv.amount,
    exTax: inv.ex_tax,
    tax: inv.tax,
    remark: inv.remark,
  };
}

/**
 * Undoes what an invoice in 开票中 holds when it fails: a blue one gives its lines' amounts back to
 * the receipt lines; a red one gives back what it held of its blue invoice's lines.
 */
export async function releaseHeld(db: Kysely<DB>, inv: InvoiceRow): Promise<void> {
  const lines = await db
    .selectFrom('invoice_lines')
    .selectAll()
    .where('rid', '=', inv.rid)
    .where('invoice_id', '=', inv.id)
    .orderBy('id')
    .execute();
  if (inv.color === 'B') {
    await moveInvoiced(
      db,
      inv.rid,
      lines.map((l) => ({ paymentItemId: Number(l.payment_item_id), fen: -toFen(l.amount) })),
    );
    return;
  }
  await holdOnBlue(db, inv, lines, -1n);
}

/** Adds (sign 1) or takes back (sign −1) a red invoice's amounts on its blue invoice and lines. */
export async function holdOnBlue(
  db: Kysely<DB>,
  red: InvoiceRow,
  lines: Array<{ amount: string; blue_line_id: string | number | null }>,
  sign: 1n | -1n,
): Promise<void> {
  for (const l of lines) {
    const fen = -toFen(l.amount) * sign;
    await db
      .updateTable('invoice_lines')
      .set({ reversed: sql`reversed + ${fenToYuan(fen)}::numeric` })
      .where('rid', '=', red.rid)
      .where('id', '=', Number(l.blue_line_id))
      .execute();
  }
  await db
    .updateTable('invoices')
    .set({ reversed: sql`reversed + ${fenToYuan(-toFen(red.amount) * sign)}::numeric` })
    .where('rid', '=', red.rid)
    .where('id', '=', red.blue_id!)
    .execute();
}

/** A red invoice issued: its amounts go back to the receipt lines, and the blue one is 部分红冲 or 已红冲. */
export async function redIssued(db: Kysely<DB>, red: InvoiceRow): Promise<void> {
  const lines = await db.selectFrom('invoice_lines').selectAll().where('rid', '=', red.rid).where('invoice_id', '=', red.id).execute();
  await moveInvoiced(
    db,
    red.rid,
    lines.map((l) => ({ paymentItemId: Number(l.payment_item_id), fen: toFen(l.amount) })),
  );
  const issued = await db
    .selectFrom('invoices')
    .select(sql<string>`coalesce(-sum(amount), 0)::text`.as('back'))
    .where('rid', '=', red.rid)
    .where('blue_id', '=', red.blue_id!)
    .where('status', '=', 'Y')
    .executeTakeFirstOrThrow();
  const blue = await db
    .selectFrom('invoices')
    .select('amount')
    .where('rid', '=', red.rid)
    .where('id', '=', red.blue_id!)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('invoices')
    .set({ status: toFen(issued.back) >= toFen(blue.amount) ? 'R' : 'P' })
    .where('rid', '=', red.rid)
    .where('id', '=', red.blue_id!)
    .execute();
}

/** Has the platform deliver an issued invoice to the buyer, and keeps a row of it (who, where, how it went). */
export async function deliverInvoice(
  db: Kysely<DB>,
  provider: InvoiceProvider,
  push: {
    rid: number;
    invoiceId: number;
    invoiceNo: string;
    channel: 'email' | 'sms';
    target: string;
    by: { accountId: number | null; name: string };
  },
): Promise<{ ok: boolean; message: string }> {
  const sent = await provider.deliver(push.invoiceNo, push.channel, push.target);
  await db
    .insertInto('invoice_pushes')
    .values({
      rid: push.rid,
      invoice_id: push.invoiceId,
      channel: push.channel,
      target: push.target,
      status: sent.ok ? '已推送' : `推送失败：${sent.message}`,
      created_by: push.by.accountId,
      created_by_name: push.by.name,
    })
    .execute();
  return sent;
}
