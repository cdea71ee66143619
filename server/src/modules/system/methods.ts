import { sql, type Kysely } from 'kysely';
import { IMAGE_MAX_BYTES } from '@wuye/contract';
import { BACKLOG_KIND, type BacklogItem } from '@wuye/contract/system';
import type { ListAnswer } from '@wuye/contract/codes';
import { enumText } from '@wuye/contract/kit/resource';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type Session } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { backlogScopeOf, backlogScopeSql } from '../setup/backlog.js';
import { givenOf, type Given, type Slots } from '../../db/compiled.js';
import { listTemplate } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { imageMethods } from './images.js';
import { systemInfoOf } from './info.js';
import { operationLogMethods } from './operationlog.js';
import { saveSysSettings } from '../setup/setsys.js';

const getSystemInfo = defineMethod('get_system_info', {
  side: 'both',
  roles: 'any',
  writes: false,
  allowExpired: true,
  board: true,
  summary: '系统信息：小区名、标题、logo、到期日、剩余天数、续费单价、应用下载地址、平面图、版权',
  async handler(ctx) {
    const items = await systemInfoOf(ctx.db, ctx.config, ctx.session);
    return { end_time: items.end_time, items };
  },
});

const getSystemExtendinfo = defineMethod('get_system_extendinfo', {
  side: 'both',
  roles: 'any',
  writes: false,
  summary: '扩展信息：地图服务密钥（也可 POST /get_system_extendinfo）',
  async handler(ctx) {
    return { data: { items: { map_key: ctx.config.mapKey, map_provider: 'amap' } } };
  },
});

const setsysinfo = defineMethod('setsysinfo', {
  side: 'community',
  roles: ['admin', 'setup'],
  writes: true,
  summary: '设置本小区的系统信息（品牌、小区资料、客户端下载、帮助），改了什么（原值 → 新值）记入操作日志',
  async handler(ctx, input) {
    const message = await saveSysSettings(ctx, input);
    return reply({ items: await systemInfoOf(ctx.db, ctx.config, ctx.session) }, message);
  },
});

const getFileSet = defineMethod('get_file_set', {
  side: 'both',
  roles: 'any',
  writes: false,
  summary: '文件上传设置：存储方式、大小上限、允许的扩展名',
  async handler() {
    return {
      type: 'local' as const,
      items: {
        max_size_mb: 10,
        exts: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'xlsx'],
        upload_url: '/webapi',
        image_method: 'imageupload' as const,
        image_max_mb: IMAGE_MAX_BYTES / 1024 / 1024,
      },
    };
  },
});

const getResourcesList = defineMethod('get_resources_list', {
  side: 'both',
  roles: 'any',
  writes: false,
  summary: '资料下载：集团提供的手册、模板、应用安装包',
  async handler(ctx) {
    const items = await ctx.db
      .selectFrom('resources')
      .select(['id', 'title', 'url', 'kind', 'remark'])
      .where('group_id', '=', ctx.session.groupId)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return { items, total: items.length };
  },
});

/**
 * The to-do list (docs/product.md#to-do-list): the top bar counts it on every page, so its statements are compiled once
 * (db/compiled.ts) and, filtered by equality alone, prepared and pipelined as light (db/prepared.ts).
 * An account sees the items its codes may handle (setup/backlog.ts: each area's registration names them); an
 * administrator sees all.
 */
interface BacklogValues {
  rid: number;
  status?: 'E' | 'Y';
  kind?: string;
  /** the session's codes and account; absent for an administrator */
  codes?: string[];
  account?: number;
}
const backlogQuery = (db: Kysely<DB>, p: Slots<BacklogValues>, given: Given<BacklogValues>) => {
  let qb = db
    .selectFrom('backlog')
    .select(['id', 'title', 'content', 'kind', 'link', 'status', 'created_at', 'done_at', 'source_id', 'submitter_name', 'deadline'])
    .where('rid', '=', p.rid);
  if (given.status) qb = qb.where('status', '=', p.status);
  if (given.kind) qb = qb.where('kind', '=', p.kind);
  if (given.codes) qb = qb.where(sql<boolean>`(cardinality(roles) = 0 OR roles && ${p.codes}::text[])`);
  if (given.account) qb = qb.where(sql<boolean>`(account_id IS NULL OR account_id = ${p.account})`);
  return qb;
};
const backlogPage = listTemplate('id', backlogQuery, { prepare: 'light' });

type BacklogRow = Awaited<ReturnType<typeof backlogPage>>['items'][number];

function toBacklogItem(b: BacklogRow): BacklogItem {
  return {
    id: b.id,
    title: b.title,
    content: b.content,
    kind: b.kind,
    kind_ch: enumText(BACKLOG_KIND, b.kind),
    link: b.link,
    status: b.status,
    create_time: wireTime(b.created_at),
    done_time: wireTime(b.done_at),
    source_id: b.source_id,
    submitter_name: b.submitter_name,
    deadline: wireTime(b.deadline),
    overdue: b.status === 'E' && b.deadline !== null && b.deadline.getTime() < Date.now(),
  };
}

