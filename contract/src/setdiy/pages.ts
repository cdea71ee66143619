/**
 * DIY pages (/setdiy on the group side, issue 45 "Owner app layout and content"): the owner app's
 * home, service page, bottom bar, "mine" page and app page, each a versioned JSON of typed blocks.
 * The group keeps a template of each kind (rid null); a community may have its own page, copied from
 * the template (an override); a community without one shows the template. A page has at most one
 * draft and one published version; every publication is kept in its history, and a roll-back
 * publishes an older version's blocks as a new version. Gated by the account permission
 * `is_diyhome_auth` (contract/src/roles.ts PERMISSION_FLAGS).
 *
 * Links use the owner app's one link format (mobilesys/content.ts: APP_LINK_TYPE + linkProblem);
 * icon grids list services of the app's catalogue (mobilesys/apply.ts), and a block of a service
 * whose community module is closed is not shown to that community (APP_SERVICE_MODULE).
 */
import { z } from 'zod';
import { id, int, noControlChars, yn } from '../common.js';
import { imageUrl } from '../files.js';
import { enumSchema, valueEnum } from '../kit/resource.js';
import { APP_SERVICE_CODES, type AppServiceCode } from '../mobilesys/apply.js';
import { APP_LINK_TYPE, linkProblem, MENU_ICON } from '../mobilesys/content.js';
import { GROUP_LEADERS } from '../structure/resources.js';

/** Who edits the DIY pages: the group's head office holding the account permission below. */
export const SETDIY_ROLES = GROUP_LEADERS;
/** The account permission that opens /setdiy (accounts.permissions). */
export const SETDIY_FLAG = 'is_diyhome_auth';

/** The kinds of page, by their path under /setdiy. */
export const DIY_KIND = valueEnum({
  homeDIY: { text: '首页' },
  serviceDIY: { text: '服务页' },
  navbar: { text: '底部导航' },
  personalDIY: { text: '我的' },
  apply: { text: '应用页' },
});
export type DiyKind = keyof typeof DIY_KIND;
export const DIY_KINDS = Object.keys(DIY_KIND) as [DiyKind, ...DiyKind[]];

/** A page's state: nothing published yet, published, published with a newer draft. */
export const DIY_STATUS = valueEnum({
  N: { text: '未发布', tone: 'default' },
  P: { text: '已发布', tone: 'success' },
  M: { text: '有未发布修改', tone: 'warning' },
});
export type DiyStatus = keyof typeof DIY_STATUS;

/** A version: the draft, the published one, or one published before (history). */
export const DIY_VERSION_STATUS = valueEnum({
  D: { text: '草稿', tone: 'processing' },
  P: { text: '已发布', tone: 'success' },
  H: { text: '历史版本', tone: 'default' },
});
export type DiyVersionStatus = keyof typeof DIY_VERSION_STATUS;

export const DIY_BLOCK_TYPE = valueEnum({
  banner: { text: '轮播图' },
  grid: { text: '图标导航' },
  notices: { text: '社区公告' },
  articles: { text: '图文资讯' },
  activities: { text: '社区活动' },
  shortcut: { text: '快捷入口' },
  spacer: { text: '空白间隔' },
  tabbar: { text: '底部导航' },
});
export type DiyBlockType = keyof typeof DIY_BLOCK_TYPE;

/** The limits of a page, with the words of their refusals. */
export const DIY_LIMITS = { slides: 5, gridItems: 15, blocks: 30, tabsMin: 2, tabsMax: 5, listCount: 10 } as const;
/** The format of a page's JSON; a later change of the blocks' shape raises it. */
export const DIY_FORMAT = 1;

const linkFields = {
  link_type: enumSchema(APP_LINK_TYPE, '跳转类型').default('none'),
  target: noControlChars(z.string().trim().max(300, '跳转地址不能超过300个字符')).default(''),
};
/** The one link format: a target that fits its type, checked where the target is. */
function checkLink(v: { link_type: string; target: string }, ctx: z.RefinementCtx): void {
  const problem = linkProblem(v.link_type, v.target);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['target'] });
}

const count = z
  .number({ error: '显示条数应为整数' })
  .int('显示条数应为整数')
  .min(1, '显示条数至少为1')
  .max(DIY_LIMITS.listCount, `显示条数不能超过${DIY_LIMITS.listCount}`);
const blockTitle = noControlChars(z.string().trim().max(12, '模块标题不能超过12个字')).default('');
const iconKey = z.enum(Object.keys(MENU_ICON) as [string, ...string[]], { error: '图标取值不正确' });

