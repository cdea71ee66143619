import { groupLink, link, type CommonLink } from '@wuye/contract';
import { sql } from 'kysely';
import { fail } from '../../http/errors.js';
import { defineMethod } from '../../http/registry.js';
import { defineResource, type GroupCtx } from '../../lib/resource.js';

/**
 * Common links (常用链接, /setup/linklist): a community's own (common_links) and the group's
 * (group_links), which the head office keeps on the group side and every community inherits.
 * get_common_links answers both, enabled ones only, filtered by the caller's codes.
 */

const withCreator = (input: Record<string, unknown>, ctx: GroupCtx, before?: Record<string, unknown>) =>
  before ? input : { ...input, created_by: ctx.session.accountId };

const byOrder = (prefix: '' | 't.') => [sql.ref(`${prefix}sort`)];

export const linkMethods = defineResource(link, {
  table: 'common_links',
  order: byOrder,
  values: withCreator,
  unique: [{ on: ['title'], message: (v) => `常用链接“${String(v.title)}”已存在` }],
  summaries: {
    list: '本小区的常用链接（名称、系统页面或外部地址、图标、打开方式、可见角色、排序、状态）',
    add: '新增本小区的常用链接（外部地址须以 http、https、mailto 或 tel 开头）',
  },
});

export const groupLinkMethods = defineResource(groupLink, {
  table: 'group_links',
  order: byOrder,
  values: withCreator,
  // the head office keeps them: a community's session (its admin holds every code) reads them only
  async check(ctx) {
    if (ctx.session.side !== 'group') fail('集团常用链接由集团总部维护，小区只能查看');
  },
  async beforeDelete(ctx) {
    if (ctx.session.side !== 'group') fail('集团常用链接由集团总部维护，小区只能查看');
  },
  unique: [{ on: ['title'], message: (v) => `集团常用链接“${String(v.title)}”已存在` }],
  summaries: {
    list: '集团的常用链接（各小区继承；集团总部维护，小区只读）',
    add: '新增集团常用链接（集团端）',
    edit: '修改集团常用链接（集团端）',
    del: '删除集团常用链接（集团端）',
  },
});

/** Whether a link shows to these codes: no roles named, admin, or one of them held. */
const seenBy = (codes: readonly string[]) => (row: { roles: string[] }) =>
  row.roles.length === 0 || codes.includes('admin') || row.roles.some((r) => codes.includes(r));

export const getCommonLinks = defineMethod('get_common_links', {
  side: 'community',
  roles: 'any',
  writes: false,
  summary: '常用链接（集团的在前，再是本小区的；只含启用的、调用者可见的）与集团官网地址',
  async handler(ctx) {
    const columns = ['id', 'title', 'url', 'kind', 'icon', 'target', 'roles'] as const;
    const [group, groupRows, ownRows] = await Promise.all([
      ctx.db.selectFrom('groups').select('website_url').where('id', '=', ctx.session.groupId).executeTakeFirstOrThrow(),
      ctx.db
        .selectFrom('group_links')
        .select(columns)
        .where('group_id', '=', ctx.session.groupId)
        .where('status', '=', 'Y')
        .orderBy('sort')
        .orderBy('id')
        .execute(),
      ctx.db
        .selectFrom('common_links')
        .select(columns)
        .where('rid', '=', ctx.rid)
        .where('status', '=', 'Y')
        .orderBy('sort')
        .orderBy('id')
        .execute(),
    ]);
    const seen = seenBy(ctx.session.roles);
    const shown =
      (scope: CommonLink['scope']) =>
      (r: (typeof ownRows)[number]): CommonLink => ({
        id: Number(r.id),
        title: r.title,
        url: r.url,
        kind: r.kind === 'internal' ? 'internal' : 'external',
        icon: r.icon,
        target: r.target === 'self' ? 'self' : 'blank',
        scope,
      });
    return {
      website_url: group.website_url,
      items: [...groupRows.filter(seen).map(shown('group')), ...ownRows.filter(seen).map(shown('community'))],
    };
  },
});
