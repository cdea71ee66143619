/**
 * The members' card import (会员列表 导入; docs/product.md#member-card-list): cards from an old
 * system with their opening balances and points. Every row is checked first and any bad row
 * imports nothing; members are found by their mobile or added; a member holds one live card; each
 * card opens by the card form's rules (`openCard`) and its opening balance and points are opening
 * ledger rows (`moveBalance` 期初余额, `moveBonus` 期初导入), the only way they come in. The whole
 * write is one transaction: balances cannot be undone row by row.
 */
import {
  CARD_IMPORT_HEADERS,
  CARD_IMPORT_MAX_ROWS,
  CARD_ROLES,
  LIST_SEPARATORS,
  MAX_BILL_FEN,
  MEMBER_LEVEL,
  MONEY_RE,
  MOBILE_RE,
  cardNo,
  enumKeys,
  fenToYuan,
  memberCard,
  toFen,
  type CardImportResult,
  type ImportRowError,
  type MemberLevel,
} from '@wuye/contract';
import { defineImport, type ImportScope } from '../../jobs/imports.js';
import { today } from '../../lib/wire.js';
import type { SheetRow } from '../../lib/xlsxReader.js';
import { openCard } from './cards.js';
import { moveBalance, moveBonus } from './ledger.js';

const MAX_POINTS = 10_000_000;

interface PlannedCard {
  cardNo: string;
  templateId: number;
  realname: string;
  mobile: string;
  /** the member of that mobile; null: added with the card */
  memberId: number | null;
  level: MemberLevel;
  tags: string[];
  balanceFen: bigint;
  points: number;
}

/** What the rows are checked against: the community's cards, the numbers taken and the members of the mobiles. */
async function loadLookups(scope: ImportScope, rows: SheetRow[]) {
  const { db, rid } = scope;
  const column = (h: string) => [...new Set(rows.map((r) => (r.values[h] ?? '').trim()).filter(Boolean))];
  const [templates, taken, members] = await Promise.all([
    db
      .selectFrom('card_templates')
      .select(['id', 'name', 'status', 'validity', 'valid_end', 'supply_balance', 'supply_bonus'])
      .where('rid', '=', rid)
      .execute(),
    db
      .selectFrom('member_cards')
      .select('card_no')
      .where('rid', '=', rid)
      .where('card_no', 'in', ['', ...column('卡号')])
      .execute(),
    db
      .selectFrom('members as m')
      .leftJoin('member_cards as c', (j) =>
        j.onRef('c.rid', '=', 'm.rid').onRef('c.member_id', '=', 'm.id').on('c.status', 'in', ['I', 'Y', 'F']),
      )
      .select(['m.id', 'm.realname', 'm.mobile', 'c.card_no'])
      .where('m.rid', '=', rid)
      .where('m.mobile', 'in', ['', ...column('手机号')])
      .execute(),
  ]);
  return {
    templates: new Map(templates.map((t) => [t.name, t])),
    taken: new Set(taken.map((t) => t.card_no)),
    members: new Map(members.map((m) => [m.mobile, m])),
  };
}

/** 银卡会员, or 银卡 for short. */
function levelOf(text: string): MemberLevel | undefined {
  if (!text) return '普通会员';
  return enumKeys(MEMBER_LEVEL).find((k) => k === text || k === `${text}会员`);
}

