import { FEE_ROLES, addDays, MONEY_RE, type FeeImportResult, type FeeImportRow, type ImportRowError } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod } from '../../http/registry.js';
import { defineImport, importLog, importLogFields } from '../../jobs/imports.js';
import type { SheetRow } from '../../lib/xlsxReader.js';
import { today } from '../../lib/wire.js';
import { periodRange } from './calc.js';

export const BILL_IMPORT = 'bill_import';
const REQUIRED = ['楼栋', '单元', '房号', '收费项目', '账期', '金额'];
const OPTIONAL = ['状态', '应缴日期', '缴费日期', '计量', '单价'];
const STATUS_IN: Record<string, 'E' | 'Y' | 'N'> = { 待缴: 'E', 已缴: 'Y', 已逾期: 'N', E: 'E', Y: 'Y', N: 'N' };

const billImport = defineImport<'feebillimport', 'feeimporttemplate', Valid[], FeeImportResult>({
  kind: BILL_IMPORT,
  label: '账单',
  methods: { template: 'feeimporttemplate', upload: 'feebillimport', errors: 'feeimporterrors' },
  summaries: {
    template: '历史账单导入模板（.xlsx）：楼栋、单元、房号、收费项目、账期、金额，可选状态、应缴日期、缴费日期、计量、单价',
    upload: '上传历史账单 Excel：检查表头后作为后台任务导入（jobinfo 查进度）；有错误行则全部不导入，可下载错误报告',
  },
  roles: FEE_ROLES.bills,
  required: REQUIRED,
  maxRows: 20_000,
  maxErrors: 1000,
  template: async () => ({
    filename: '历史账单导入模板.xlsx',
    sheet: '账单',
    headers: [...REQUIRED, ...OPTIONAL],
    widths: Object.fromEntries([...REQUIRED, ...OPTIONAL].map((h) => [h, 14])),
    rows: [['1号楼', '1单元', '101', '物业服务费', '2025-01', '223.75', '已缴', '2025-01-28', '2025-01-20', '89.50', '2.50']],
    help: {
      sheet: '说明',
      lines: [
        ['账期', 'YYYY-MM，例如 2025-01'],
        ['金额', '不小于 0，最多两位小数'],
        ['状态', '待缴、已缴、已逾期；不填时有缴费日期为已缴，否则按应缴日期判断'],
        ['应缴日期', 'YYYY-MM-DD；不填按收费项目的缴费日'],
        ['注意', '同一房屋、收费项目、账期只能有一张账单；任何一行有错误时整个文件都不导入'],
      ],
    },
  }),
  async check(scope, rows) {
    const { valid, errors } = await validate(scope.db, scope.rid, rows);
    return { errors, plan: valid };
  },
  rejected: (errors) => ({ imported: 0, errors }),
  async write(scope, valid) {
    for (let i = 0; i < valid.length; i += 1000) {
      await scope.batch(async (trx, record) => {
        const created = await trx
          .insertInto('fee_bills')
          .values(valid.slice(i, i + 1000).map((b) => ({ rid: scope.rid, ...b, source: 'import' })))
          .returning('id')
          .execute();
        await record(
          'fee_bills',
          created.map((b) => b.id),
        );
      });
      await scope.step(Math.min(valid.length, i + 1000), valid.length);
    }
    return { imported: valid.length, errors: [] };
  },
  raced: '导入过程中有相同的账单被生成或录入，已全部撤销，请重新导入',
});

/** One import kind's log as the fees pages show it; imported counts new and updated rows (meter readings update). */
export async function feeImportLog(
  ctx: Parameters<typeof importLog>[0],
  kind: string,
  input: Parameters<typeof importLog>[2],
): Promise<{ total: number; items: FeeImportRow[] }> {
  const page = await importLog(ctx, kind, input);
  return {
    total: page.total,
    items: page.items.map((j): FeeImportRow => {
      const imported = Number(j.summary?.imported ?? 0) + Number(j.summary?.updated ?? 0);
      return { ...importLogFields(j, imported), imported };
    }),
  };
}

const feeimportlist = defineMethod('feeimportlist', {
  side: 'community',
  roles: FEE_ROLES.bills,
  writes: false,
  summary: '历史账单导入记录：文件、状态、行数、导入张数、错误行数、操作人、时间',
  handler: (ctx, input) => feeImportLog(ctx, BILL_IMPORT, input),
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

async function validate(db: Kysely<DB>, rid: number, rows: SheetRow[]): Promise<{ valid: Valid[]; errors: ImportRowError[] }> {
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
  const errors: ImportRowError[] = [];
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

export const importMethods = [...billImport, feeimportlist];
