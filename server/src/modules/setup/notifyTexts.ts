/**
 * What each event's message says (docs/product.md#notifications): one builder per event, used where
 * the event happens and by the demo seed, so the two never read differently. `content` is the
 * owner's or the visitor's text (their SMS); `staffContent` the staff's (inbox and SMS).
 */
import { COMPLAINT_KIND, PASS_EARLY_MINUTES, complaintNo, enumText, type ComplaintKind, type NotifyEvent } from '@wuye/contract';
import { wireTime } from '../../lib/wire.js';
import type { NotifyMessage } from './notify.js';

export type NotifyText = Pick<NotifyMessage, 'title' | 'content' | 'staffContent'>;

const short = (s: string) => s.slice(0, 60);
const minute = (at: Date) => wireTime(at).slice(5, 16);

/** a complaint's contact for staff: withheld when the complainant asked to stay anonymous */
const contactOf = (c: { contact: string; phone: string; anonymous: boolean }) => (c.anonymous ? '匿名' : `${c.contact} ${c.phone}`);

export interface ComplaintFacts {
  id: number;
  kind: ComplaintKind;
  /** the category's name */
  category: string;
  content: string;
  contact: string;
  phone: string;
  anonymous: boolean;
}

/** a complaint's number and its kind's word (投诉, 建议, 咨询) */
const complaintOf = (c: { id: number; kind: ComplaintKind }) => ({ no: complaintNo(c.id), kind: enumText(COMPLAINT_KIND, c.kind) });

