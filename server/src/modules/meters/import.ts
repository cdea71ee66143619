/**
 * The meters' Excel import (表计管理 导入; docs/product.md#smart-meters), through the one import
 * mechanism (jobs/imports.ts): a template, the upload checked row by row (any bad row imports
 * nothing, with a report of the rows to fix), then every meter written in one transaction. A row
 * names its room by 楼栋 / 单元 / 房号 as the other imports do (all three empty: a meter bound to no
 * room yet, for 房屋管理's binding), its gateway by code and its plan by name; 预警金额 sets the room's
 * alarm threshold.
 */
import {
  centiToUnits,
  enumKeys,
  enumText,
  fenToYuan,
  METER_IMPORT_HEADERS,
  METER_IMPORT_MAX_ROWS,
  METER_KIND,
  METER_MODE,
  METER_VENDOR,
  MONEY_RE,
  toCenti,
  toFen,
  type ImportRowError,
  type MeterDeviceImportResult,
  type MeterKind,
} from '@wuye/contract';
import { METER_ROLES } from '@wuye/contract/meters/roles';
import { defineImport, type ImportScope } from '../../jobs/imports.js';
import type { SheetRow } from '../../lib/xlsxReader.js';

export const METER_DEVICE_IMPORT = 'meter_device_import';
const METER_NO_RE = /^[A-Za-z0-9_-]{1,30}$/;
const READING_RE = /^\d{1,10}(\.\d{1,2})?$/;
/** the most a room's alarm threshold may be (as the house form allows) */
const MAX_ALARM_FEN = 100_000_00n;

interface PlannedMeter {
  row: number;
  meterNo: string;
  kind: MeterKind;
  mode: 'prepaid' | 'read';
  hid: number | null;
  bid: number | null;
  gatewayId: number;
  planId: number;
  itemId: number | null;
  reading: string;
  /** the room's alarm threshold, when the row sets one */
  alarm: string | null;
}

const byText = <K extends string>(e: Record<K, { text: string }>) => new Map(enumKeys(e).map((k) => [e[k].text, k] as [string, K]));

/** What the rows are checked against: the community's rooms, gateways, plans, fee items and meter numbers taken. */
async function lookups(scope: ImportScope, rows: SheetRow[]) {
  const { db, rid } = scope;
  const numbers = [...new Set(rows.map((r) => (r.values['表号'] ?? '').trim()).filter(Boolean))];
  const [rooms, gateways, plans, items, taken] = await Promise.all([
    db
      .selectFrom('rooms as r')
      .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
      .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
      .select(['r.id', 'r.bid', 'r.title', 'u.title as unit', 'b.title as building'])
      .where('r.rid', '=', rid)
      .execute(),
    db.selectFrom('devices').select(['id', 'code', 'vendor']).where('rid', '=', rid).where('family', '=', 'meter').execute(),
    db.selectFrom('meter_price_plans').select(['id', 'title', 'kind']).where('rid', '=', rid).execute(),
    db.selectFrom('fee_items').select(['id', 'title', 'pricing']).where('rid', '=', rid).execute(),
    db
      .selectFrom('meters')
      .select('meter_no')
      .where('rid', '=', rid)
      .where('meter_no', 'in', ['', ...numbers])
      .execute(),
  ]);
  return {
    rooms: new Map(rooms.map((r) => [`${r.building}|${r.unit}|${r.title}`, { id: Number(r.id), bid: Number(r.bid) }])),
    gateways: new Map(gateways.map((g) => [g.code, g])),
    plans: new Map(plans.map((p) => [p.title, p])),
    items: new Map(items.map((i) => [i.title, i])),
    taken: new Set(taken.map((t) => t.meter_no)),
  };
}

