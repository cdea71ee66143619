/**
 * Room codes (/carpark/roomcode) and their structure sync to the door devices
 * (/carpark/room_construct_sync_log); docs/product.md#room-codes. A room's device code (房号编码)
 * and call number (呼叫号) are what a face terminal or an intercom shows and dials; they are made
 * from templates, edited, imported and exported, and every change is pushed to the doors that
 * serve the room.
 */
import { z } from 'zod';
import { id, optionalId, paging, text, yn } from '../common.js';
import { fileBase64, type FileAnswer } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import type { ImportRowError } from '../structure.js';
import { valueEnum, wireDay } from '../kit/resource.js';

/** A room's sync to its doors: the newest push to each device, summed up. */
export const ROOM_SYNC_STATE = valueEnum({
  none: { text: '无设备', tone: 'default' },
  syncing: { text: '同步中', tone: 'processing' },
  done: { text: '已同步', tone: 'success' },
  failed: { text: '同步失败', tone: 'error' },
});
export const ROOM_SYNC_ACTION = valueEnum({
  set: { text: '下发编码' },
  del: { text: '删除编码' },
});

export const ROOM_CODE_RE = /^[A-Za-z0-9-]{1,20}$/;
export const ROOM_CODE_MSG = '房号编码只能是字母、数字或横线，1 到 20 位';
export const CALL_NO_RE = /^\d{0,16}$/;
export const CALL_NO_MSG = '呼叫号只能是数字，最多 16 位';

export const DEFAULT_CODE_TEMPLATE = '{b}-{u}-{f:2}{r:2}';
export const DEFAULT_CALL_TEMPLATE = '{b:2}{u:2}{f:2}{r:2}';
/** The tokens of a template: {b} 楼栋号, {u} 单元号, {f} 楼层, {r} 层内房号, {n} 房号; `:k` pads to k digits. */
export const TEMPLATE_TOKEN = /\{([bufrn])(?::([1-6]))?\}/g;

/** What a template is made of, for one room. */
export interface RoomCodeParts {
  building: string;
  buildingSort: number;
  unit: string;
  unitSort: number;
  room: string;
  floor: number;
}

const digitsOf = (s: string) => /\d+/.exec(s)?.[0] ?? '';

/**
 * The tokens' values: a building's and a unit's number are the digits of their names (1号楼 → 1),
 * else their order; the room's number on its floor is its name's digits after the floor (1303 on
 * floor 13 → 03), else all of them; {n} is all of them.
 */
export function roomTokens(p: RoomCodeParts): Record<'b' | 'u' | 'f' | 'r' | 'n', string> {
  const b = digitsOf(p.building) || String(p.buildingSort);
  const u = digitsOf(p.unit) || String(p.unitSort);
  const n = digitsOf(p.room);
  const f = String(p.floor);
  const r = p.floor > 0 && n.length > f.length && n.startsWith(f) ? n.slice(f.length) : n;
  return { b: String(Number(b)), u: String(Number(u)), f, r: r === '' ? '' : String(Number(r)), n };
}

/** The template filled for a room (a token's value longer than its width is kept whole). */
export function renderRoomCode(template: string, p: RoomCodeParts): string {
  const t = roomTokens(p);
  return template.replace(TEMPLATE_TOKEN, (_m, k: keyof typeof t, w?: string) => (w ? t[k].padStart(Number(w), '0') : t[k]));
}

/** Why a template cannot be used, or null. `call`: a call number's template makes digits only. */
export function templateProblem(template: string, kind: 'code' | 'call'): string | null {
  const label = kind === 'code' ? '房号编码模板' : '呼叫号模板';
  if (kind === 'call' && template === '') return null;
  const rest = template.replace(TEMPLATE_TOKEN, '');
  if (/[{}]/.test(rest)) return `${label}中有不认识的占位符，只能用 {b} {u} {f} {r} {n}，可加位数如 {f:2}`;
  if (rest === template) return `${label}至少要有一个 {b} {u} {f} {r} {n} 中的占位符`;
  if (kind === 'code' && !/^[A-Za-z0-9-]*$/.test(rest)) return `${label}中的固定字符只能是字母、数字或横线`;
  if (kind === 'call' && !/^\d*$/.test(rest)) return `${label}中的固定字符只能是数字`;
  return null;
}

