/**
 * The invoice platform every invoice goes through (docs/product.md#invoices): issue a blue
 * invoice, reverse one with a red invoice, ask what became of an order (after a crash), fetch the
 * PDF, and deliver an issued invoice to the buyer by email or SMS (the platforms push invoices
 * themselves). Real ones (诺诺, 百望, 乐企直连) implement the same calls over their APIs.
 *
 * The sandbox keeps its own records (invoice_sandbox_issued, invoice_sandbox_outbox): it numbers
 * invoices with 20 digits, draws a PDF of each, answers an order it has seen with the same invoice
 * (so a retried call never issues twice) and fails every call while the community's settings say
 * 模拟失败.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface InvoiceRequestLine {
  goods_name: string;
  tax_code: string;
  rate: string;
  tax_included: 'Y' | 'N';
  special: string;
  unit: string;
  amount: string;
  discount: string;
  ex_tax: string;
  tax: string;
}

export interface InvoiceRequest {
  /** our order number: the platform answers the same invoice for the same serial */
  serial: string;
  color: 'B' | 'R';
  kind: 'p' | 's';
  /** a red invoice's blue number */
  blueNo?: string;
  redReason?: string;
  seller: {
    name: string;
    taxNo: string;
    address: string;
    phone: string;
    bank: string;
    account: string;
    payee: string;
    checker: string;
    clerk: string;
  };
  buyer: { kind: string; title: string; taxNo: string; addressPhone: string; bankAccount: string };
  lines: InvoiceRequestLine[];
  amount: string;
  exTax: string;
  tax: string;
  remark: string;
}

export type IssueResult = { ok: true; invoiceNo: string; issuedAt: Date } | { ok: false; message: string };

export interface InvoiceProvider {
  readonly name: string;
  /** issues a blue invoice; answers the platform's number or its refusal */
  issue(req: InvoiceRequest): Promise<IssueResult>;
  /** reverses (part of) an issued blue invoice with a red one, naming the blue number and the reason */
  reverse(req: InvoiceRequest): Promise<IssueResult>;
  /** what became of an order (by our serial): issued, or unknown to the platform */
  query(serial: string): Promise<{ invoiceNo: string; issuedAt: Date } | null>;
  /** the issued invoice's PDF */
  download(invoiceNo: string): Promise<Buffer>;
  /** delivers an issued invoice to the buyer */
  deliver(invoiceNo: string, channel: 'email' | 'sms', target: string): Promise<{ ok: boolean; message: string }>;
  /** checks the credentials */
  test(): Promise<{ ok: boolean; message: string }>;
}

/** The message the sandbox answers while told to fail. */
export const SANDBOX_FAILURE = '开票平台返回：销方税局账号未登录或登录已失效（沙箱模拟失败）';

export class SandboxInvoiceProvider implements InvoiceProvider {
  readonly name = 'sandbox';
  constructor(
    private readonly db: Kysely<DB>,
    private readonly mode: 'ok' | 'fail',
  ) {}

  async issue(req: InvoiceRequest): Promise<IssueResult> {
    const known = await this.query(req.serial);
    if (known) return { ok: true, ...known };
    if (this.mode === 'fail') return { ok: false, message: SANDBOX_FAILURE };
    const next = await sql<{ n: string }>`SELECT nextval('invoice_sandbox_numbers')::text AS n`.execute(this.db);
    const issuedAt = new Date();
    const yy = String(issuedAt.getUTCFullYear()).slice(2);
    // 数电 numbers: 2 digits of the year, 2 of the tax bureau (31 Shanghai), a kind digit, 15 of sequence
    const invoiceNo = `${yy}31${req.kind === 's' ? 1 : 2}${next.rows[0]!.n.padStart(15, '0')}`;
    const pdf = invoicePdf(req, invoiceNo, issuedAt);
    await this.db
      .insertInto('invoice_sandbox_issued')
      .values({ serial: req.serial, invoice_no: invoiceNo, total: req.amount, pdf, issued_at: issuedAt })
      .onConflict((oc) => oc.column('serial').doNothing())
      .execute();
    const kept = await this.query(req.serial);
    return kept ? { ok: true, ...kept } : { ok: false, message: '开票平台未返回结果' };
  }

  async reverse(req: InvoiceRequest): Promise<IssueResult> {
    const blue = req.blueNo
      ? await this.db.selectFrom('invoice_sandbox_issued').select('total').where('invoice_no', '=', req.blueNo).executeTakeFirst()
      : undefined;
    if (!blue) return { ok: false, message: '开票平台返回：原蓝字发票不存在' };
    return this.issue(req);
  }