async function checkRows(scope: ImportScope, rows: SheetRow[]): Promise<{ errors: ImportRowError[]; plan: PlannedMeter[] }> {
  const look = await lookups(scope, rows);
  const kinds = byText(METER_KIND);
  const modes = byText(METER_MODE);
  const errors: ImportRowError[] = [];
  const plan: PlannedMeter[] = [];
  const seenNo = new Map<string, number>();
  const alarmOf = new Map<number, { alarm: string; row: number }>();
  for (const r of rows) {
    const cell = (h: string) => (r.values[h] ?? '').trim();
    const bad = (column: string, reason: string) => errors.push({ row: r.rowNumber, column, reason });
    const before = errors.length;

    const no = cell('表号');
    if (!METER_NO_RE.test(no)) bad('表号', '表号必填，最多 30 位字母、数字、下划线或横线');
    else if (look.taken.has(no)) bad('表号', `表号 ${no} 已存在`);
    else if (seenNo.has(no)) bad('表号', `与第 ${seenNo.get(no)} 行的表号重复`);
    else seenNo.set(no, r.rowNumber);

    const kind = kinds.get(cell('表类型'));
    if (!kind) bad('表类型', '表类型应为 电表、水表 或 燃气表');
    const mode = modes.get(cell('计费模式'));
    if (!mode) bad('计费模式', '计费模式应为 预付费 或 抄表计费');

    const [building, unit, roomNo] = [cell('楼栋'), cell('单元'), cell('房号')];
    const room = look.rooms.get(`${building}|${unit}|${roomNo}`);
    const roomless = !building && !unit && !roomNo;
    if (!roomless && (!building || !unit || !roomNo)) bad('房号', '楼栋、单元、房号须同时填写，或都不填（暂不绑定房屋）');
    else if (!roomless && !room) bad('房号', `房屋 ${building}${unit}${roomNo} 不存在`);

    const code = cell('采集器编号');
    const gateway = look.gateways.get(code);
    if (!code) bad('采集器编号', '请填写采集器编号');
    else if (!gateway) bad('采集器编号', `采集器 ${code} 不存在`);

    const planTitle = cell('单价方案');
    const plan_ = look.plans.get(planTitle);
    if (!planTitle) bad('单价方案', '请填写单价方案');
    else if (!plan_) bad('单价方案', `单价方案“${planTitle}”不存在`);
    else if (kind && plan_.kind !== kind)
      bad('单价方案', `单价方案“${planTitle}”是${enumText(METER_KIND, plan_.kind)}的方案，与表类型不一致`);

    const vendor = cell('厂商');
    if (vendor && gateway && vendor !== enumText(METER_VENDOR, gateway.vendor) && vendor !== gateway.vendor) {
      bad('厂商', `厂商与采集器 ${code} 的厂商（${enumText(METER_VENDOR, gateway.vendor)}）不一致`);
    }

    const reading = cell('初始读数') || '0';
    if (!READING_RE.test(reading)) bad('初始读数', '初始读数应为不小于 0、最多两位小数的数字');

    const alarm = cell('预警金额');
    if (alarm) {
      if (!MONEY_RE.test(alarm) || toFen(alarm) > MAX_ALARM_FEN) bad('预警金额', '预警金额应为 0 到 100000 的金额，最多两位小数');
      else if (roomless) bad('预警金额', '预警金额是房屋的设置，未绑定房屋的表不能填写');
      else if (room) {
        const earlier = alarmOf.get(room.id);
        if (earlier && toFen(earlier.alarm) !== toFen(alarm)) bad('预警金额', `与第 ${earlier.row} 行同一房屋的预警金额不一致`);
        else if (!earlier) alarmOf.set(room.id, { alarm, row: r.rowNumber });
      }
    }

    const itemTitle = cell('收费项目');
    const item = look.items.get(itemTitle);
    if (mode === 'read') {
      if (!itemTitle) bad('收费项目', '抄表计费的表请填写收费项目（按抄表读数计费的项目）');
      else if (!item) bad('收费项目', `收费项目“${itemTitle}”不存在`);
      else if (item.pricing !== 'meter') bad('收费项目', `收费项目“${itemTitle}”不是按抄表读数计费`);
    }

    if (errors.length > before) continue;
    plan.push({
      row: r.rowNumber,
      meterNo: no,
      kind: kind!,
      mode: mode!,
      hid: room?.id ?? null,
      bid: room?.bid ?? null,
      gatewayId: Number(gateway!.id),
      planId: Number(plan_!.id),
      itemId: mode === 'read' ? Number(item!.id) : null,
      reading: centiToUnits(toCenti(reading)),
      alarm: alarm ? fenToYuan(toFen(alarm)) : null,
    });
  }
  return { errors, plan };
}

/** Every meter and the rooms' alarm thresholds in one transaction: the file stands or falls whole. */
async function writeMeters(scope: ImportScope, plan: PlannedMeter[]): Promise<MeterDeviceImportResult> {
  const { rid } = scope;
  const by = scope.job.created_by === null ? null : Number(scope.job.created_by);
  const alarms = new Map(plan.filter((p) => p.alarm !== null && p.hid !== null).map((p) => [p.hid!, p.alarm!]));
  await scope.batch(async (trx) => {
    for (let i = 0; i < plan.length; i += 500) {
      await trx
        .insertInto('meters')
        .values(
          plan.slice(i, i + 500).map((p) => ({
            rid,
            meter_no: p.meterNo,
            kind: p.kind,
            mode: p.mode,
            gateway_id: p.gatewayId,
            hid: p.hid,
            bid: p.bid,
            plan_id: p.planId,
            item_id: p.itemId,
            reading: p.reading,
            // a read-and-bill meter's first bill counts from its initial reading
            billed_reading: p.reading,
            remark: '导入',
            created_by: by,
          })),
        )
        .execute();
      await scope.step(Math.min(i + 500, plan.length), plan.length);
    }
    // rooms in id order, the order every writer of meter_houses takes
    for (const [hid, alarm] of [...alarms].sort((a, b) => a[0] - b[0])) {
      await trx
        .insertInto('meter_houses')
        .values({ rid, hid, alarm_threshold: alarm, created_by: by })
        .onConflict((oc) => oc.columns(['rid', 'hid']).doUpdateSet({ alarm_threshold: alarm }))
        .execute();
    }
  });
  return { meters: plan.length, bound: plan.filter((p) => p.hid !== null).length, alarms: alarms.size, errors: [] };
}