async function checkRows(scope: ImportScope, rows: SheetRow[]): Promise<{ errors: ImportRowError[]; plan: PlannedCard[] }> {
  const look = await loadLookups(scope, rows);
  const day = today();
  const errors: ImportRowError[] = [];
  const plan: PlannedCard[] = [];
  const seenNo = new Map<string, number>();
  const seenMobile = new Map<string, number>();
  for (const r of rows) {
    const cell = (h: string) => (r.values[h] ?? '').trim();
    const bad = (column: string, reason: string) => errors.push({ row: r.rowNumber, column, reason });
    const before = errors.length;

    const no = cardNo.safeParse(cell('卡号'));
    if (!no.success) bad('卡号', '卡号应为 4 到 32 位字母、数字或 -');
    else if (look.taken.has(no.data)) bad('卡号', `卡号 ${no.data} 已存在`);
    else if (seenNo.has(no.data)) bad('卡号', `与第 ${seenNo.get(no.data)} 行的卡号重复`);
    else seenNo.set(no.data, r.rowNumber);

    const name = cell('会员卡');
    const template = look.templates.get(name);
    if (!name) bad('会员卡', '请填写会员卡名称');
    else if (!template) bad('会员卡', `会员卡“${name}”不存在`);
    else if (template.status !== 'Y') bad('会员卡', `会员卡“${name}”已停用，不能开卡`);
    else if (template.validity === 'range' && template.valid_end !== null && template.valid_end < day) {
      bad('会员卡', `会员卡“${name}”已过有效期，不能开卡`);
    }

    const realname = cell('姓名');
    if (realname.length < 1 || realname.length > 30) bad('姓名', '请填写姓名，最多 30 个字');
    const mobile = cell('手机号');
    const member = look.members.get(mobile);
    if (!MOBILE_RE.test(mobile)) bad('手机号', '手机号码格式不正确，应为11位手机号');
    else if (seenMobile.has(mobile)) bad('手机号', `与第 ${seenMobile.get(mobile)} 行的手机号重复：每位会员只能有一张在用的卡`);
    else if (member?.card_no) bad('手机号', `该会员已有会员卡（卡号 ${member.card_no}），不能重复开卡`);
    else if (member && realname && member.realname !== realname) bad('姓名', `手机号 ${mobile} 已登记为“${member.realname}”，姓名不一致`);
    if (MOBILE_RE.test(mobile) && !seenMobile.has(mobile)) seenMobile.set(mobile, r.rowNumber);

    const level = levelOf(cell('会员等级'));
    if (!level) bad('会员等级', `会员等级应为 ${enumKeys(MEMBER_LEVEL).join('、')}`);
    const tags = memberCard.def.fields.tags.zod.safeParse(
      cell('标签')
        .split(LIST_SEPARATORS)
        .filter((t) => t.trim()),
    );
    if (!tags.success) bad('标签', `标签最多 10 个，每个最多 10 个字，多个用顿号分隔`);

    const balance = cell('期初余额') || '0';
    const balanceOk = MONEY_RE.test(balance) && toFen(balance) <= MAX_BILL_FEN;
    if (!balanceOk) bad('期初余额', `期初余额应为 0 到 ${fenToYuan(MAX_BILL_FEN)} 的金额，最多两位小数`);
    else if (toFen(balance) > 0n && template && template.supply_balance !== 'Y')
      bad('期初余额', `会员卡“${name}”不支持储值，期初余额须为 0`);
    const points = cell('期初积分') || '0';
    const pointsOk = /^\d{1,8}$/.test(points) && Number(points) <= MAX_POINTS;
    if (!pointsOk) bad('期初积分', `期初积分应为 0 到 ${MAX_POINTS} 的整数`);
    else if (Number(points) > 0 && template && template.supply_bonus !== 'Y') bad('期初积分', `会员卡“${name}”不积分，期初积分须为 0`);

    if (errors.length > before) continue;
    plan.push({
      cardNo: no.data!,
      templateId: template!.id,
      realname,
      mobile,
      memberId: member?.id ?? null,
      level: level!,
      tags: tags.data!,
      balanceFen: toFen(balance),
      points: Number(points),
    });
  }
  return { errors, plan };
}

