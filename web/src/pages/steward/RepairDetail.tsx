import { Button, Descriptions, Divider, Drawer, Empty, Grid, Rate, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { WorkflowLogItem } from '@wuye/contract/kit/workflow';
import { REPAIR_STATUS, type RepairDetail as Detail } from '@wuye/contract/steward/repairs';
import { complaintNo } from '@wuye/contract/steward/complaints';
import { Link } from 'react-router';
import { request } from '../../api/client';
import { PhotoGallery } from '../../components/PhotosInput';
import { EnumTag } from '../../components/resource';
import RepairActions from './RepairActions';

/** One step of the timeline: who, the state it moved to, when it started and ended, how long, the note. */
export interface TimelineStep {
  who: string;
  step: string;
  state: string;
  start: string;
  end: string;
  duration: string;
  note: string;
}

const parse = (wire: string) => new Date(`${wire.replace(' ', 'T')}+08:00`).getTime();

/** 2天3小时, 5小时12分, 8分 */
export function durationText(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const min = m % 60;
  if (d) return `${d}天${h}小时`;
  if (h) return `${h}小时${min}分`;
  return `${min}分`;
}

const NOTE_KEYS = ['note', 'reason', 'text', 'receipt_no', 'handler'] as const;

/** The log as the timeline shows it: each step lasts until the next one (the last until now, while open). */
export function timelineSteps(log: WorkflowLogItem[], open: boolean, now = Date.now()): TimelineStep[] {
  return log.map((l, i) => {
    const next = log[i + 1];
    const startMs = parse(l.create_time);
    const endMs = next ? parse(next.create_time) : open ? now : startMs;
    const notes = NOTE_KEYS.map((k) => {
      const v = l.input[k];
      if (v === undefined || v === '' || v === null) return '';
      return k === 'receipt_no' ? `收据 ${String(v)}` : k === 'handler' ? `处理人 ${String(v)}` : String(v);
    }).filter(Boolean);
    if (l.transition === 'pause' && l.input.resume_date) notes.push(`预计 ${String(l.input.resume_date)} 恢复`);
    if (l.transition === 'rate') notes.unshift(`综合 ${String(l.input.overall)} 分`);
    if (l.transition === 'visit') notes.unshift(l.input.satisfied === 'Y' ? '满意' : '不满意');
    return {
      who: l.operator,
      step: l.transition_ch,
      state: l.to_state_ch,
      start: l.create_time,
      end: next ? next.create_time : '',
      duration: next || open ? durationText(endMs - startMs) : '',
      note: notes.join('；'),
    };
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of its own with the ticket and its timeline, for printing (派工单). */
export function printRepair(t: Detail, steps: TimelineStep[]): void {
  const w = window.open('', '_blank');
  if (!w) return;
  const row = (k: string, v: string) => `<tr><th>${k}</th><td>${escapeHtml(v)}</td></tr>`;
  const fee = t.fee_lines.map((l) => `${escapeHtml(l.name)} ${escapeHtml(l.amount)} 元`).join('；');
  w.document.write(`<!doctype html><html><head><meta charset="utf-8"><title>报修工单 ${escapeHtml(t.no)}</title><style>
    body{font-family:sans-serif;margin:16px} h1{font-size:18px;text-align:center}
    table{border-collapse:collapse;width:100%;font-size:13px;margin-bottom:12px} th,td{border:1px solid #333;padding:5px;text-align:left}
    th{width:110px;background:#f3f3f3} .sign{margin-top:32px;display:flex;justify-content:space-between} @page{size:A4;margin:12mm}
  </style></head><body><h1>报修工单</h1><table>
    ${row('工单号', t.no)}${row('状态', t.status_ch)}${row('报修类型', t.type_title)}${row('来源', t.source_ch)}
    ${row('位置', t.location)}${row('报修人', `${t.reporter} ${t.phone}`)}${row('预约时间', t.appointment_time || '—')}
    ${row('报修内容', t.content)}${row('处理人', t.handler_name || '—')}${row('完成时限', t.finish_by)}
    ${row('处理说明', t.finish_note || '')}${row('用料', t.materials || '')}${row('费用', fee ? `${fee}；合计 ${t.fee_total} 元` : '')}
  </table><table><tr><th>操作人</th><th>步骤</th><th>状态</th><th>开始</th><th>结束</th><th>耗时</th><th>说明</th></tr>
    ${steps
      .map(
        (s) =>
          `<tr><td>${escapeHtml(s.who)}</td><td>${escapeHtml(s.step)}</td><td>${escapeHtml(s.state)}</td><td>${s.start}</td><td>${s.end}</td><td>${s.duration}</td><td>${escapeHtml(s.note)}</td></tr>`,
      )
      .join('')}
  </table><div class="sign"><span>维修师傅签字：</span><span>业主签字：</span><span>日期：</span></div></body></html>`);
  w.document.close();
  w.focus();
  w.print();
}

/** The ticket's detail (docs/product.md#repairs): what was reported, photos, the work, fees, ratings, the follow-up, the timeline. */
export default function RepairDetail({ id, onClose, onChanged }: { id: number | null; onClose: () => void; onChanged: () => void }) {
  const phone = Grid.useBreakpoint().md === false;
  const queryClient = useQueryClient();
  const info = useQuery({
    queryKey: ['repair', 'info', id],
    queryFn: async () => (await request('repairinfo', { id: id! })).data,
    enabled: id !== null,
  });
  const log = useQuery({
    queryKey: ['repair', 'log', id],
    queryFn: async () => (await request('repairlog', { id: id! })).data,
    enabled: id !== null,
  });
  const t = info.data;
  const open = !!t && !['D', 'C'].includes(t.status);
  const steps = timelineSteps(log.data?.items ?? [], open);
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ['repair'] });
    onChanged();
  };
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={phone ? 'default' : 'large'}
      width={phone ? '100%' : 760}
      title={t ? `报修工单 ${t.no}` : '报修工单'}
      extra={
        t && (
          <Button icon={<PrinterOutlined />} onClick={() => printRepair(t, steps)} data-testid="repair-print">
            打印
          </Button>
        )
      }
      data-testid="repair-detail"
    >
      {!t ? (
        <Spin />
      ) : (
        <>
          <Space wrap style={{ marginBottom: 12 }}>
            <EnumTag enum={REPAIR_STATUS} value={t.status} />
            {t.overdue && <Tag color="error">超时</Tag>}
            {t.urgent && <Tag color="red">紧急</Tag>}
            {t.urge_count > 0 && <Tag color="orange">催单×{t.urge_count}</Tag>}
            {t.reopen_count > 0 && <Tag color="purple">返修×{t.reopen_count}</Tag>}
            <RepairActions row={t} onDone={changed} size="middle" />
          </Space>
          <Descriptions size="small" bordered column={phone ? 1 : 2}>
            <Descriptions.Item label="报修类型">{t.type_title}</Descriptions.Item>
            <Descriptions.Item label="来源">
              {t.source_ch}
              {t.complaint_id > 0 && (
                <>
                  {' · 由投诉 '}
                  <Link to={`/steward/complaintlist?id=${t.complaint_id}`} data-testid="repair-complaint-link">
                    {complaintNo(t.complaint_id)}
                  </Link>
                  {' 转来'}
                </>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="位置">{t.location}</Descriptions.Item>
            <Descriptions.Item label="报修人">
              {t.reporter} {t.phone}
            </Descriptions.Item>
            <Descriptions.Item label="预约时间">{t.appointment_time || '—'}</Descriptions.Item>
            <Descriptions.Item label="登记时间">{t.create_time}</Descriptions.Item>
            <Descriptions.Item label="处理人">{t.handler_name || '—'}</Descriptions.Item>
            <Descriptions.Item label="接单时限">{t.accept_by || '—'}</Descriptions.Item>
            <Descriptions.Item label="完成时限">
              {t.finish_by}
              {t.paused_seconds > 0 && (
                <Typography.Text type="secondary">（已暂停 {durationText(t.paused_seconds * 1000)}，不计时）</Typography.Text>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="完工时间">{t.finish_time || '—'}</Descriptions.Item>
            <Descriptions.Item label="报修内容" span={phone ? 1 : 2}>
              <span data-testid="repair-detail-content" data-id={t.id} data-no={t.no}>
                {t.content}
              </span>
            </Descriptions.Item>
            {t.status === 'S' && (
              <Descriptions.Item label="暂停" span={phone ? 1 : 2}>
                {t.pause_reason}（预计 {t.resume_date} 恢复）
              </Descriptions.Item>
            )}
            {t.close_reason && (
              <Descriptions.Item label="关闭原因" span={phone ? 1 : 2}>
                {t.close_reason}
              </Descriptions.Item>
            )}
          </Descriptions>
          {t.photos.length > 0 && (
            <>
              <Divider titlePlacement="start">报修照片</Divider>
              <PhotoGallery urls={t.photos} testId="repair-photos" />
            </>
          )}
          {(t.finish_note || t.before_photos.length > 0 || t.after_photos.length > 0) && (
            <>
              <Divider titlePlacement="start">处理结果</Divider>
              <Descriptions size="small" column={1}>
                <Descriptions.Item label="处理说明">{t.finish_note}</Descriptions.Item>
                {t.materials && <Descriptions.Item label="用料">{t.materials}</Descriptions.Item>}
              </Descriptions>
              {t.before_photos.length > 0 && (
                <>
                  <Typography.Text type="secondary">维修前</Typography.Text>
                  <PhotoGallery urls={t.before_photos} testId="repair-before-photos" />
                </>
              )}
              {t.after_photos.length > 0 && (
                <>
                  <Typography.Text type="secondary">维修后</Typography.Text>
                  <PhotoGallery urls={t.after_photos} testId="repair-after-photos" />
                </>
              )}
            </>
          )}
          {t.fee_lines.length > 0 && (
            <>
              <Divider titlePlacement="start">收费明细</Divider>
              <Descriptions size="small" column={1} data-testid="repair-fees">
                {t.fee_lines.map((l, i) => (
                  <Descriptions.Item key={i} label={l.name}>
                    {l.amount} 元
                  </Descriptions.Item>
                ))}
                <Descriptions.Item label="合计">
                  <Space>
                    {t.fee_total} 元
                    {t.bill_status === 'Y' || t.pay_time ? (
                      <Tag color="success">已缴 {t.pay_time}</Tag>
                    ) : t.bill_id ? (
                      <Tag color="warning">待缴费</Tag>
                    ) : null}
                  </Space>
                </Descriptions.Item>
              </Descriptions>
            </>
          )}
          {t.rate_time && (
            <>
              <Divider titlePlacement="start">评价</Divider>
              <Descriptions size="small" column={phone ? 1 : 3} data-testid="repair-rating">
                <Descriptions.Item label="综合">
                  <Rate disabled value={t.rate_overall} style={{ fontSize: 14 }} />
                </Descriptions.Item>
                <Descriptions.Item label="上门速度">
                  <Rate disabled value={t.rate_speed} style={{ fontSize: 14 }} />
                </Descriptions.Item>
                <Descriptions.Item label="服务态度">
                  <Rate disabled value={t.rate_service} style={{ fontSize: 14 }} />
                </Descriptions.Item>
                <Descriptions.Item label="评价内容" span={phone ? 1 : 3}>
                  {t.rate_text || '—'} {t.rate_auto && <Tag>系统自动好评</Tag>}
                </Descriptions.Item>
              </Descriptions>
            </>
          )}
          {t.visit_time && (
            <>
              <Divider titlePlacement="start">回访</Divider>
              <Descriptions size="small" column={1} data-testid="repair-visit">
                <Descriptions.Item label="结果">
                  {t.visit_satisfied === 'Y' ? <Tag color="success">满意</Tag> : <Tag color="error">不满意</Tag>}
                </Descriptions.Item>
                <Descriptions.Item label="回访记录">{t.visit_note || '—'}</Descriptions.Item>
                <Descriptions.Item label="回访时间">{t.visit_time}</Descriptions.Item>
              </Descriptions>
            </>
          )}
          <Divider titlePlacement="start">工单流转</Divider>
          {steps.length === 0 ? (
            <Empty />
          ) : (
            <Timeline
              data-testid="repair-timeline"
              items={steps.map((s, i) => ({
                key: i,
                content: (
                  <div data-testid={`repair-step-${i}`}>
                    <Space wrap size={6}>
                      <strong>{s.step}</strong>
                      <Tag>{s.state}</Tag>
                      <span>{s.who}</span>
                    </Space>
                    <div style={{ color: 'rgba(0,0,0,0.55)', fontSize: 12 }}>
                      {s.start}
                      {s.end && ` → ${s.end}`}
                      {s.duration && ` · 耗时 ${s.duration}`}
                    </div>
                    {s.note && <div>{s.note}</div>}
                  </div>
                ),
              }))}
            />
          )}
        </>
      )}
    </Drawer>
  );
}