export const meterImportMethods = defineImport<'meterimport', 'meterimporttemplate', PlannedMeter[], MeterDeviceImportResult>({
  kind: METER_DEVICE_IMPORT,
  label: '表计',
  methods: { template: 'meterimporttemplate', upload: 'meterimport', errors: 'meterimporterrors' },
  summaries: {
    template:
      '表计导入模板（.xlsx）：表号、表类型、计费模式、楼栋、单元、房号、采集器编号、单价方案、厂商、初始读数、预警金额、收费项目，含示例与填写说明',
    upload:
      '上传表计 Excel：检查表头后作为后台任务导入（返回 job_id）；房屋按楼栋、单元、房号查找（都不填为暂不绑定），采集器按编号、单价方案按名称；预警金额设置该房屋的预警金额；有错误行则全部不导入',
  },
  roles: METER_ROLES.devices,
  required: ['表号', '表类型', '计费模式', '采集器编号', '单价方案'],
  maxRows: METER_IMPORT_MAX_ROWS,
  maxErrors: 2000,
  template: async (ctx) => {
    const [gateway, plan, room] = await Promise.all([
      ctx.db.selectFrom('devices').select('code').where('rid', '=', ctx.rid).where('family', '=', 'meter').orderBy('id').executeTakeFirst(),
      ctx.db
        .selectFrom('meter_price_plans')
        .select('title')
        .where('rid', '=', ctx.rid)
        .where('kind', '=', 'power')
        .orderBy('id')
        .executeTakeFirst(),
      ctx.db
        .selectFrom('rooms as r')
        .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
        .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
        .select(['r.title', 'u.title as unit', 'b.title as building'])
        .where('r.rid', '=', ctx.rid)
        .orderBy('r.id')
        .executeTakeFirst(),
    ]);
    const code = gateway?.code ?? 'DTU001';
    const planTitle = plan?.title ?? '居民电价';
    return {
      filename: '表计导入模板.xlsx',
      sheet: '表计',
      headers: METER_IMPORT_HEADERS,
      widths: { 表号: 16, 采集器编号: 14, 单价方案: 16, 厂商: 14, 收费项目: 14 },
      rows: [
        [
          'E20260001',
          '电表',
          '预付费',
          room?.building ?? '1号楼',
          room?.unit ?? '1单元',
          room?.title ?? '101',
          code,
          planTitle,
          '模拟表计平台',
          '0',
          '20',
          '',
        ],
        ['E20260002', '电表', '预付费', '', '', '', code, planTitle, '', '0', '', ''],
      ],
      help: {
        sheet: '填写说明',
        lines: [
          ['表号', '必填，最多 30 位字母、数字、下划线或横线，不能与已有表号或文件中的其他行重复'],
          ['表类型', '必填：电表、水表 或 燃气表'],
          ['计费模式', '必填：预付费 或 抄表计费'],
          ['楼栋/单元/房号', '系统中已有的房屋（如 1号楼 / 1单元 / 101）；三项都不填为暂不绑定，可在房屋管理中按楼栋批量绑定'],
          ['采集器编号', `必填，本小区已添加的采集器编号（如 ${code}）`],
          ['单价方案', `必填，本小区的单价方案名称（如 ${planTitle}），须与表类型一致`],
          ['厂商', '可不填；填写时须与采集器的厂商一致（模拟表计平台）'],
          ['初始读数', '可不填（0）；表的当前读数，最多两位小数，之后的用量从它起算'],
          ['预警金额', '可不填；填写时设置该房屋的预警金额（元），同一房屋的各行须一致；未绑定房屋的表不能填写'],
          ['收费项目', '抄表计费的表必填：按抄表读数计费的收费项目名称；预付费的表不填'],
          ['注意', '任何一行有错误时整个文件都不导入，请下载错误报告按行修改后重新上传'],
        ],
      },
    };
  },
  check: checkRows,
  rejected: (errors) => ({ meters: 0, bound: 0, alarms: 0, errors }),
  write: writeMeters,
  raced: '导入过程中有相同表号的表计被他人添加，已全部撤销，请重新导入',
});
