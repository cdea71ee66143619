import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  NOTIFY_CHANNEL,
  NOTIFY_EVENT,
  NOTIFY_EVENTS,
  NOTIFY_RECIPIENT,
  NOTIFY_RECIPIENTS,
  NOTIFY_RECIPIENTS_OF,
  NOTIFY_STATUS,
  notifyChannelsOf,
  type MessageLogItem,
  type MessageSetInfo,
  type NotifyCell,
  type NotifyChannel,
  type NotifyEvent,
  type NotifyRecipient,
} from '@wuye/contract/setup/notify';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import EnumTag from '../../components/resource/EnumTag';
import TablePage from '../../components/TablePage';

const INFO_KEY = ['messagesetinfo'];
const cellKey = (e: NotifyEvent, r: NotifyRecipient, c: NotifyChannel) => `${e}:${r}:${c}`;
const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: h, label: `${String(h).padStart(2, '0')}:00` }));

interface Settings {
  quiet_enabled: boolean;
  quiet_from: number;
  quiet_to: number;
  daily_cap: number;
}

/** The matrix: one row per event, a column per recipient with a box per channel it can take. */
function Matrix() {
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: INFO_KEY, queryFn: () => call('messagesetinfo', {}) });
  const [cells, setCells] = useState<Record<string, boolean>>({});
  const [settings, setSettings] = useState<Settings | null>(null);
  const [saving, setSaving] = useState(false);

  const load = (d: MessageSetInfo) => {
    setCells(Object.fromEntries(d.cells.map((c) => [cellKey(c.event, c.recipient, c.channel), c.enabled === 'Y'])));
    setSettings({ quiet_enabled: d.quiet_enabled === 'Y', quiet_from: d.quiet_from, quiet_to: d.quiet_to, daily_cap: d.daily_cap });
  };
  useEffect(() => {
    if (info.data) load(info.data);
  }, [info.data]);

  const changed = useMemo(() => {
    const d = info.data;
    if (!d || !settings) return false;
    return (
      d.cells.some((c) => cells[cellKey(c.event, c.recipient, c.channel)] !== (c.enabled === 'Y')) ||
      (d.quiet_enabled === 'Y') !== settings.quiet_enabled ||
      d.quiet_from !== settings.quiet_from ||
      d.quiet_to !== settings.quiet_to ||
      d.daily_cap !== settings.daily_cap
    );
  }, [info.data, cells, settings]);

  const save = async () => {
    if (!info.data || !settings) return;
    setSaving(true);
    try {
      const payload: NotifyCell[] = info.data.cells.map((c) => ({
        ...c,
        enabled: cells[cellKey(c.event, c.recipient, c.channel)] ? 'Y' : 'N',
      }));
      const answer = await request('messagesetedit', {
        cells: payload,
        quiet_enabled: settings.quiet_enabled ? 'Y' : 'N',
        quiet_from: settings.quiet_from,
        quiet_to: settings.quiet_to,
        daily_cap: settings.daily_cap,
      });
      noticeSuccess(answer.return_msg);
      queryClient.setQueryData(INFO_KEY, answer.data);
      load(answer.data);
    } catch {
      // the client showed the refusal
    } finally {
      setSaving(false);
    }
  };

  const columns: TableColumnsType<{ event: NotifyEvent }> = [
    { title: '事件', dataIndex: 'event', width: 120, fixed: 'left', render: (e: NotifyEvent) => NOTIFY_EVENT[e].text },
    ...NOTIFY_RECIPIENTS.map((recipient) => ({
      title: NOTIFY_RECIPIENT[recipient].text,
      key: recipient,
      width: 190,
      render: (_: unknown, row: { event: NotifyEvent }) =>
        NOTIFY_RECIPIENTS_OF[row.event].includes(recipient) ? (
          <Space size={12}>
            {notifyChannelsOf(recipient).map((channel) => {
              const key = cellKey(row.event, recipient, channel);
              return (
                <Checkbox
                  key={channel}
                  checked={!!cells[key]}
                  onChange={(e) => setCells((c) => ({ ...c, [key]: e.target.checked }))}
                  data-testid={`message-cell-${row.event}-${recipient}-${channel}`}
                >
                  {NOTIFY_CHANNEL[channel].text}
                </Checkbox>
              );
            })}
          </Space>
        ) : (
          <span style={{ color: 'var(--ant-color-text-quaternary, #bfbfbf)' }}>—</span>
        ),
    })),
  ];

  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message="各小区发生这些事件时，按这里的勾选通知相应的人"
        description={
          // long on a phone: two lines, the rest behind 展开
          <Typography.Paragraph
            style={{ marginBottom: 0 }}
            ellipsis={{ rows: 2, expandable: 'collapsible', symbol: (open) => (open ? '收起' : '展开说明') }}
            data-testid="message-explain"
          >
            站内消息出现在员工的“站内消息”页；短信经小区的短信通道发送并扣除集团短信额度；微信是公众号的模板消息，发给已关注公众号并在“公众号粉丝”中绑定了该业主的粉丝（未绑定的在发送记录中注明）。业主可收短信和微信，访客和合同乙方只能收短信；访客通行码在访客登记通过（无需审核时登记即通过）后发给访客；合同在到期前的提醒天数内提醒一次，租约在进入即将到期时提醒一次（合同乙方即租约的租户）。处理人是工单的维修师傅或投诉的处理人，管家是负责该房屋单元的管家，有权限的员工是小区中持有相应权限的员工（报修派单、投诉受理、合同管理、租赁管理、账单管理）；账单生成在一批账单生成完成后通知，业主收到其房屋本批应缴金额和缴费期限；欠费提醒在账单逾期当天告知业主房屋当前欠费（含滞纳金）。
          </Typography.Paragraph>
        }
      />
      <Table<{ event: NotifyEvent }>
        rowKey="event"
        size="middle"
        loading={info.isLoading}
        columns={columns}
        dataSource={NOTIFY_EVENTS.map((event) => ({ event }))}
        pagination={false}
        // six recipients of up to two channels each: scroll sideways rather than wrap 站内消息
        scroll={{ x: 120 + 190 * NOTIFY_RECIPIENTS.length }}
        data-testid="message-matrix"
      />
      {settings && (
        <Form layout="inline" style={{ marginTop: 16, rowGap: 12 }}>
          <Form.Item label="短信免打扰">
            <Switch
              checked={settings.quiet_enabled}
              onChange={(quiet_enabled) => setSettings({ ...settings, quiet_enabled })}
              data-testid="message-quiet"
            />
          </Form.Item>
          <Form.Item label="免打扰时段" tooltip="时段内产生的短信推迟到时段结束时发送；站内消息不受影响">
            <Space>
              <Select
                style={{ width: 96 }}
                options={HOURS}
                disabled={!settings.quiet_enabled}
                value={settings.quiet_from}
                onChange={(quiet_from) => setSettings({ ...settings, quiet_from })}
                data-testid="message-quiet-from"
              />
              至
              <Select
                style={{ width: 96 }}
                options={HOURS}
                disabled={!settings.quiet_enabled}
                value={settings.quiet_to}
                onChange={(quiet_to) => setSettings({ ...settings, quiet_to })}
                data-testid="message-quiet-to"
              />
            </Space>
          </Form.Item>
          <Form.Item label="每日上限" tooltip="同一手机号每天最多收到的通知短信条数，超出的不再发送并在发送记录中注明">
            <InputNumber
              min={1}
              max={100}
              precision={0}
              addonAfter="条/手机号"
              value={settings.daily_cap}
              onChange={(v) => setSettings({ ...settings, daily_cap: v ?? 1 })}
              data-testid="message-daily-cap"
            />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" disabled={!changed} loading={saving} onClick={() => void save()} data-testid="message-save">
                保存
              </Button>
              <Button disabled={!changed} onClick={() => info.data && load(info.data)}>
                撤销修改
              </Button>
              {info.data && !info.data.update_time && <Tag>默认设置</Tag>}
              {info.data?.update_time && <span style={{ color: '#8c8c8c' }}>更新于 {info.data.update_time}</span>}
            </Space>
          </Form.Item>
        </Form>
      )}
    </>
  );
}

