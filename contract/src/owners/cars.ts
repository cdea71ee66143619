/** Cars bound to rooms (/basismembers/cars) as a resource description (docs/resources.md). */
import { z } from 'zod';
import { id, optionalId, text, yn } from '../common.js';
import { createTimeColumn, enumSchema, resource, valueEnum } from '../kit/resource.js';
import type { CarItem } from '../owners.js';
import { CAR_MANAGERS } from './roles.js';

const PROVINCES = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼';

/** Letters on plates leave out I and O. */
const L = 'A-HJ-NP-Z';
/**
 * Chinese plates: province + issuing letter + 5 characters (the last may be 挂学警港澳), or
 * the 8-character new-energy plates: small D/F + letter-or-digit + 4 digits, large 5 digits + D/F.
 */
export const PLATE_RE = new RegExp(`^[${PROVINCES}][${L}](?:[${L}0-9]{4}[${L}0-9挂学警港澳]|[DF][${L}0-9]\\d{4}|\\d{5}[DF])$`);

/** '沪a·12345 ' -> '沪A12345' (stored without the dot). */
export const normalizePlate = (value: string): string => value.replace(/[\s·•.-]/g, '').toUpperCase();

/** Plate as people read it: 沪A·12345. */
export const displayPlate = (plate: string): string => (plate.length >= 3 ? `${plate.slice(0, 2)}·${plate.slice(2)}` : plate);

export const isNewEnergyPlate = (plate: string): boolean => plate.length === 8;

const plate = z.string().transform(normalizePlate).pipe(z.string().regex(PLATE_RE, '车牌号格式不正确（如 沪A12345、沪AD12345）'));

export const CAR_TYPE = valueEnum(
  {
    small: { text: '小型车' },
    large: { text: '大型车' },
    new_energy: { text: '新能源车', tone: 'success' },
  },
  { key: 'car_type', name: '车辆类型' },
);
export const CAR_STATUS = valueEnum({ Y: { text: '正常', tone: 'success' }, N: { text: '停用', tone: 'default' } });

export const car = resource<CarItem>()({
  name: 'car',
  label: '车辆',
  methods: { list: 'carlist', add: 'caradd', edit: 'caredit', del: 'cardel', export: 'carexport' },
  roles: { read: CAR_MANAGERS, write: CAR_MANAGERS },
  echoId: true,
  fields: {
    carlicense: {
      label: '车牌号',
      zod: plate,
      filterZod: text(12).optional(),
      placeholder: '如 沪A12345',
      fixed: true,
      width: 120,
      in: ['form', 'table', 'filter', 'export'],
    },
    hid: { label: '房屋', zod: id, widget: 'room', in: ['form', 'filter'] },
    member_id: { label: '车主', zod: optionalId, widget: { membersOf: 'hid' }, in: ['form'], help: '须为该房屋的在住住户' },
    car_type: {
      label: '车辆类型',
      zod: enumSchema(CAR_TYPE, '车辆类型').optional(),
      enum: CAR_TYPE,
      help: '不选时按车牌判断（8 位为新能源车）',
    },
    color: { label: '颜色', zod: text(20).optional().default(''), width: 80 },
    brand: { label: '品牌', zod: text(40).optional().default(''), width: 100 },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: CAR_STATUS, in: ['form', 'table', 'filter', 'export'], width: 80 },
    remark: { label: '备注', zod: text(200).optional().default(''), widget: 'textarea', in: ['form', 'export'] },
    bid: { label: '楼栋', widget: { small: 'building_small_list' }, in: ['filter'] },
    keyword: { label: '车主姓名/手机号', zod: text(30), in: ['filter'] },
    create_time: { label: '登记时间', widget: 'dateRange', in: ['filter'] },
  },
  columns: [
    { key: 'address', label: '房屋' },
    { key: 'realname', label: '车主', width: 90 },
    { key: 'mobile', label: '手机号', width: 120 },
    createTimeColumn('登记时间'),
  ],
});
