/**
 * Devices of every family (门禁、道闸、表计、充电桩) and their command queue, the door devices'
 * page /carpark/current_device and the face-terminal simulator (docs/product.md#access-control).
 * A device is online while its last heartbeat is within DEVICE_ONLINE_MS of now.
 */
import { z } from 'zod';
import { id, int, optionalId, paging, text, yn } from '../common.js';
import { createTimeColumn, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { ACCESS_ROLES } from './roles.js';

export const DEVICE_ONLINE_MS = 2 * 60_000;
/** A failed command is tried again after 30 s, doubling each time, at most every 10 minutes. */
export const COMMAND_BACKOFF_FIRST_MS = 30_000;
export const COMMAND_BACKOFF_MAX_MS = 10 * 60_000;
/** A sent command without an answer for this long has failed (应答超时) and is retried. */
export const COMMAND_ACK_TIMEOUT_MS = 2 * 60_000;
/** The wait before the n-th try (n from 1) after a failure. */
export function commandBackoffMs(attempts: number): number {
  return Math.min(COMMAND_BACKOFF_MAX_MS, COMMAND_BACKOFF_FIRST_MS * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

export const DEVICE_FAMILY = valueEnum({
  door: { text: '门禁' },
  gate: { text: '道闸' },
  meter: { text: '表计' },
  pile: { text: '充电桩' },
});
export const DEVICE_VENDOR = valueEnum({ simulator: { text: '模拟人脸终端' } });
export const DEVICE_DIRECTION = valueEnum({
  in: { text: '进', tone: 'processing' },
  out: { text: '出', tone: 'warning' },
  both: { text: '进出', tone: 'default' },
});
export const DEVICE_LOCATION = valueEnum({
  community: { text: '小区大门' },
  building: { text: '楼栋门' },
  unit: { text: '单元门' },
});
export const DEVICE_ONLINE = valueEnum({ Y: { text: '在线', tone: 'success' }, N: { text: '离线', tone: 'default' } });
export const DEVICE_ENABLED = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const COMMAND_KIND = valueEnum({
  person_add: { text: '下发人员' },
  person_del: { text: '删除人员' },
  open: { text: '远程开门' },
  restart: { text: '重启' },
  room_sync: { text: '房屋结构同步' },
  meter_read: { text: '抄表' },
  valve_open: { text: '开阀' },
  valve_close: { text: '关阀' },
  meter_recharge: { text: '充值下发' },
  meter_swap: { text: '换表' },
  pile_start: { text: '启动充电' },
  pile_stop: { text: '停止充电' },
});
export const COMMAND_STATE = valueEnum({
  pending: { text: '待发送', tone: 'processing' },
  sent: { text: '已发送', tone: 'warning' },
  done: { text: '已完成', tone: 'success' },
  failed: { text: '失败', tone: 'error' },
  cancelled: { text: '已取消', tone: 'default' },
});

export interface DeviceItem {
  id: number;
  code: string;
  title: string;
  vendor: string;
  vendor_ch: string;
  version: string;
  ip: string;
  mac: string;
  direction: 'in' | 'out' | 'both';
  direction_ch: string;
  location: 'community' | 'building' | 'unit';
  location_ch: string;
  bid: number | null;
  tid: number | null;
  /** 1号楼 / 1单元, or '' for a community gate */
  place: string;
  address: string;
  enabled: 'Y' | 'N';
  enabled_ch: string;
  remark: string;
  last_heartbeat: string;
  online: 'Y' | 'N';
  online_ch: string;
  /** commands not yet acknowledged (pending, sent, failed) */
  queued: number;
  /** grants the device holds */
  held: number;
  create_time: string;
}

const mac = z
  .string()
  .trim()
  .regex(/^$|^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/, 'MAC 地址格式不正确，如 AA:BB:CC:DD:EE:FF');
const ip = z
  .string()
  .trim()
  .regex(/^$|^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$/, 'IP 地址格式不正确');

export const accessDevice = resource<DeviceItem>()({
  name: 'accessdevice',
  label: '门禁设备',
  methods: {
    list: 'accessdevicelist',
    add: 'accessdeviceadd',
    edit: 'accessdeviceedit',
    del: 'accessdevicedel',
    info: 'accessdeviceinfo',
    small: 'accessdevice_small_list',
  },
  roles: { read: ACCESS_ROLES.staff, write: ACCESS_ROLES.staff },
  echoId: true,
  fields: {
    code: {
      label: '设备编号',
      zod: text(30)
        .regex(/^[A-Za-z0-9_-]*$/, '设备编号只能是字母、数字、下划线或横线')
        .min(1, '请输入设备编号'),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 110,
    },
    title: {
      label: '设备名称',
      zod: text(30).min(1, '请输入设备名称'),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      width: 140,
    },
    vendor: {
      label: '厂商',
      zod: z.enum(['simulator'], { message: '设备厂商取值不正确' }).default('simulator'),
      enum: DEVICE_VENDOR,
      widget: 'select',
      in: ['form', 'table', 'export'],
      width: 110,
    },
    version: { label: '版本', zod: text(30).default(''), in: ['form', 'table', 'export'], width: 80 },
    ip: { label: 'IP', zod: ip.default(''), in: ['form', 'table', 'export'], width: 120 },
    mac: { label: 'MAC', zod: mac.default(''), in: ['form', 'table', 'export'], width: 150 },
    direction: {
      label: '方向',
      zod: z.enum(['in', 'out', 'both'], { message: '请选择方向' }).default('both'),
      enum: DEVICE_DIRECTION,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 70,
    },
    location: {
      label: '位置',
      zod: z.enum(['community', 'building', 'unit'], { message: '请选择位置' }).default('community'),
      enum: DEVICE_LOCATION,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 90,
    },
    bid: { label: '楼栋', zod: optionalId, widget: { small: 'building_small_list' }, in: ['form', 'filter'] },
    tid: { label: '单元', zod: optionalId, widget: { small: 'unit_small_list', dependsOn: { bid: 'bid' } }, in: ['form'] },
    address: { label: '安装地址', zod: text(100).default(''), in: ['form', 'table', 'export'], width: 140 },
    enabled: { label: '启用', zod: yn.default('Y'), enum: DEVICE_ENABLED, widget: 'radio', in: ['form', 'table', 'filter'], width: 70 },
    /** the home page's access card opens the list at ?online=N */
    online: {
      label: '在线',
      enum: DEVICE_ONLINE,
      widget: 'select',
      in: ['filter'],
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  rules: [
    { check: (v) => v.location === 'community' || Boolean(v.bid), message: '请选择楼栋', path: 'bid' },
    { check: (v) => v.location !== 'unit' || Boolean(v.tid), message: '请选择单元', path: 'tid' },
  ],
  columns: [
    { key: 'place', label: '楼栋单元', width: 120 },
    { key: 'online', label: '在线', enum: DEVICE_ONLINE, width: 70 },
    { key: 'last_heartbeat', label: '最后心跳', width: 170 },
    { key: 'queued', label: '待执行指令', width: 100 },
    { key: 'held', label: '已下发人员', width: 100 },
    createTimeColumn(),
  ],
});

export interface CommandItem {
  id: number;
  device_id: number;
  device_title: string;
  kind: string;
  kind_ch: string;
  subject: string;
  state: string;
  state_ch: string;
  attempts: number;
  last_error: string;
  next_try_at: string;
  create_time: string;
  sent_at: string;
  acked_at: string;
  operator: string;
}

export interface SimPersonItem {
  subject: string;
  person_name: string;
  face_image: string;
  card_no: string;
  valid_from: string;
  valid_to: string;
  added_at: string;
}

export interface SimStateItem {
  device_id: number;
  code: string;
  title: string;
  vendor: string;
  online: 'Y' | 'N';
  last_heartbeat: string;
  capacity: number;
  reject_photos: 'Y' | 'N';
  offline: 'Y' | 'N';
  person_count: number;
  persons: SimPersonItem[];
}

export const deviceSchemas = {
  ...accessDevice.schemas,
  /** a device's heartbeat, as a terminal sends it */
  accessdeviceheartbeat: z.object({ code: text(30).min(1, '请输入设备编号') }),
  /** a terminal's answer to a command it was sent */
  accessdeviceack: z.object({
    code: text(30).min(1, '请输入设备编号'),
    command_id: id,
    ok: z.boolean(),
    error: text(200).default(''),
  }),
  accessdeviceopen: z.object({ id }),
  accessdevicerestart: z.object({ id }),
  accesscommandlist: z.object({
    ...paging,
    device_id: optionalId,
    state: z.enum(['', 'pending', 'sent', 'done', 'failed']).default(''),
    kind: z.enum(['', 'person_add', 'person_del', 'open', 'restart', 'room_sync']).default(''),
  }),
  accesssiminfo: z.object({ device_id: id }),
  accessdashboard: z.object({}),
  accesssimset: z.object({
    device_id: id,
    capacity: int(1, 100000).optional(),
    reject_photos: yn.optional(),
    offline: yn.optional(),
  }),
} as const;

export type DeviceOutputs = ResourceOutputs<typeof accessDevice.def, DeviceItem> & {
  accessdeviceheartbeat: { device_id: number; online: 'Y'; resent: number };
  accessdeviceack: { command_id: number; state: string };
  accessdeviceopen: { command_id: number };
  accessdevicerestart: { command_id: number };
  accesscommandlist: { items: CommandItem[]; total: number };
  accesssiminfo: SimStateItem;
  accesssimset: SimStateItem;
  accessdashboard: AccessDashboard;
};

/**
 * The home page's access card (accessdashboard): the enabled door devices and those offline (no
 * heartbeat for DEVICE_ONLINE_MS), and today's visitors expected (待审核, 已通过) and arrived.
 */
export interface AccessDashboard {
  total: number;
  offline: number;
  expected: number;
  arrived: number;
}