/** The filters of a to-do list call: the session's community, and its codes unless it is an administrator. */
function backlogValues(rid: number, session: Session, input: { status: '' | 'E' | 'Y'; kind: string }): BacklogValues {
  const scope = backlogScopeOf(session);
  return { rid, status: input.status || undefined, kind: input.kind || undefined, ...(scope ?? {}) };
}

/** The latest pending to-dos the session may handle, newest first, and how many: the home page's panel (also in its first screen). */
export async function latestPendingBacklog(db: Kysely<DB>, rid: number, session: Session, limit: number): Promise<ListAnswer<BacklogItem>> {
  const page = await backlogPage(db, backlogValues(rid, session, { status: 'E', kind: '' }), { page: 1, limit, sort: 'desc' });
  return { total: page.total, items: page.items.map(toBacklogItem) };
}

const backlogList = defineMethod('backlog_list', {
  side: 'community',
  // the property company's accounts: merchants see no to-dos (spec 2.3)
  roles: 'staff',
  writes: false,
  board: true,
  summary:
    '待办事项：当前账号有权处理的事项（status E 待办、Y 已办；空为全部；kind 按类型筛选，kind_ch 为其文字；含来源单号、提交人、截止时间与是否超时），data.total 为数量；商户账号不可用',
  async handler(ctx, input) {
    const page = await backlogPage(ctx.db, backlogValues(ctx.rid, ctx.session, input), input);
    return { total: page.total, items: page.items.map(toBacklogItem) };
  },
});

const backlogexport = defineExport('backlogexport', {
  roles: 'staff',
  summary:
    '按待办列表的筛选条件导出 Excel：类型、标题、内容、来源单号、提交人、创建时间、截止时间、状态（当前账号有权处理的事项，最多 10 万行）',
  filename: () => `待办事项_${today()}.xlsx`,
  // the job runs without the session: the check runs in the call, with its ctx, and writes the
  // session's codes into the input the job is queued with (the schema strips any a caller sends)
  async check(scope, input) {
    const who = backlogScopeOf((scope as CommunityCtx).session);
    if (who) Object.assign(input, who);
    const values = backlogFilterOf(scope.rid, input);
    await refuseOversizedExport(scope.db, backlogQuery(scope.db, values as Slots<BacklogValues>, givenOf(values)));
  },
  async sheet(scope, input) {
    const values = backlogFilterOf(scope.rid, input);
    const rows = (
      await backlogQuery(scope.db, values as Slots<BacklogValues>, givenOf(values))
        .orderBy('id', 'desc')
        .limit(EXPORT_MAX)
        .execute()
    ).map((r) => toBacklogItem(r as BacklogRow));
    return sheetOf(
      '待办事项',
      [
        { header: 'ID', value: (r: BacklogItem) => r.id, width: 8 },
        { header: '类型', value: (r) => r.kind_ch },
        { header: '标题', value: (r) => r.title, width: 36 },
        { header: '内容', value: (r) => r.content, width: 36 },
        { header: '来源单号', value: (r) => r.source_id },
        { header: '提交人', value: (r) => r.submitter_name },
        { header: '创建时间', value: (r) => r.create_time, width: 20 },
        { header: '截止时间', value: (r) => r.deadline, width: 20 },
        { header: '状态', value: (r) => (r.status === 'Y' ? '已办' : r.overdue ? '已超时' : '待办') },
        { header: '处理时间', value: (r) => r.done_time, width: 20 },
      ],
      rows,
    );
  },
});

/** An export's filters as the list's: the codes travel in the payload the call wrote (backlogExportInput). */
function backlogFilterOf(rid: number, input: { status: '' | 'E' | 'Y'; kind: string; codes?: string[]; account?: number }): BacklogValues {
  return {
    rid,
    status: input.status || undefined,
    kind: input.kind || undefined,
    ...(input.codes ? { codes: input.codes } : {}),
    ...(input.account ? { account: input.account } : {}),
  };
}

const backlogDone = defineMethod('backlog_done', {
  side: 'community',
  roles: 'staff',
  writes: true,
  summary: '将一条待办标记为已办（当前账号有权处理的事项）；商户账号不可用',
  async handler(ctx, input) {
    const scope = backlogScopeOf(ctx.session);
    let q = ctx.db
      .updateTable('backlog')
      .set({ status: 'Y', done_by: ctx.session.accountId, done_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .where('status', '=', 'E');
    if (scope) q = q.where(backlogScopeSql(scope));
    const res = await q.executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) fail('待办不存在或已处理');
    return reply(null, '已处理');
  },
});

export const systemModule = [
  getSystemInfo,
  getSystemExtendinfo,
  setsysinfo,
  getFileSet,
  getResourcesList,
  backlogList,
  backlogexport,
  backlogDone,
  ...operationLogMethods,
  ...imageMethods,
];
