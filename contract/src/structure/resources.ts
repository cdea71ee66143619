/** Room categories, buildings and units as resource descriptions (docs/resources.md). */
import { z } from 'zod';
import { id, int, noControlChars, text } from '../common.js';
import { createTimeColumn, resource, valueEnum, enumSchema } from '../kit/resource.js';
import type { Building, RoomCategory, Unit } from '../structure.js';

/** Who may change the structure; every signed-in account of the community may read it. */
export const STRUCTURE_WRITERS = ['admin', 'memberbasis'] as const;
/** The group side's head office: communities, their renewals. */
export const GROUP_LEADERS = ['leader_admin'] as const;

export const title = (max: number, what: string) =>
  noControlChars(
    z
      .string({ error: `请输入${what}` })
      .trim()
      .min(1, `请输入${what}`)
      .max(max, `${what}不能超过${max}个字符`),
  );
export const sortNo = int(0, 99999).default(0);

/** Kinds of room category; the kind drives defaults elsewhere (e.g. parking fees). */
export const ROOM_CATEGORY_KIND = valueEnum({
  residence: { text: '住宅' },
  shop: { text: '商铺' },
  office: { text: '写字楼' },
  parking: { text: '车位' },
  storage: { text: '储藏室' },
  other: { text: '其他' },
});

export const roomCategory = resource<RoomCategory>()({
  name: 'roomcate',
  label: '房屋类型',
  methods: { list: 'roomcatelist', add: 'roomcateadd', edit: 'roomcateedit', del: 'roomcatedel', small: 'roomcate_small_list' },
  roles: { read: 'any', write: STRUCTURE_WRITERS },
  fields: {
    title: { label: '类型名称', zod: title(30, '类型名称'), in: ['form', 'table', 'filter', 'export'], placeholder: '如 住宅、商铺' },
    kind: { label: '归类', zod: enumSchema(ROOM_CATEGORY_KIND, '类型归类').default('residence'), enum: ROOM_CATEGORY_KIND },
    sort: { label: '排序', zod: sortNo, widget: 'int', width: 80 },
  },
  columns: [{ key: 'room_count', label: '房屋数', width: 90 }],
});

export const building = resource<Building>()({
  name: 'building',
  label: '楼栋',
  methods: { list: 'buildinglist', add: 'buildingadd', edit: 'buildingedit', del: 'buildingdel', small: 'building_small_list' },
  roles: { read: 'any', write: STRUCTURE_WRITERS },
  fields: {
    title: { label: '楼栋名称', zod: title(30, '楼栋名称'), in: ['form', 'table', 'filter', 'export'], placeholder: '如 1号楼' },
    floors: { label: '楼层数', zod: int(0, 200).default(0), widget: 'int', width: 90 },
    sort: { label: '排序', zod: sortNo, widget: 'int', width: 80 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea' },
  },
  columns: [{ key: 'unit_count', label: '单元数', width: 90 }, { key: 'room_count', label: '房屋数', width: 90 }, createTimeColumn()],
});

export const unit = resource<Unit>()({
  name: 'unit',
  label: '单元',
  methods: { list: 'unitlist', add: 'unitadd', edit: 'unitedit', del: 'unitdel', small: 'unit_small_list' },
  roles: { read: 'any', write: STRUCTURE_WRITERS },
  smallBy: ['bid'],
  fields: {
    bid: { label: '所属楼栋', zod: id, widget: { small: 'building_small_list' }, in: ['form', 'filter'] },
    title: { label: '单元名称', zod: title(30, '单元名称'), in: ['form', 'table', 'filter', 'export'], placeholder: '如 1单元' },
    sort: { label: '排序', zod: sortNo, widget: 'int', width: 80 },
  },
  columns: [
    { key: 'building_title', label: '所属楼栋', in: ['table', 'export'] },
    { key: 'room_count', label: '房屋数', width: 90 },
    createTimeColumn(),
  ],
});