export const notifyText = {
  repair_submit: (t: { no: string; type: string; content: string; reporter: string; phone: string }) => ({
    title: `新报修待派单：${t.no}`,
    content: `您的报修（${t.type}，工单号 ${t.no}）已受理，我们将尽快安排师傅处理。`,
    staffContent: `${t.type}：${short(t.content)}（报修人 ${t.reporter} ${t.phone}）`,
  }),
  repair_dispatch: (t: { no: string; handler: string; content: string; reporter: string; phone: string }) => ({
    title: `报修派单：${t.no}`,
    content: `您的报修（工单号 ${t.no}）已派给 ${t.handler} 处理，请保持电话畅通。`,
    staffContent: `${short(t.content)}（报修人 ${t.reporter} ${t.phone}），请及时接单`,
  }),
  repair_finish: (t: { no: string; by: string; note: string; fee: string | null }) => ({
    title: `报修完工：${t.no}`,
    content: t.fee
      ? `您的报修（工单号 ${t.no}）已完工，维修费 ${t.fee} 元待缴，请在缴费后评价本次服务。`
      : `您的报修（工单号 ${t.no}）已完工，请评价本次服务。`,
    staffContent: `${t.no} 已由 ${t.by} 完工：${short(t.note)}`,
  }),
  pay_success: (p: { address: string | null; amount: string; receipt: string; payer: string | null }) => ({
    title: `缴费成功：${p.address ? `${p.address} ` : ''}${p.amount} 元`,
    content: `您已成功缴纳${p.address ? ` ${p.address} 的` : ''}费用 ${p.amount} 元，收据号 ${p.receipt}，感谢您的支持。`,
    staffContent: `${p.payer ?? ''}${p.address ? ` ${p.address} ` : ' '}缴费 ${p.amount} 元，收据号 ${p.receipt}`,
  }),
  visitor_pass: (v: { visitor: string; owner: string | null; region: string; visitTime: Date; passCode: string }) => ({
    title: `访客通行码：${v.visitor}`,
    content: `${v.owner ? `业主${v.owner}` : '业主'}邀请您于 ${minute(v.visitTime)} 到访${v.region}，通行码 ${v.passCode}，来访前${PASS_EARLY_MINUTES}分钟起可用。`,
  }),
  /** `gate`: the pass device's name, where known */
  visitor_arrive: (v: { visitor: string; at: Date; gate: string | null }) => ({
    title: `访客到访：${v.visitor}`,
    content: `您的访客 ${v.visitor} 已于 ${minute(v.at)} ${v.gate ? `经${v.gate}` : ''}进入小区。`,
  }),
  complaint_submit: (c: ComplaintFacts) => {
    const { no, kind } = complaintOf(c);
    return {
      title: `新${kind}待受理：${no} ${c.category}`,
      content: `您的${kind}（编号 ${no}）已登记，我们将尽快受理并与您联系。`,
      staffContent: `${c.category}：${short(c.content)}（${contactOf(c)}）`,
    };
  },
  complaint_accept: (c: ComplaintFacts & { handler: string }) => {
    const { no, kind } = complaintOf(c);
    return {
      title: `${kind}已指派：${no} ${c.category}`,
      content: `您的${kind}（编号 ${no}）已受理，由 ${c.handler} 负责处理。`,
      staffContent: `${c.category}：${short(c.content)}（${contactOf(c)}），请及时处理`,
    };
  },
  complaint_reply: (c: { id: number; kind: ComplaintKind; reply: string }) => {
    const { no, kind } = complaintOf(c);
    return { title: `${kind}回复：${no}`, content: `关于您的${kind}（编号 ${no}）：${c.reply.slice(0, 200)}` };
  },
  complaint_finish: (c: { id: number; kind: ComplaintKind; by: string; note: string }) => {
    const { no, kind } = complaintOf(c);
    return {
      title: `${kind}办结：${no}`,
      content: `您的${kind}（编号 ${no}）已办结：${short(c.note)}。欢迎对本次处理进行评价。`,
      staffContent: `${no} 已由 ${c.by} 办结：${short(c.note)}`,
    };
  },
  contract_expiring: (c: { no: string; name: string; party: string; mobile: string; endDate: string; daysLeft: number }) => ({
    title: `合同即将到期：${c.no}`,
    content: `您的合同《${c.name}》（编号 ${c.no}）将于 ${c.endDate} 到期，如需续签请联系物业服务中心。`,
    staffContent: `${c.name}（乙方 ${c.party}${c.mobile ? ` ${c.mobile}` : ''}）将于 ${c.endDate} 到期，还有 ${c.daysLeft} 天`,
  }),
  lease_expiring: (l: { no: string; tenant: string; mobile: string; rooms: string; endDate: string; daysLeft: number }) => ({
    title: `租约即将到期：${l.no}`,
    content: `您租用的${l.rooms}（租约 ${l.no}）将于 ${l.endDate} 到期，如需续租请联系物业服务中心。`,
    staffContent: `${l.rooms} 的租约（租户 ${l.tenant}${l.mobile ? ` ${l.mobile}` : ''}）将于 ${l.endDate} 到期，还有 ${l.daysLeft} 天，请办理续租或退租`,
  }),
  /** a batch of bills: the fee staff read its sum; each room's owner (`room`) what their room owes of it */
  bill_generated: (b: {
    period: string;
    items: string;
    count: number;
    total: string;
    room?: { address: string; amount: string; due: string };
  }) => ({
    title: `账单已生成：${b.period} ${b.items}`.slice(0, 100),
    content: b.room
      ? `您的${b.room.address} ${b.period} ${b.items}账单已生成，金额 ${b.room.amount} 元，请于 ${b.room.due} 前缴纳。`
      : `${b.period} ${b.items}账单已生成。`,
    staffContent: `${b.period} ${b.items}账单已生成 ${b.count} 张，合计 ${b.total} 元`,
  }),
  /** a room's bills went overdue: what the room owes now (the one arrears computation, late fees in) */
  bill_overdue: (r: { address: string; count: number; amount: string }) => ({
    title: `欠费提醒：${r.address}`,
    content: `您的${r.address}有账单已逾期，目前欠费 ${r.amount} 元（${r.count} 张账单，含滞纳金），请尽快缴纳。`,
  }),
} satisfies Record<NotifyEvent, (facts: never) => NotifyText>;
