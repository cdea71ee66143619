/**
 * 业务分类 (/setup/category, issue 36): the categories of a community's business objects, by
 * module (notice types, activity types, graphic categories, repair and complaint types). A name is
 * once in its module; a category in use is deleted only by moving its items to another category of
 * the module (categorydel with move_to). Other areas check a category id and count its uses through
 * the server's registry (server/src/modules/setup/categoryUses.ts, docs/product.md#business-categories).
 */
import { z } from 'zod';
import { id, int, optionalId, text, yn } from '../common.js';
import { createTimeColumn, enumSchema, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';

/** Who manages the setup pages: the spec's setup code (admin holds every code). */
export const SETUP_MANAGERS = ['setup'] as const;

/** The modules whose objects are categorised here (a new area adds its module). */
export const CATEGORY_MODULE = valueEnum({
  notice: { text: '通知公告' },
  activity: { text: '社区活动' },
  graphic: { text: '图文资讯' },
  repair: { text: '报修类型' },
  complaint: { text: '投诉类型' },
});
export type CategoryModule = keyof typeof CATEGORY_MODULE;

export const CATEGORY_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const CATEGORY_OWNER_VISIBLE = valueEnum({ Y: { text: '显示', tone: 'processing' }, N: { text: '不显示', tone: 'default' } });

/** The icons a category may show (names of the console's icon set; the owner app maps them too). */
export const CATEGORY_ICONS = ['notification', 'calendar', 'picture', 'tool', 'message', 'home', 'car', 'gift', 'book', 'star'] as const;
export type CategoryIcon = (typeof CATEGORY_ICONS)[number];
const icon = text(20)
  .refine((v) => v === '' || (CATEGORY_ICONS as readonly string[]).includes(v), { message: '图标取值不正确' })
  .optional()
  .default('');

export interface CategoryItem {
  id: number;
  module: CategoryModule;
  module_ch: string;
  title: string;
  icon: CategoryIcon | '';
  sort: number;
  show_owner: 'Y' | 'N';
  show_owner_ch: string;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  /** the module's items in this category (every registered use, server/src/modules/setup/categoryUses.ts) */
  use_count: number;
  create_time: string;
}

export const category = resource<CategoryItem>()({
  name: 'category',
  label: '分类',
  methods: {
    list: 'categorylist',
    add: 'categoryadd',
    edit: 'categoryedit',
    del: 'categorydel',
    export: 'categoryexport',
  },
  roles: { read: SETUP_MANAGERS, write: SETUP_MANAGERS },
  fields: {
    module: {
      label: '所属模块',
      zod: enumSchema(CATEGORY_MODULE, '所属模块'),
      enum: CATEGORY_MODULE,
      widget: 'select',
      in: ['form', 'table', 'filter', 'export'],
      width: 110,
      once: true,
    },
    title: {
      label: '名称',
      zod: text(20).min(1, '请输入分类名称'),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      placeholder: '如 停水停电',
    },
    icon: { label: '图标', zod: icon, widget: 'custom', in: ['form', 'table'], width: 70 },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', width: 70, help: '同一模块中数字小的在前' },
    show_owner: {
      label: '业主端显示',
      zod: yn.optional().default('Y'),
      enum: CATEGORY_OWNER_VISIBLE,
      widget: 'radio',
      in: ['form', 'table', 'filter', 'export'],
      width: 100,
    },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: CATEGORY_STATUS, in: ['form', 'table', 'filter', 'export'], width: 80 },
    remark: { label: '备注', zod: text(200).optional().default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [{ key: 'use_count', label: '使用数', width: 80 }, createTimeColumn('创建时间', { in: ['export'] })],
});

/** A category's delete: refused while in use unless its items move to another category of the module. */
export const categoryDelSchema = z.object({ id, move_to: optionalId });

/** The enabled categories of one module, for the pickers of the areas using them. */
export const categorySmallSchema = z.object({ module: enumSchema(CATEGORY_MODULE, '所属模块') });

export const categorySchemas = {
  ...category.schemas,
  category_small_list: categorySmallSchema,
  categorydel: categoryDelSchema,
} as const;

export type CategoryOutputs = Omit<ResourceOutputs<typeof category.def, CategoryItem>, 'categorydel'> & {
  category_small_list: { items: Array<{ id: number; title: string; icon: string }> };
  /** moved: the items moved to move_to */
  categorydel: { moved: number };
};
