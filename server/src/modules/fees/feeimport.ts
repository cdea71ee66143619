import ExcelJS from 'exceljs';
import { addDays, MONEY_RE, type FeeImportResult } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { enqueueSheetImport } from '../../lib/sheet-import.js';
import { defineMethod } from '../../http/registry.js';
import { registerJobKind } from '../../jobs/queue.js';
import { errorReport, type SheetRow } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { periodRange } from './calc.js';

export const BILL_IMPORT = 'bill_import';
const ROLES = ['fees'];
const MAX_ROWS = 20_000;
const MAX_ERRORS = 1000;
const REQUIRED = ['楼栋', '单元', '房号', '收费项目', '账期', '金额'];
const OPTIONAL = ['状态', '应缴日期', '缴费日期', '计量', '单价'];
const STATUS_IN: Record<string, 'E' | 'Y' | 'N'> = { 待缴: 'E', 已缴: 'Y', 已逾期: 'N', E: 'E', Y: 'Y', N: 'N' };

const feeimporttemplate = defineMethod('feeimporttemplate', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '历史账单导入模板（.xlsx）：楼栋、单元、房号、收费项目、账期、金额，可选状态、应缴日期、缴费日期、计量、单价',
  async handler() {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('账单');
    ws.columns = [...REQUIRED, ...OPTIONAL].map((header) => ({ header, width: 14 }));
    ws.getRow(1).font = { bold: true };
    ws.addRow(['1号楼', '1单元', '101', '物业服务费', '2025-01', '223.75', '已缴', '2025-01-28', '2025-01-20', '89.50', '2.50']);
    const help = wb.addWorksheet('说明');
    for (const line of [
      ['账期', 'YYYY-MM，例如 2025-01'],
      ['金额', '不小于 0，最多两位小数'],
      ['状态', '待缴、已缴、已逾期；不填时有缴费日期为已缴，否则按应缴日期判断'],
      ['应缴日期', 'YYYY-MM-DD；不填按收费项目的缴费日'],
      ['注意', '同一房屋、收费项目、账期只能有一张账单；任何一行有错误时整个文件都不导入'],
    ])
      help.addRow(line);
    const buffer = await wb.xlsx.writeBuffer();
    return { filename: '历史账单导入模板.xlsx', content_base64: Buffer.from(buffer).toString('base64') };
  },
});

const feebillimport = defineMethod('feebillimport', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary: '上传历史账单 Excel：检查表头后作为后台任务导入（jobinfo 查进度）；有错误行则全部不导入，可下载错误报告',
  async handler(ctx, input) {
    return enqueueSheetImport(ctx, input, { kind: BILL_IMPORT, requiredHeaders: REQUIRED, maxRows: MAX_ROWS });
  },
});

const STATUS_CH = { queued: '等待中', running: '导入中', done: '已完成', failed: '导入失败', cancelled: '已取消' } as const;

const feeimportlist = defineMethod('feeimportlist', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '历史账单导入记录：文件、状态、行数、导入张数、错误行数、操作人、时间',
  async handler(ctx, input) {
    const qb = ctx.db
      .selectFrom('jobs')
      .leftJoin('accounts as a', 'a.id', 'jobs.created_by')
      .select([
        'jobs.id',
        'jobs.status',
        'jobs.total',
        'jobs.error',
        'jobs.created_at',
        'a.name as create_user',
        sql<string>`coalesce(jobs.payload->>'filename', '')`.as('filename'),
        sql<number>`coalesce((jobs.result->>'imported')::int, 0)`.as('imported'),
        sql<number>`CASE WHEN jsonb_typeof(jobs.result->'errors') = 'array' THEN jsonb_array_length(jobs.result->'errors') ELSE 0 END`.as(
          'error_count',
        ),
      ])
      .where('jobs.rid', '=', ctx.rid)
      .where('jobs.kind', '=', BILL_IMPORT);
    const page = await listPage(qb, input, 'jobs.id');
    return {
      total: page.total,
      items: page.items.map((j) => ({
        id: j.id,
        filename: j.filename,
        status: j.status,
        status_ch: STATUS_CH[j.status],
        total: j.total,
        imported: Number(j.imported),
        error_count: Number(j.error_count),
        error: j.error,
        create_user: j.create_user ?? '',
        create_time: wireTime(j.created_at),
      })),
    };
  },
});

const feeimporterrors = defineMethod('feeimporterrors', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '下载一次历史账单导入的错误报告（行号、列、原因）',
  async handler(ctx, input) {
    const job = await ctx.db
      .selectFrom('jobs')
      .select(['status', 'result'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.job_id)
      .where('kind', '=', BILL_IMPORT)
      .executeTakeFirst();
    if (!job) fail('导入记录不存在');
    if (job.status !== 'done') fail('导入尚未完成');
    const errors = (job.result as FeeImportResult | null)?.errors ?? [];
    if (!errors.length) fail('该次导入没有错误行');
    return errorReport(`账单导入错误报告_${input.job_id}.xlsx`, errors);
  },
});

interface Valid {
  hid: number;
  bid: number;
  tid: number;
  item_id: number;
  cost_type: string;
  title: string;
  period: string;
  daterange: string;
  measure: string;
  unit_price: string;
  fee: string;
  status: 'E' | 'Y' | 'N';
  due_date: string;
  paid_at: string | null;
}

