import { sql, type Kysely } from 'kysely';
import { BACKLOG_KIND, type BacklogItem } from '@wuye/contract/system';
import type { ListAnswer } from '@wuye/contract/codes';
import { enumText } from '@wuye/contract/kit/resource';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import type { Given, Slots } from '../../db/compiled.js';
import { listTemplate } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
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
      items: { max_size_mb: 10, exts: ['jpg', 'jpeg', 'png', 'gif', 'xlsx', 'xls', 'pdf'], upload_url: '/upload' },
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
 * The to-do list: the top bar counts it on every page, so its statements are compiled once
 * (db/compiled.ts) and, filtered by equality alone, prepared and pipelined as light (db/prepared.ts).
 */
interface BacklogValues {
  rid: number;
  status?: 'E' | 'Y';
}
const backlogPage = listTemplate(
  'id',
  (db, p: Slots<BacklogValues>, given: Given<BacklogValues>) => {
    let qb = db
      .selectFrom('backlog')
      .select(['id', 'title', 'content', 'kind', 'link', 'status', 'created_at', 'done_at'])
      .where('rid', '=', p.rid);
    if (given.status) qb = qb.where('status', '=', p.status);
    return qb;
  },
  { prepare: 'light' },
);

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
  };
}

/** The latest pending to-dos, newest first, and how many are pending: the home page's panel (also in its first screen). */
export async function latestPendingBacklog(db: Kysely<DB>, rid: number, limit: number): Promise<ListAnswer<BacklogItem>> {
  const page = await backlogPage(db, { rid, status: 'E' }, { page: 1, limit, sort: 'desc' });
  return { total: page.total, items: page.items.map(toBacklogItem) };
}

const backlogList = defineMethod('backlog_list', {
  side: 'community',
  // the property company's accounts: merchants see no to-dos (spec 2.3)
  roles: 'staff',
  writes: false,
  board: true,
  summary:
    '待办事项（status E 待办、Y 已办；空为全部；kind 报修/退款/收费/投诉/其他，kind_ch 为其文字），data.total 为数量；商户账号不可用',
  async handler(ctx, input) {
    const page = await backlogPage(ctx.db, { rid: ctx.rid, status: input.status || undefined }, input);
    return { total: page.total, items: page.items.map(toBacklogItem) };
  },
});

const backlogDone = defineMethod('backlog_done', {
  side: 'community',
  roles: 'staff',
  writes: true,
  summary: '将一条待办标记为已办；商户账号不可用',
  async handler(ctx, input) {
    const res = await ctx.db
      .updateTable('backlog')
      .set({ status: 'Y', done_by: ctx.session.accountId, done_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .where('status', '=', 'E')
      .executeTakeFirst();
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
  backlogDone,
  ...operationLogMethods,
];