interface LogFilters {
  rid?: number;
  event?: string;
  channel?: string;
  status?: string;
  keyword?: string;
  range?: [Dayjs, Dayjs] | null;
}

/** What the group's communities sent: every channel, with each one's outcome. */
function Log() {
  const list = useList('messageloglist', { sort: 'desc', keyword: '' });
  const regions = useQuery({ queryKey: ['leaderregionlist', 'all'], queryFn: () => call('leaderregionlist', { limit: 200 }) });
  const columns: TableColumnsType<MessageLogItem> = [
    { title: '时间', dataIndex: 'create_time', width: 170 },
    { title: '小区', dataIndex: 'region_title', width: 130 },
    { title: '事件', dataIndex: 'event_ch', width: 100 },
    { title: '接收人', key: 'to', width: 160, render: (_, r) => `${r.recipient_ch}${r.name ? ` · ${r.name}` : ''}` },
    { title: '渠道', dataIndex: 'channel_ch', width: 90 },
    {
      title: '手机号/OpenID',
      key: 'address',
      width: 150,
      render: (_, r) => (r.channel === 'wechat' ? r.openid || '-' : r.mobile || '-'),
    },
    { title: '内容', dataIndex: 'content', ellipsis: true },
    {
      title: '状态',
      dataIndex: 'status',
      width: 110,
      render: (st: string, r) => (
        <span data-testid={`message-log-status-${r.id}`}>
          <EnumTag enum={NOTIFY_STATUS} value={st} />
        </span>
      ),
    },
    {
      title: '说明',
      key: 'reason',
      width: 220,
      render: (_, r) => r.reason || (r.status === 'W' && r.send_after ? `免打扰，${r.send_after} 发送` : '-'),
    },
  ];
  const options = <T extends string>(e: Parameters<typeof enumOptions<T>>[0]) => [{ value: '', label: '全部' }, ...enumOptions(e)];
  return (
    <TablePage<MessageLogItem, LogFilters>
      testId="message-log"
      list={list}
      columns={columns}
      rowKey="id"
      tableProps={{ scroll: { x: 1300 } }}
      onSearch={(v) =>
        list.setFilters({
          sort: 'desc',
          rid: v.rid,
          event: (v.event || undefined) as never,
          channel: (v.channel || undefined) as never,
          status: (v.status || undefined) as never,
          keyword: v.keyword ?? '',
          date_from: v.range?.[0]?.format('YYYY-MM-DD'),
          date_to: v.range?.[1]?.format('YYYY-MM-DD'),
        })
      }
      filters={
        <>
          <Form.Item name="rid" label="小区">
            <Select
              allowClear
              style={{ width: 160 }}
              placeholder="全部"
              options={(regions.data?.items ?? []).map((r) => ({ value: r.id, label: r.title }))}
              data-testid="message-log-region"
            />
          </Form.Item>
          <Form.Item name="event" label="事件">
            <Select style={{ width: 120 }} placeholder="全部" options={options(NOTIFY_EVENT)} data-testid="message-log-event" />
          </Form.Item>
          <Form.Item name="channel" label="渠道">
            <Select style={{ width: 110 }} placeholder="全部" options={options(NOTIFY_CHANNEL)} data-testid="message-log-channel" />
          </Form.Item>
          <Form.Item name="status" label="状态">
            <Select style={{ width: 110 }} placeholder="全部" options={options(NOTIFY_STATUS)} data-testid="message-log-status" />
          </Form.Item>
          <Form.Item name="keyword" label="关键词">
            <Input allowClear maxLength={40} placeholder="接收人、手机号或内容" style={{ width: 180 }} data-testid="message-log-keyword" />
          </Form.Item>
          <Form.Item name="range" label="日期">
            <DatePicker.RangePicker />
          </Form.Item>
        </>
      }
    />
  );
}

/**
 * 消息设置 (/setup/message on the group side; docs/product.md#notifications): the group's event ×
 * recipient × channel matrix with the SMS quiet hours and daily cap, and the log of what was sent.
 */
export default function MessageSet() {
  return (
    <Card variant="borderless" title="消息设置">
      <Tabs
        items={[
          { key: 'matrix', label: '通知设置', children: <Matrix /> },
          { key: 'log', label: '发送记录', children: <Log /> },
        ]}
        destroyOnHidden
        data-testid="message-tabs"
      />
    </Card>
  );
}
