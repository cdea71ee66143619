import ExcelJS from 'exceljs';
import {
  ROOM_IMPORT_HEADERS,
  ROOM_IMPORT_MAX_ROWS,
  ROOM_STATE_TEXT,
  ROOM_STATES,
  type FileAnswer,
  type ImportLogItem,
  type RoomImportResult,
} from '@wuye/contract';
import { sql } from 'kysely';
import { fail } from '../../http/errors.js';
import { enqueueSheetImport } from '../../lib/sheet-import.js';
import { defineMethod } from '../../http/registry.js';
import { errorReport } from '../../lib/excel.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { STRUCTURE_WRITERS } from './access.js';
import { ROOM_IMPORT_KIND } from './jobs.js';

const REQUIRED_HEADERS = ['楼栋', '单元', '房号'];

const roomimporttemplate = defineMethod('roomimporttemplate', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '房屋导入模板（.xlsx）：表头、两行示例与填写说明',
  async handler(ctx): Promise<FileAnswer> {
    const categories = await ctx.db
      .selectFrom('room_categories')
      .select('title')
      .where('rid', '=', ctx.rid)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('房屋');
    ws.columns = ROOM_IMPORT_HEADERS.map((header) => ({ header, width: header === '备注' ? 30 : 12 }));
    ws.getRow(1).font = { bold: true };
    ws.addRow(['1号楼', '1单元', '101', 1, '89.50', '71.60', '住宅', '已入住', '示例行，导入前请删除']);
    ws.addRow(['1号楼', '1单元', '102', 1, '105.20', '84.16', '商铺', '空置', '']);
    const help = wb.addWorksheet('填写说明');
    help.columns = [
      { header: '列', width: 12 },
      { header: '说明', width: 80 },
    ];
    help.getRow(1).font = { bold: true };
    for (const line of [
      ['楼栋', '必填，如 1号楼；不存在的楼栋会自动创建'],
      ['单元', '必填，如 1单元；不存在的单元会自动创建'],
      ['房号', '必填，如 1101；同一单元下不能重复，也不能与已有房屋重复'],
      ['楼层', '整数；不填时按房号推算（1101 为 11 层）'],
      ['建筑面积', '平方米，不小于 0，最多两位小数；不填为 0'],
      ['套内面积', '平方米，不大于建筑面积，最多两位小数；不填为 0'],
      ['房屋类型', `可填：${categories.map((c) => c.title).join('、')}；不填为住宅`],
      ['状态', `可填：${ROOM_STATES.map((s) => ROOM_STATE_TEXT[s]).join('、')}；不填为空置`],
      ['备注', '最多 200 个字符'],
      ['注意', '任何一行有错误时整个文件都不导入，请下载错误报告按行修改后重新上传'],
      ['重复导入', '勾选“跳过已存在的房屋”时，系统中已有的房屋（同楼栋、单元、房号）不再导入，也不算错误'],
    ])
      help.addRow(line);
    const buffer = await wb.xlsx.writeBuffer();
    return { filename: '房屋导入模板.xlsx', content_base64: Buffer.from(buffer).toString('base64') };
  },
});

const roomimport = defineMethod('roomimport', {
  side: 'community',
  roles: STRUCTURE_WRITERS,
  writes: true,
  summary:
    '上传房屋 Excel：检查表头后作为后台任务导入（返回 job_id，用 jobinfo 查看进度）；有错误行则全部不导入；skip_existing=Y 时跳过已存在的房屋',
  async handler(ctx, input) {
    return enqueueSheetImport(ctx, input, {
      kind: ROOM_IMPORT_KIND,
      requiredHeaders: REQUIRED_HEADERS,
      maxRows: ROOM_IMPORT_MAX_ROWS,
      options: { skip_existing: input.skip_existing },
    });
  },
});

const roomimporterrors = defineMethod('roomimporterrors', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '下载一次房屋导入的错误报告（行号、列、原因）',
  async handler(ctx, input) {
    const job = await ctx.db
      .selectFrom('jobs')
      .select(['status', 'result'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.job_id)
      .where('kind', '=', ROOM_IMPORT_KIND)
      .executeTakeFirst();
    if (!job) fail('导入记录不存在');
    if (job.status !== 'done') fail('导入尚未完成');
    const errors = (job.result as RoomImportResult | null)?.errors ?? [];
    if (!errors.length) fail('该次导入没有错误行');
    return errorReport(`房屋导入错误报告_${input.job_id}.xlsx`, errors);
  },
});

const STATUS_TEXT = { queued: '等待中', running: '导入中', done: '导入成功', failed: '导入失败', cancelled: '已取消' } as const;

const importloglist = defineMethod('importloglist', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '房屋导入记录：文件、状态、行数、新建楼栋/单元/房屋数、跳过的已有房屋数、错误行数、操作人、时间',
  async handler(ctx, input) {
    const qb = ctx.db
      .selectFrom('jobs')
      .leftJoin('accounts as a', 'a.id', 'jobs.created_by')
      .select([
        'jobs.id',
        'jobs.kind',
        'jobs.status',
        'jobs.total',
        'jobs.progress',
        'jobs.error',
        'jobs.created_at',
        'jobs.finished_at',
        'a.name as create_user',
      ])
      .select([
        sql<string | null>`jobs.payload->>'filename'`.as('filename'),
        sql<number | null>`(jobs.result->>'created_buildings')::int`.as('created_buildings'),
        sql<number | null>`(jobs.result->>'created_units')::int`.as('created_units'),
        sql<number | null>`(jobs.result->>'created_rooms')::int`.as('created_rooms'),
        sql<number | null>`(jobs.result->>'skipped_rooms')::int`.as('skipped_rooms'),
        sql<number | null>`CASE WHEN jsonb_typeof(jobs.result->'errors') = 'array' THEN jsonb_array_length(jobs.result->'errors') END`.as(
          'error_count',
        ),
      ])
      .where('jobs.rid', '=', ctx.rid)
      .where('jobs.kind', '=', ROOM_IMPORT_KIND);
    const page = await listPage(qb, input, 'jobs.id');
    return {
      total: page.total,
      items: page.items.map((j): ImportLogItem => {
        const errorCount = j.error_count ?? 0;
        return {
          id: j.id,
          kind: j.kind,
          filename: j.filename ?? '',
          status: j.status,
          status_ch: j.status === 'done' && errorCount > 0 ? '校验未通过' : STATUS_TEXT[j.status],
          total: j.total,
          progress: j.progress,
          created_buildings: j.created_buildings ?? 0,
          created_units: j.created_units ?? 0,
          created_rooms: j.created_rooms ?? 0,
          skipped_rooms: j.skipped_rooms ?? 0,
          error_count: errorCount,
          error: j.error,
          create_user: j.create_user ?? '',
          create_time: wireTime(j.created_at),
          finish_time: wireTime(j.finished_at),
        };
      }),
    };
  },
});

export const importMethods = [roomimporttemplate, roomimport, roomimporterrors, importloglist];