  async query(serial: string) {
    const row = await this.db
      .selectFrom('invoice_sandbox_issued')
      .select(['invoice_no', 'issued_at'])
      .where('serial', '=', serial)
      .executeTakeFirst();
    return row ? { invoiceNo: row.invoice_no, issuedAt: row.issued_at } : null;
  }

  async download(invoiceNo: string): Promise<Buffer> {
    const row = await this.db.selectFrom('invoice_sandbox_issued').select('pdf').where('invoice_no', '=', invoiceNo).executeTakeFirst();
    if (!row) throw new Error(`sandbox invoice ${invoiceNo} not found`);
    return Buffer.from(row.pdf);
  }

  async deliver(invoiceNo: string, channel: 'email' | 'sms', target: string) {
    if (this.mode === 'fail') return { ok: false, message: SANDBOX_FAILURE };
    await this.db.insertInto('invoice_sandbox_outbox').values({ channel, target, invoice_no: invoiceNo }).execute();
    return { ok: true, message: '已推送' };
  }

  async test() {
    return this.mode === 'fail' ? { ok: false, message: SANDBOX_FAILURE } : { ok: true, message: '连接成功（沙箱）' };
  }
}

// ------------------------------------------------------------------------------------ the PDF

/** UTF-16BE hex of a text, as a CID font with the UniGB-UCS2-H encoding takes it. */
function hex(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const unit = code > 0xffff ? 0x3000 : code; // outside the BMP: a blank
    out += unit.toString(16).padStart(4, '0');
  }
  return `<${out.toUpperCase()}>`;
}

/**
 * A one-page PDF of the invoice: the seller, the buyer, the lines with tax separated and the total.
 * Chinese text uses the standard Adobe-GB1 font STSong-Light (not embedded; every PDF reader has
 * it or a substitute), so the file stays a few kilobytes.
 */
export function invoicePdf(req: InvoiceRequest, invoiceNo: string, issuedAt: Date): Buffer {
  const day = issuedAt.toISOString().slice(0, 10);
  const title = req.color === 'R' ? '电子发票（红字）' : req.kind === 's' ? '电子发票（增值税专用发票）' : '电子发票（普通发票）';
  const rows: Array<[number, number, number, string]> = [];
  let y = 800;
  const put = (x: number, size: number, text: string) => rows.push([x, y, size, text]);
  put(200, 18, title);
  y -= 30;
  put(40, 10, `发票号码：${invoiceNo}    开票日期：${day}`);
  y -= 24;
  put(40, 10, `购买方：${req.buyer.title}    纳税人识别号：${req.buyer.taxNo || '—'}`);
  y -= 16;
  if (req.buyer.addressPhone || req.buyer.bankAccount) {
    put(40, 9, `地址电话：${req.buyer.addressPhone}    开户行及账号：${req.buyer.bankAccount}`);
    y -= 16;
  }
  put(40, 10, `销售方：${req.seller.name}    纳税人识别号：${req.seller.taxNo}`);
  y -= 26;
  put(40, 10, '项目名称');
  put(250, 10, '金额');
  put(340, 10, '税率');
  put(400, 10, '税额');
  put(470, 10, '价税合计');
  y -= 16;
  for (const l of req.lines) {
    put(40, 9, `*${l.goods_name}*`);
    put(250, 9, l.ex_tax);
    put(340, 9, `${l.rate}%`);
    put(400, 9, l.tax);
    put(470, 9, l.amount);
    y -= 14;
    if (l.discount !== '0' && l.discount !== '0.00') {
      put(40, 9, `*${l.goods_name}*（折扣）`);
      put(470, 9, `-${l.discount}`);
      y -= 14;
    }
    if (y < 120) break;
  }
  y -= 10;
  put(40, 10, `合计：金额 ${req.exTax}    税额 ${req.tax}    价税合计 ${req.amount}`);
  y -= 18;
  if (req.color === 'R' && req.blueNo) {
    put(40, 9, `被红冲蓝字发票号码：${req.blueNo}    红冲原因：${req.redReason ?? ''}`);
    y -= 16;
  }
  if (req.remark) put(40, 9, `备注：${req.remark}`);
  y -= 16;
  put(40, 9, `收款人：${req.seller.payee}    复核：${req.seller.checker}    开票人：${req.seller.clerk}`);

  const content = rows.map(([x, yy, size, text]) => `BT /F1 ${size} Tf ${x} ${yy} Td ${hex(text)} Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [5 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor 7 0 R /DW 1000 >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