export const diySlide = z.object({ image: imageUrl, ...linkFields }).superRefine(checkLink);
export const diyGridItem = z.object({
  service: z.enum(APP_SERVICE_CODES, { error: '应用不存在' }),
  /** '' keeps the catalogue's name */
  title: noControlChars(z.string().trim().max(6, '图标名称不能超过6个字')).default(''),
  /** '' keeps the service's icon (APP_SERVICE_ICON) */
  icon: z.union([z.literal(''), iconKey]).default(''),
});
export const diyTab = z
  .object({
    title: noControlChars(z.string().trim().min(1, '请输入导航名称').max(4, '导航名称不能超过4个字')),
    icon: iconKey,
    ...linkFields,
  })
  .superRefine(checkLink);

export const diyBlock = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('banner'),
      slides: z.array(diySlide).min(1, '轮播图至少需要1张图片').max(DIY_LIMITS.slides, `轮播图最多${DIY_LIMITS.slides}张`),
    }),
    z.object({
      type: z.literal('grid'),
      columns: z.union([z.literal(4), z.literal(5)], { error: '每行个数应为4或5' }).default(4),
      items: z
        .array(diyGridItem)
        .min(1, '图标导航至少需要1个应用')
        .max(DIY_LIMITS.gridItems, `图标导航最多${DIY_LIMITS.gridItems}个应用`)
        .refine((items) => new Set(items.map((i) => i.service)).size === items.length, { message: '图标导航中的应用不能重复' }),
    }),
    z.object({ type: z.literal('notices'), title: blockTitle, count: count.default(3) }),
    z.object({ type: z.literal('articles'), title: blockTitle, count: count.default(3) }),
    z.object({ type: z.literal('activities'), title: blockTitle, count: count.default(2) }),
    z.object({
      type: z.literal('shortcut'),
      image: imageUrl,
      title: noControlChars(z.string().trim().min(1, '请输入快捷入口标题').max(20, '快捷入口标题不能超过20个字')),
      ...linkFields,
    }),
    z.object({
      type: z.literal('spacer'),
      height: z.number({ error: '高度应为整数' }).int('高度应为整数').min(4, '高度至少4像素').max(100, '高度不能超过100像素'),
    }),
    z.object({
      type: z.literal('tabbar'),
      tabs: z
        .array(diyTab)
        .min(DIY_LIMITS.tabsMin, `底部导航至少需要${DIY_LIMITS.tabsMin}个菜单`)
        .max(DIY_LIMITS.tabsMax, `底部导航最多${DIY_LIMITS.tabsMax}个菜单`),
    }),
  ],
  { error: '模块类型不正确' },
);
export type DiyBlock = z.output<typeof diyBlock>;
export type DiyBlockInput = z.input<typeof diyBlock>;

/** A shortcut's link, checked as the others (a discriminated union's member cannot carry a refinement). */
function shortcutLinkIssue(b: DiyBlock): string | null {
  return b.type === 'shortcut' ? linkProblem(b.link_type, b.target) : null;
}

/** Why a page of `kind` may not hold these blocks (the bottom bar is one tabbar block, other pages hold none). */
export function pageProblems(kind: DiyKind, blocks: DiyBlock[]): Array<{ message: string; path: (string | number)[] }> {
  const out: Array<{ message: string; path: (string | number)[] }> = [];
  if (kind === 'navbar') {
    if (blocks.length !== 1 || blocks[0]!.type !== 'tabbar') out.push({ message: '底部导航页面只能包含一个“底部导航”模块', path: [] });
  } else {
    blocks.forEach((b, i) => {
      if (b.type === 'tabbar') out.push({ message: '底部导航只能在“底部导航”页面中设置', path: [i, 'type'] });
    });
  }
  blocks.forEach((b, i) => {
    const problem = shortcutLinkIssue(b);
    if (problem) out.push({ message: problem, path: [i, 'target'] });
  });
  return out;
}

const blocks = z.array(diyBlock).max(DIY_LIMITS.blocks, `页面最多${DIY_LIMITS.blocks}个模块`);
const kind = enumSchema(DIY_KIND, '页面类型');
/** The scope: null or '' the group template, else a community of the group. */
const scope = z
  .union([z.literal(''), z.null(), id])
  .optional()
  .transform((v) => (v === '' || v === null || v === undefined ? null : v));

