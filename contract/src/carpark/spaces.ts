/**
 * Parking spaces (车位, /carpark/cdlist; docs/product.md#carpark) as a resource. A space's state
 * (空闲, 出租, 出售) is never edited: renting, selling and releasing a car move it (cars.ts).
 */
import { z } from 'zod';
import { id, int, optionalId, text } from '../common.js';
import { createTimeColumn, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import type { ExportQueued } from '../jobs.js';
import { CARPARK_ROLES } from './roles.js';

export const SPACE_KIND = valueEnum({
  ordinary: { text: '普通' },
  parent: { text: '子母', tone: 'processing' },
  virtual: { text: '虚拟', tone: 'warning' },
});
/** The state, moved only by car operations. */
export const CARPARK_SPACE_STATUS = valueEnum({
  idle: { text: '空闲', tone: 'success' },
  rented: { text: '出租', tone: 'processing' },
  sold: { text: '出售', tone: 'warning' },
});

export interface SpaceItem {
  id: number;
  lot_id: number;
  lot_title: string;
  title: string;
  kind: 'ordinary' | 'parent' | 'virtual';
  kind_ch: string;
  area: string;
  remark: string;
  status: 'idle' | 'rented' | 'sold';
  status_ch: string;
  /** the holder's room, person and plate ('' when free) */
  hid: number | null;
  address: string;
  realname: string;
  carlicense: string;
  /** cars sharing it (the main car and its member cars) */
  car_count: number;
  start_date: string;
  end_date: string;
  create_time: string;
}

const area = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(/^(\d{1,6})(\.\d{1,2})?$/, '面积须为不超过两位小数的数字'));

export const space = resource<SpaceItem>()({
  name: 'parkingspace',
  label: '车位',
  methods: {
    list: 'parkingspacelist',
    add: 'parkingspaceadd',
    edit: 'parkingspaceedit',
    del: 'parkingspacedel',
    export: 'parkingspaceexport',
  },
  roles: { read: CARPARK_ROLES.staff, write: CARPARK_ROLES.staff },
  echoId: true,
  fields: {
    lot_id: { label: '停车场', zod: id, widget: { small: 'carpark_small_list' }, in: ['form', 'filter'] },
    title: { label: '车位号', zod: text(20).min(1, '请输入车位号'), in: ['form', 'table', 'filter', 'export'], fixed: true, width: 100 },
    kind: {
      label: '车位类型',
      zod: z.enum(['ordinary', 'parent', 'virtual'], { message: '车位类型取值不正确' }).default('ordinary'),
      enum: SPACE_KIND,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 80,
    },
    area: { label: '面积(m²)', zod: area.default('0'), widget: 'decimal', width: 90 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'export'] },
    status: { label: '状态', enum: CARPARK_SPACE_STATUS, in: ['table', 'filter', 'export'], width: 80 },
    room: { label: '房屋', zod: text(60), in: ['filter'], placeholder: '楼栋/房号' },
  },
  columns: [
    { key: 'lot_title', label: '停车场', width: 120 },
    { key: 'carlicense', label: '车牌', width: 100 },
    { key: 'address', label: '房屋', width: 160 },
    { key: 'realname', label: '业主', width: 90 },
    { key: 'start_date', label: '开始日期', width: 110 },
    { key: 'end_date', label: '结束日期', width: 110 },
    createTimeColumn(),
  ],
});

export const spaceSchemas = {
  ...space.schemas,
  parkingspacebatchadd: z
    .object({
      lot_id: id,
      prefix: text(10)
        .regex(/^[A-Za-z0-9\u4e00-\u9fa5-]*$/, '前缀只能是字母、数字、汉字或横线')
        .default(''),
      from: int(0, 99999),
      to: int(0, 99999),
      /** digits of the number, zero-padded (3: A-001) */
      digits: int(1, 6).default(3),
      kind: z.enum(['ordinary', 'parent', 'virtual'], { message: '车位类型取值不正确' }).default('ordinary'),
      area: area.default('0'),
    })
    .refine((v) => v.to >= v.from, { message: '结束编号不能小于起始编号', path: ['to'] })
    .refine((v) => v.to - v.from < 1000, { message: '一次最多添加 1000 个车位', path: ['to'] }),
  /** the free spaces of a lot, and the one a car holds now (for the car form) */
  parkingspace_small_list: z.object({ lot_id: optionalId, car_id: optionalId }),
} as const;

export type SpaceOutputs = ResourceOutputs<typeof space.def, SpaceItem> & {
  parkingspacebatchadd: { count: number };
  parkingspace_small_list: { items: Array<{ id: number; title: string }> };
  parkingspaceexport: ExportQueued;
};
