/**
 * A contract's attachments (uploadimg, uploadimglist; docs/product.md#crm-contracts): scans and
 * photos uploaded through `imageupload` (docs/product.md#uploaded-images) and kept against the
 * contract with a category and a caption. A file of a contract in effect is deleted only by an
 * approver: what was signed stays on record.
 */
import { CONTRACT_READERS, CRM_ROLES, hasAnyRole, type ContractFileRow } from '@wuye/contract';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';

function fileQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('contract_files as f')
    .innerJoin('contracts as c', (j) => j.onRef('c.rid', '=', 'f.rid').onRef('c.id', '=', 'f.contract_id'))
    .leftJoin('accounts as a', 'a.id', 'f.created_by')
    .select([
      'f.id',
      'f.contract_id',
      'f.url',
      'f.name',
      'f.category',
      'f.caption',
      'f.size',
      'f.created_at',
      'c.contract_no',
      'c.name as contract_name',
    ])
    .select('a.name as uploader')
    .where('f.rid', '=', rid);
}
type FileRaw = Awaited<ReturnType<ReturnType<typeof fileQuery>['executeTakeFirstOrThrow']>>;

const toFileRow = (f: FileRaw): ContractFileRow => ({
  id: Number(f.id),
  contract_id: Number(f.contract_id),
  contract_no: f.contract_no,
  contract_name: f.contract_name,
  url: f.url,
  name: f.name,
  category: f.category,
  caption: f.caption,
  size: f.size,
  uploader: f.uploader ?? '',
  create_time: wireTime(f.created_at),
});

const contractfilelist = defineMethod('contractfilelist', {
  side: 'community',
  roles: CONTRACT_READERS,
  writes: false,
  summary: '合同附件列表（某合同的或全部）：文件、类别、说明、上传人、时间；筛选类别、关键字（合同编号、名称、文件名）',
  async handler(ctx, input) {
    let qb = fileQuery(ctx.db, ctx.rid);
    if (input.contract_id) qb = qb.where('f.contract_id', '=', input.contract_id);
    if (input.category) qb = qb.where('f.category', '=', input.category);
    if (input.keyword) {
      const k = likePattern(input.keyword);
      qb = qb.where(sql<SqlBool>`(c.contract_no LIKE ${k} OR c.name LIKE ${k} OR f.name LIKE ${k} OR f.caption LIKE ${k})`);
    }
    const page = await listPage(qb, input, 'f.id');
    return { total: page.total, items: page.items.map(toFileRow) };
  },
});

const contractfileadd = defineMethod('contractfileadd', {
  side: 'community',
  roles: CRM_ROLES.contracts,
  writes: true,
  summary: '登记合同附件：本小区上传的图片（imageupload 的地址）、文件名、类别（签字页、身份证、房产证、付款凭证、现场照片、其他）、说明',
  async handler(ctx, input) {
    const c = await ctx.db
      .selectFrom('contracts')
      .select(['id', 'status'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.contract_id)
      .executeTakeFirst();
    if (!c) return fail('合同不存在');
    if (c.status === 'V') fail('作废的合同不能上传附件');
    // the image must be one uploaded in this community, named by its id and its key
    const [, idText, key] = /^\/files\/(\d+)\/([0-9a-f]{32})\./.exec(input.url) ?? [];
    const image = await ctx.db
      .selectFrom('uploaded_images')
      .select(['id', 'key', 'size'])
      .where('id', '=', Number(idText))
      .where('rid', '=', ctx.rid)
      .executeTakeFirst();
    if (!image || image.key !== key) fail('图片不存在，请重新上传');
    const row = await ctx.db
      .insertInto('contract_files')
      .values({
        rid: ctx.rid,
        contract_id: input.contract_id,
        image_id: image.id,
        url: input.url,
        name: input.name,
        category: input.category,
        caption: input.caption,
        size: image.size,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply(toFileRow(await fileQuery(ctx.db, ctx.rid).where('f.id', '=', Number(row.id)).executeTakeFirstOrThrow()), '上传成功');
  },
});

/** Deleting a file of a contract past approval is an approver's (admin's) alone. */
async function refuseSigned(ctx: CommunityCtx, status: string): Promise<void> {
  if (status === 'D' || status === 'A') return;
  if (!hasAnyRole(ctx.session.roles, CRM_ROLES.contractAudit)) fail('合同生效后附件只能由审批人删除');
}

const contractfiledel = defineMethod('contractfiledel', {
  side: 'community',
  roles: CRM_ROLES.contracts,
  writes: true,
  summary: '删除合同附件（草稿、审批中的合同；生效后须有合同审批权限）',
  async handler(ctx, input) {
    const f = await ctx.db
      .selectFrom('contract_files as f')
      .innerJoin('contracts as c', (j) => j.onRef('c.rid', '=', 'f.rid').onRef('c.id', '=', 'f.contract_id'))
      .select(['f.id', 'c.status'])
      .where('f.rid', '=', ctx.rid)
      .where('f.id', '=', input.id)
      .executeTakeFirst();
    if (!f) return fail('附件不存在');
    await refuseSigned(ctx, f.status);
    await ctx.db.deleteFrom('contract_files').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '删除成功');
  },
});

export const fileMethods = [contractfilelist, contractfileadd, contractfiledel];