const template = (kind: 'code' | 'call', fallback: string) =>
  text(60)
    .default(fallback)
    .superRefine((v, c) => {
      const problem = templateProblem(v, kind);
      if (problem) c.addIssue({ code: 'custom', message: problem });
    });

export interface RoomCodeItem {
  hid: number;
  bid: number;
  tid: number;
  /** 1号楼1单元1101 */
  address: string;
  floor: number;
  code: string;
  call_no: string;
  sync_state: '' | 'none' | 'syncing' | 'done' | 'failed';
  sync_state_ch: string;
  /** the newest failure's error, when the state is failed */
  sync_error: string;
  update_time: string;
  operator: string;
}

export interface RoomSyncItem {
  id: number;
  device_id: number;
  device_title: string;
  hid: number;
  address: string;
  action: 'set' | 'del';
  action_ch: string;
  code: string;
  call_no: string;
  state: string;
  state_ch: string;
  attempts: number;
  last_error: string;
  create_time: string;
  acked_at: string;
}

export interface RoomCodeImportResult {
  imported: number;
  errors: ImportRowError[];
}

const codeFilters = {
  bid: optionalId,
  tid: optionalId,
  keyword: text(30).default(''),
  coded: z.enum(['', 'Y', 'N'], { message: '是否已生成取值不正确' }).default(''),
  sync_state: z.enum(['', 'none', 'syncing', 'done', 'failed'], { message: '同步状态取值不正确' }).default(''),
};
const syncFilters = {
  device_id: optionalId,
  state: z.enum(['', 'pending', 'sent', 'done', 'failed'], { message: '状态取值不正确' }).default(''),
  keyword: text(30).default(''),
  start_date: z.union([z.literal(''), wireDay]).default(''),
  end_date: z.union([z.literal(''), wireDay]).default(''),
};

export const roomCodeSchemas = {
  roomcodelist: z.object({ ...paging, ...codeFilters }),
  roomcodegenerate: z.object({
    code_template: template('code', DEFAULT_CODE_TEMPLATE),
    call_template: template('call', DEFAULT_CALL_TEMPLATE),
    bid: optionalId,
    /** Y: rooms that have a code get the new one too */
    overwrite: yn.default('N'),
  }),
  roomcodeedit: z.object({
    hid: id,
    code: text(20).min(1, '请输入房号编码').regex(ROOM_CODE_RE, ROOM_CODE_MSG),
    call_no: text(16).regex(CALL_NO_RE, CALL_NO_MSG).default(''),
  }),
  roomcodedel: z.object({ hid: id }),
  /** one room's codes pushed again, or every coded room's (no hid) */
  roomcodesync: z.object({ hid: optionalId }),
  roomcodeexport: z.object(codeFilters),
  roomcodetemplate: z.object({ bid: optionalId }),
  roomcodeimport: z.object({ filename: text(200).min(1), file_base64: fileBase64 }),
  roomcodeerrors: z.object({ job_id: id }),
  roomsynclist: z.object({ ...paging, ...syncFilters }),
  /** one failed push tried again now, or every failed one (no id) */
  roomsyncretry: z.object({ id: optionalId }),
  roomsyncexport: z.object(syncFilters),
} as const;

export type RoomCodeOutputs = {
  roomcodelist: { items: RoomCodeItem[]; total: number };
  roomcodegenerate: { generated: number; skipped: number; clashed: number; clashes: string[]; pushed: number };
  roomcodeedit: { hid: number; pushed: number };
  roomcodedel: { hid: number; pushed: number };
  roomcodesync: { pushed: number };
  roomcodeexport: ExportQueued;
  roomcodetemplate: FileAnswer;
  roomcodeimport: { job_id: number };
  roomcodeerrors: FileAnswer;
  roomsynclist: { items: RoomSyncItem[]; total: number };
  roomsyncretry: { retried: number };
  roomsyncexport: ExportQueued;
};