/** All cards, members and opening rows in one transaction: they stand or fall together. */
async function writeCards(scope: ImportScope, plan: PlannedCard[]): Promise<CardImportResult> {
  const { rid } = scope;
  const uploader = await scope.db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .where('id', '=', scope.job.created_by ?? 0)
    .executeTakeFirstOrThrow();
  const who = { accountId: uploader.id, name: uploader.name };
  await scope.batch(async (trx) => {
    for (const [i, p] of plan.entries()) {
      const card = await openCard(
        { db: trx, rid, session: who },
        {
          templateId: p.templateId,
          memberId: p.memberId,
          realname: p.realname,
          mobile: p.mobile,
          cardNo: p.cardNo,
          level: p.level,
          tags: p.tags,
          remark: '导入开卡',
        },
      );
      const orderid = `QC${card.card_no}`;
      await moveBalance(trx, {
        rid,
        memberId: card.member_id,
        fen: p.balanceFen,
        ioType: 1,
        feetype: 'opening',
        paytype: '',
        orderid,
        remark: '期初余额（导入）',
        createUser: who.name,
      });
      await moveBonus(trx, {
        rid,
        memberId: card.member_id,
        points: p.points,
        orderid,
        payCate: '期初导入',
        source: '后台',
        actionUser: who.name,
        remark: '期初积分（导入）',
      });
      if ((i + 1) % 50 === 0) await scope.step(i + 1, plan.length);
    }
  });
  return {
    cards: plan.length,
    members_added: plan.filter((p) => p.memberId === null).length,
    opening_balance: fenToYuan(plan.reduce((n, p) => n + p.balanceFen, 0n)),
    opening_points: plan.reduce((n, p) => n + p.points, 0),
    errors: [],
  };
}

export const cardImportMethods = defineImport<'cardusimport', 'cardusimporttemplate', PlannedCard[], CardImportResult>({
  kind: 'card_import',
  label: '会员卡',
  methods: { template: 'cardusimporttemplate', upload: 'cardusimport', errors: 'cardusimporterrors' },
  summaries: {
    template: '会员卡导入模板（.xlsx）：卡号、会员卡、姓名、手机号、会员等级、标签、期初余额、期初积分，含示例与填写说明',
    upload:
      '上传会员卡 Excel：检查表头后作为后台任务导入（返回 job_id）；会员按手机号查找或新增，每位会员只能有一张在用的卡；期初余额和期初积分记为期初流水；有错误行则全部不导入',
  },
  roles: CARD_ROLES.issue,
  readRoles: CARD_ROLES.issue,
  required: ['卡号', '会员卡', '姓名', '手机号'],
  maxRows: CARD_IMPORT_MAX_ROWS,
  maxErrors: 5000,
  template: async (ctx) => {
    const card = await ctx.db
      .selectFrom('card_templates')
      .select('name')
      .where('rid', '=', ctx.rid)
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirst();
    const name = card?.name ?? '会员卡';
    return {
      filename: '会员卡导入模板.xlsx',
      sheet: '会员卡',
      headers: CARD_IMPORT_HEADERS,
      widths: { 卡号: 16, 会员卡: 16, 手机号: 14, 标签: 16 },
      rows: [['VIP000123', name, '张三', '13900000000', '银卡会员', '业主、车主', '200.00', 500]],
      help: {
        sheet: '填写说明',
        lines: [
          ['卡号', '必填，4 到 32 位字母、数字或 -，不能与已有卡号重复'],
          ['会员卡', `必填，会员卡设置中启用的会员卡名称（如 ${name}）`],
          ['姓名', '必填，最多 30 个字；手机号已登记的会员须与登记的姓名一致'],
          ['手机号', '必填，11 位手机号；已登记的会员直接开卡，未登记的新增为会员；每位会员只能有一张在用的卡'],
          ['会员等级', '普通会员、银卡会员、金卡会员 或 钻石会员；不填为普通会员'],
          ['标签', '可不填；多个用顿号分隔，最多 10 个'],
          ['期初余额', '可不填（0）；原系统中的余额，记为期初余额流水；该会员卡须支持储值'],
          ['期初积分', '可不填（0）；整数，记为期初导入积分流水；该会员卡须积分'],
          ['注意', '任何一行有错误时整个文件都不导入，请下载错误报告按行修改后重新上传'],
        ],
      },
    };
  },
  check: checkRows,
  rejected: (errors) => ({ cards: 0, members_added: 0, opening_balance: '0.00', opening_points: 0, errors }),
  write: writeCards,
  raced: '导入过程中有相同卡号或手机号的会员卡被他人开卡，已全部撤销，请重新导入',
});