export const setdiySchemas = {
  /** pages by kind and scope (template: 'template', a community: its id; '' all), with the group's communities */
  diypagelist: z.object({
    kind: z
      .union([z.literal(''), kind])
      .optional()
      .default(''),
    rid: z
      .union([z.literal(''), z.literal('template'), id])
      .optional()
      .default(''),
  }),
  /** the page of a kind in a scope: its draft, its published version and its versions */
  diypageinfo: z.object({ kind, rid: scope }),
  /** saves the draft: a new draft version, or the current draft updated */
  diypagesave: z.object({ kind, rid: scope, blocks }).superRefine((v, ctx) => {
    for (const p of pageProblems(v.kind, v.blocks)) ctx.addIssue({ code: 'custom', message: p.message, path: ['blocks', ...p.path] });
  }),
  /** publishes the draft; the published version before is kept in the history */
  diypagepublish: z.object({ kind, rid: scope }),
  /** publishes an older version's blocks as a new version */
  diypagerollback: z.object({ kind, rid: scope, version: int(1, 1_000_000) }),
  /** copies the template (from_rid null) or a community's page to communities (their own pages) */
  diypagecopy: z.object({
    kind,
    from_rid: scope,
    to_rids: z.array(id).min(1, '请选择目标小区').max(500, '一次最多复制到500个小区'),
    /** Y: published at once; N: kept as each community's draft */
    publish: yn.optional().default('N'),
  }),
  /** removes a community's own page: it shows the template again */
  diypagedel: z.object({ kind, rid: id }),
  /** the page as an owner of the community sees it (no rid: the template, no community's data) */
  diypagepreview: z.object({
    kind,
    rid: scope,
    /** a version of the page; none: the published one (or the draft when draft is Y) */
    version: z.union([z.literal(''), z.null(), int(1, 1_000_000)]).optional(),
    draft: yn.optional().default('N'),
  }),
} as const;

export interface DiyPageItem {
  /** null: the template of a kind not created yet */
  id: number | null;
  kind: DiyKind;
  kind_ch: string;
  rid: number | null;
  /** 集团模板 or the community's name */
  scope_ch: string;
  status: DiyStatus;
  status_ch: string;
  /** the published version (0: none) */
  version: number;
  /** the draft's version (0: none) */
  draft_version: number;
  updated_by: string;
  update_time: string;
}

export interface DiyVersion {
  version: number;
  status: DiyVersionStatus;
  status_ch: string;
  blocks: DiyBlock[];
  block_count: number;
  updated_by: string;
  update_time: string;
  published_by: string;
  publish_time: string;
  /** 回滚自版本3, 复制自集团模板 … */
  note: string;
}
export type DiyVersionItem = Omit<DiyVersion, 'blocks'>;

export interface DiyPageInfo {
  kind: DiyKind;
  kind_ch: string;
  rid: number | null;
  scope_ch: string;
  /** the scope has a page of its own (a community without one shows the template) */
  exists: boolean;
  /** a community without a page of its own: draft and published are the template's */
  inherits: boolean;
  status: DiyStatus;
  status_ch: string;
  draft: DiyVersion | null;
  published: DiyVersion | null;
  versions: DiyVersionItem[];
}

export interface DiyPreviewItem {
  id: number;
  title: string;
  cover: string;
  date: string;
  /** an article of the group's head office for the community (/mobile/graphiclist), beside the community's own */
  source?: 'group';
}
/** A block as the owner sees it: grid items with their names and icons, lists with the community's latest items. */
export type DiyPreviewBlock =
  | (Extract<DiyBlock, { type: 'grid' }> & { items: Array<{ service: AppServiceCode; title: string; icon: string }> })
  | (Extract<DiyBlock, { type: 'notices' | 'articles' | 'activities' }> & { list: DiyPreviewItem[] })
  | Exclude<DiyBlock, { type: 'grid' | 'notices' | 'articles' | 'activities' }>;

export interface DiyPreview {
  kind: DiyKind;
  rid: number | null;
  scope_ch: string;
  /** whose page it is: the template or the community's own */
  source: 'template' | 'community';
  version: number;
  version_status: DiyVersionStatus;
  blocks: DiyPreviewBlock[];
  /** what the community does not see, and why */
  hidden: string[];
  warnings: string[];
}

export interface SetdiyOutputs {
  diypagelist: { items: DiyPageItem[]; regions: Array<{ rid: number; title: string }> };
  diypageinfo: DiyPageInfo;
  diypagesave: { kind: DiyKind; rid: number | null; version: number };
  diypagepublish: { kind: DiyKind; rid: number | null; version: number };
  diypagerollback: { kind: DiyKind; rid: number | null; version: number };
  diypagecopy: { copied: number };
  diypagedel: { kind: DiyKind; rid: number };
  diypagepreview: DiyPreview;
}
