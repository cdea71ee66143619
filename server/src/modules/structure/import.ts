import { ROOM_IMPORT_HEADERS, ROOM_IMPORT_MAX_ROWS, ROOM_STATE, ROOM_STATES, type ImportLogItem } from '@wuye/contract';
import { defineMethod } from '../../http/registry.js';
import { defineImport, importLog, importLogFields } from '../../jobs/imports.js';
import { wireTime } from '../../lib/wire.js';
import { STRUCTURE_WRITERS } from '@wuye/contract';
import { importRooms, loadExisting, ROOM_IMPORT_KIND, validateRows, type Existing, type ParsedRoom } from './jobs.js';

const roomImport = defineImport<
  'roomimport',
  'roomimporttemplate',
  { rooms: ParsedRoom[]; existing: Existing; skipped: number },
  RoomResult
>({
  kind: ROOM_IMPORT_KIND,
  label: '房屋',
  methods: { template: 'roomimporttemplate', upload: 'roomimport', errors: 'roomimporterrors' },
  summaries: {
    template: '房屋导入模板（.xlsx）：表头、两行示例与填写说明',
    upload:
      '上传房屋 Excel：检查表头后作为后台任务导入（返回 job_id，用 jobinfo 查看进度）；有错误行则全部不导入；skip_existing=Y 时跳过已存在的房屋',
  },
  roles: STRUCTURE_WRITERS,
  readRoles: 'any',
  required: ['楼栋', '单元', '房号'],
  maxRows: ROOM_IMPORT_MAX_ROWS,
  maxErrors: 5000,
  options: (input) => ({ skip_existing: input.skip_existing }),
  async template(ctx) {
    const categories = await ctx.db
      .selectFrom('room_categories')
      .select('title')
      .where('rid', '=', ctx.rid)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return {
      filename: '房屋导入模板.xlsx',
      sheet: '房屋',
      headers: ROOM_IMPORT_HEADERS,
      widths: { 备注: 30 },
      rows: [
        ['1号楼', '1单元', '101', 1, '89.50', '71.60', '住宅', '已入住', '示例行，导入前请删除'],
        ['1号楼', '1单元', '102', 1, '105.20', '84.16', '商铺', '空置', ''],
      ],
      help: {
        sheet: '填写说明',
        lines: [
          ['楼栋', '必填，如 1号楼；不存在的楼栋会自动创建'],
          ['单元', '必填，如 1单元；不存在的单元会自动创建'],
          ['房号', '必填，如 1101；同一单元下不能重复，也不能与已有房屋重复'],
          ['楼层', '整数；不填时按房号推算（1101 为 11 层）'],
          ['建筑面积', '平方米，不小于 0，最多两位小数；不填为 0'],
          ['套内面积', '平方米，不大于建筑面积，最多两位小数；不填为 0'],
          ['房屋类型', `可填：${categories.map((c) => c.title).join('、')}；不填为住宅`],
          ['状态', `可填：${ROOM_STATES.map((s) => ROOM_STATE[s].text).join('、')}；不填为空置`],
          ['备注', '最多 200 个字符'],
          ['注意', '任何一行有错误时整个文件都不导入，请下载错误报告按行修改后重新上传'],
          ['重复导入', '勾选“跳过已存在的房屋”时，系统中已有的房屋（同楼栋、单元、房号）不再导入，也不算错误'],
        ],
      },
    };
  },
  async check(scope, rows) {
    const existing = await loadExisting(scope.db, scope.rid);
    const { rooms, errors, skipped } = validateRows(rows, existing, scope.options.skip_existing === 'Y');
    return { errors, plan: { rooms, existing, skipped } };
  },
  rejected: (errors) => ({ created_buildings: 0, created_units: 0, created_rooms: 0, skipped_rooms: 0, errors }),
  write: (scope, plan) => importRooms(scope, plan.rooms, plan.existing, plan.skipped),
  raced: '导入过程中有相同的楼栋、单元或房屋被他人录入，已全部撤销，请重新导入',
});

type RoomResult = Awaited<ReturnType<typeof importRooms>>;

const count = (summary: Record<string, unknown> | null, key: string) => Number(summary?.[key] ?? 0);

const importloglist = defineMethod('importloglist', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '房屋导入记录：文件、状态、行数、新建楼栋/单元/房屋数、跳过的已有房屋数、错误行数、操作人、时间',
  async handler(ctx, input) {
    const page = await importLog(ctx, ROOM_IMPORT_KIND, input);
    return {
      total: page.total,
      items: page.items.map((j): ImportLogItem => ({
        ...importLogFields(
          j,
          count(j.summary, 'created_buildings') + count(j.summary, 'created_units') + count(j.summary, 'created_rooms'),
        ),
        kind: j.kind,
        progress: j.progress,
        created_buildings: count(j.summary, 'created_buildings'),
        created_units: count(j.summary, 'created_units'),
        created_rooms: count(j.summary, 'created_rooms'),
        skipped_rooms: count(j.summary, 'skipped_rooms'),
        finish_time: wireTime(j.finished_at),
      })),
    };
  },
});

export const importMethods = [...roomImport, importloglist];
