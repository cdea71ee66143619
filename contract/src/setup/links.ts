/**
 * Common links (常用链接, /setup/linklist): the group's links, inherited by every community, and a
 * community's own. A link is an internal page of the console (a path of the route tree) or an
 * external address that passes the spec's external-link test (http, https, mailto, tel); it opens
 * in the same tab or a new one and shows to the roles it names (none: everyone).
 * `get_common_links` answers the caller's (docs/product.md#setup-settings).
 */
import { z } from 'zod';
import { int, text, yn } from '../common.js';
import { createTimeColumn, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { ROLE_NAMES } from '../roles.js';
import { SETTINGS_ROLES } from './settings.js';
import { permissionCodes } from '../team/permissions.js';

export const LINK_KIND = valueEnum({ internal: { text: '系统页面', tone: 'processing' }, external: { text: '外部链接', tone: 'default' } });
export const LINK_TARGET = valueEnum({ self: { text: '当前页' }, blank: { text: '新窗口' } });
export const LINK_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
/** The icons a link may show (antd icon names). */
export const LINK_ICON = valueEnum({
  LinkOutlined: { text: '链接' },
  GlobalOutlined: { text: '网站' },
  FileTextOutlined: { text: '文档' },
  BookOutlined: { text: '手册' },
  ShopOutlined: { text: '商城' },
  ToolOutlined: { text: '工具' },
  PhoneOutlined: { text: '电话' },
  MailOutlined: { text: '邮件' },
});

/** The spec's external-link test (section 5). */
export const EXTERNAL_LINK_RE = /^(https?:|mailto:|tel:)/;
/** A path of the console: /setup/backlog, with a query allowed (/desktop/cashier?hid=1). */
export const INTERNAL_LINK_RE = /^\/[A-Za-z0-9_\-/]*(\?[^\s#]*)?$/;

/** The codes a link may be shown to: the console's permission codes (admin sees every link). */
const LINK_ROLE_CODES = new Set<string>([...permissionCodes('web'), ...ROLE_NAMES.filter((r) => r !== 'admin')]);
const linkRoles = z
  .array(text(40), { error: '可见角色应为权限编码列表' })
  .max(50)
  .refine((codes) => codes.every((c) => LINK_ROLE_CODES.has(c)), { message: '可见角色中有不存在的权限' })
  .transform((codes) => [...new Set(codes)])
  .optional()
  .default([]);

export interface LinkItem {
  id: number;
  title: string;
  kind: 'internal' | 'external';
  kind_ch: string;
  url: string;
  icon: string;
  icon_ch: string;
  target: 'self' | 'blank';
  target_ch: string;
  /** permission codes that see it; [] everyone */
  roles: string[];
  sort: number;
  status: 'Y' | 'N';
  status_ch: string;
  create_time: string;
}

const linkFields = {
  title: {
    label: '名称',
    zod: text(20).min(1, '请输入链接名称'),
    in: ['form', 'table', 'filter'],
    fixed: true,
    placeholder: '如 集团官网',
  },
  kind: {
    label: '类型',
    zod: z.enum(['internal', 'external'], { error: '类型取值不正确' }).default('external'),
    enum: LINK_KIND,
    widget: 'radio',
    in: ['form', 'table', 'filter'],
    width: 100,
  },
  url: {
    label: '链接地址',
    zod: text(500).min(1, '请输入链接地址或选择系统页面'),
    widget: 'custom',
    in: ['form', 'table'],
    help: '系统页面从菜单中选择；外部链接须以 http://、https://、mailto: 或 tel: 开头',
  },
  icon: {
    label: '图标',
    zod: z.enum(Object.keys(LINK_ICON) as [string, ...string[]], { error: '图标取值不正确' }).default('LinkOutlined'),
    enum: LINK_ICON,
    widget: 'select',
    in: ['form', 'table'],
    width: 90,
  },
  target: {
    label: '打开方式',
    zod: z.enum(['self', 'blank'], { error: '打开方式取值不正确' }).default('blank'),
    enum: LINK_TARGET,
    widget: 'radio',
    in: ['form', 'table'],
    width: 100,
  },
  roles: { label: '可见角色', zod: linkRoles, widget: 'custom', in: ['form', 'table'], help: '不选则所有人可见' },
  sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form', 'table'], width: 70, help: '数字小的在前' },
  status: { label: '状态', zod: yn.optional().default('Y'), enum: LINK_STATUS, in: ['form', 'table', 'filter'], width: 80 },
} as const;

const linkRules = [
  {
    check: (v: Record<string, unknown>) => v.kind !== 'external' || EXTERNAL_LINK_RE.test(String(v.url ?? '')),
    message: '外部链接须以 http://、https://、mailto: 或 tel: 开头',
    path: 'url',
  },
  {
    check: (v: Record<string, unknown>) => v.kind !== 'internal' || INTERNAL_LINK_RE.test(String(v.url ?? '')),
    message: '系统页面须为以 / 开头的页面地址，请从菜单中选择',
    path: 'url',
  },
];

/** A community's own links (common_links). */
export const link = resource<LinkItem>()({
  name: 'link',
  label: '常用链接',
  methods: { list: 'linklist', add: 'linkadd', edit: 'linkedit', del: 'linkdel' },
  roles: { read: SETTINGS_ROLES, write: SETTINGS_ROLES },
  fields: linkFields,
  rules: linkRules,
  columns: [createTimeColumn()],
});

/** The group's links (group_links), kept by the head office and inherited by every community. */
export const groupLink = resource<LinkItem>()({
  name: 'grouplink',
  label: '集团常用链接',
  owner: 'group',
  methods: { list: 'grouplinklist', add: 'grouplinkadd', edit: 'grouplinkedit', del: 'grouplinkdel' },
  // read on both sides (a community's page shows them, read only); written on the group side only (the handlers refuse a community's session)
  roles: { read: [...SETTINGS_ROLES, 'leader_admin'], write: ['leader_admin'] },
  fields: linkFields,
  rules: linkRules,
  columns: [createTimeColumn()],
});

export const linkMethods = { ...link.schemas, ...groupLink.schemas } as const;
export type LinkOutputs = ResourceOutputs<typeof link.def, LinkItem> & ResourceOutputs<typeof groupLink.def, LinkItem>;