async function validate(db: Kysely<DB>, rid: number, rows: SheetRow[]) {
  const [rooms, items, existing] = await Promise.all([
    db
      .selectFrom('rooms as r')
      .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
      .innerJoin('buildings as bd', (j) => j.onRef('bd.rid', '=', 'r.rid').onRef('bd.id', '=', 'r.bid'))
      .select(['r.id', 'r.bid', 'r.tid', 'r.title', 'u.title as unit', 'bd.title as building'])
      .where('r.rid', '=', rid)
      .execute(),
    db
      .selectFrom('fee_items')
      .select(['id', 'title', 'cost_type', 'due_day', 'cycle_months', 'unit_price'])
      .where('rid', '=', rid)
      .execute(),
    db
      .selectFrom('fee_bills')
      .select(['hid', 'item_id', 'period'])
      .where('rid', '=', rid)
      .where('space_id', '=', 0)
      .where('car_id', '=', 0)
      .execute(),
  ]);
  const roomOf = new Map(rooms.map((r) => [`${r.building}|${r.unit}|${r.title}`, r]));
  const itemOf = new Map(items.map((i) => [i.title, i]));
  const seen = new Set(existing.map((b) => `${b.hid}|${b.item_id}|${b.period}`));
  const errors: FeeImportResult['errors'] = [];
  const valid: Valid[] = [];
  const day = today();
  for (const { rowNumber: row, values: v } of rows) {
    const bad = (column: string, reason: string) => errors.push({ row, column, reason });
    const before = errors.length;
    const room = roomOf.get(`${v['楼栋'] ?? ''}|${v['单元'] ?? ''}|${v['房号'] ?? ''}`);
    if (!room) bad('房号', `找不到房屋 ${v['楼栋'] ?? ''}${v['单元'] ?? ''}${v['房号'] ?? ''}`);
    const item = itemOf.get(v['收费项目'] ?? '');
    if (!item) bad('收费项目', `收费项目「${v['收费项目'] ?? ''}」不存在`);
    const period = v['账期'] ?? '';
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) bad('账期', '账期格式应为 YYYY-MM');
    const fee = v['金额'] ?? '';
    if (!MONEY_RE.test(fee)) bad('金额', '金额应为不小于 0、最多两位小数的数字');
    const statusText = v['状态'] ?? '';
    if (statusText && !STATUS_IN[statusText]) bad('状态', '状态只能是待缴、已缴、已逾期');
    const due = v['应缴日期'] ?? '';
    if (due && !/^\d{4}-\d{2}-\d{2}$/.test(due)) bad('应缴日期', '日期格式应为 YYYY-MM-DD');
    const paid = v['缴费日期'] ?? '';
    if (paid && !/^\d{4}-\d{2}-\d{2}$/.test(paid)) bad('缴费日期', '日期格式应为 YYYY-MM-DD');
    const price = v['单价'] ?? '';
    if (price && !/^\d{1,10}(\.\d{1,4})?$/.test(price)) bad('单价', '单价应为不小于 0、最多四位小数的数字');
    if (errors.length > before || !room || !item) continue;
    const key = `${room.id}|${item.id}|${period}`;
    if (seen.has(key)) {
      bad('账期', '该房屋该账期已有此收费项目的账单');
      continue;
    }
    seen.add(key);
    const dueDate = due || addDays(`${period}-01`, item.due_day - 1);
    const status = STATUS_IN[statusText] ?? (paid ? 'Y' : dueDate < day ? 'N' : 'E');
    valid.push({
      hid: room.id,
      bid: room.bid,
      tid: room.tid,
      item_id: item.id,
      cost_type: item.cost_type,
      title: item.title,
      period,
      daterange: periodRange(period, item.cycle_months).daterange,
      measure: v['计量'] ?? '',
      unit_price: price || item.unit_price,
      fee,
      status,
      due_date: dueDate,
      paid_at: status === 'Y' ? paid || dueDate : null,
    });
  }
  return { valid, errors };
}

registerJobKind(BILL_IMPORT, async (ctx): Promise<FeeImportResult> => {
  const rid = ctx.job.rid;
  if (rid === null) throw new Error('导入任务缺少小区');
  const rows = (ctx.payload.rows ?? []) as SheetRow[];
  await ctx.progress(0, rows.length);
  const { valid, errors } = await validate(ctx.db, rid, rows);
  if (errors.length) return { imported: 0, errors: errors.slice(0, MAX_ERRORS) };
  await ctx.db
    .transaction()
    .execute(async (trx) => {
      for (let i = 0; i < valid.length; i += 1000) {
        await trx
          .insertInto('fee_bills')
          .values(valid.slice(i, i + 1000).map((b) => ({ rid, ...b, source: 'import' })))
          .execute();
      }
    })
    .catch((err: unknown) => {
      if ((err as { code?: string }).code === '23505') throw new Error('导入过程中有相同的账单被生成或录入，已全部撤销，请重新导入');
      throw err;
    });
  await ctx.progress(rows.length, rows.length);
  return { imported: valid.length, errors: [] };
});

export const importMethods = [feeimporttemplate, feebillimport, feeimportlist, feeimporterrors];
