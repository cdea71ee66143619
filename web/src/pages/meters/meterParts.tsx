import { useEffect, useMemo, useState } from 'react';
import { Button, Checkbox, Descriptions, Drawer, Form, Input, Select, Space, Table, Tabs, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  COMMAND_STATE,
  METER_RECHARGE_STATUS,
  METER_UNIT,
  READING_SOURCE,
  VALVE_STATE,
  type MeterCommandItem,
  type MeterItem,
  type MeterReadingItem,
} from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import MoneyInput from '../../components/MoneyInput';
import { Money } from '../../components/Money';
import { usePayType } from '../fees/usePayType';
import { EnumTag, invalidateResource, MembersSelect } from '../../components/resource';

/** Sends a call and shows its answer; false when it was refused (the client has shown why). */
export async function sendNotice(call: Promise<{ return_msg: string }>): Promise<boolean> {
  try {
    noticeSuccess((await call).return_msg);
    return true;
  } catch {
    return false;
  }
}

/** Everything a meter's money or state changes shows again: the lists of the area. */
export function useMeterRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void invalidateResource(queryClient, 'meter');
    void queryClient.invalidateQueries({ queryKey: ['list'] });
  };
}

/** The valve's state with its last command beside it (下发中, 下发失败). */
export function ValveCell({ row }: { row: MeterItem }) {
  return (
    <Space size={4}>
      <EnumTag enum={VALVE_STATE} value={row.valve} />
      {row.valve_reason_ch && <Typography.Text type="secondary">{row.valve_reason_ch}</Typography.Text>}
      {row.valve_command && (
        <Typography.Text type={row.valve_command === 'failed' ? 'danger' : 'warning'} data-testid={`meter-valvecmd-${row.id}`}>
          {row.valve_command_ch}
        </Typography.Text>
      )}
    </Space>
  );
}

/** 开阀 / 关阀 / 重试: the valve's commands, through the queue. */
export function ValveActions({ row, onDone }: { row: MeterItem; onDone: () => void }) {
  const send = async (action: 'open' | 'close') => {
    if (await sendNotice(request('metervalve', { id: row.id, action }))) onDone();
  };
  const retry = async () => {
    if (await sendNotice(request('metercommandretry', { id: row.valve_command_id! }))) onDone();
  };
  return (
    <>
      {row.valve_command === 'failed' && (
        <Button size="small" type="link" onClick={() => void retry()} data-testid={`meter-valveretry-${row.id}`}>
          重试
        </Button>
      )}
      {row.valve !== 'open' ? (
        <Button size="small" type="link" onClick={() => void send('open')} data-testid={`meter-open-${row.id}`}>
          开阀
        </Button>
      ) : (
        <Button size="small" type="link" danger onClick={() => void send('close')} data-testid={`meter-close-${row.id}`}>
          关阀
        </Button>
      )}
    </>
  );
}

/** Reloads a list every 2 s while one of its rows waits on a device. */
export function usePollWhile(waiting: boolean, reload: () => void) {
  useEffect(() => {
    if (!waiting) return;
    const t = setInterval(reload, 2000);
    return () => clearInterval(t);
  }, [waiting, reload]);
}

interface RechargeValues {
  meter_id?: number;
  amount?: string;
  member_id?: number;
  remark?: string;
}

/**
 * 表计充值: a prepaid meter (given, or found by its number or room), a preset or custom amount
 * within the kind's limits, how it is paid (from a resident's balance too); the order is pushed to
 * the meter and confirmed by it.
 */
export function RechargeModalBody({ meter, onDone, onCancel }: { meter?: MeterItem; onDone: () => void; onCancel: () => void }) {
  const [form] = Form.useForm<RechargeValues>();
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<MeterItem | undefined>(meter);
  const [busy, setBusy] = useState(false);
  const found = useQuery({
    queryKey: ['meterpick', keyword],
    queryFn: () => call('meterpick', { keyword }, { silent: true }),
    enabled: !meter && keyword.length > 0,
    retry: false,
  });
  const amounts = useQuery({ queryKey: ['meteramountlist'], queryFn: () => call('meteramountlist', {}), retry: false });
  const rule = amounts.data?.items.find((a) => a.kind === picked?.kind);
  // the group's enabled ways in its order, its own among them, with the 凭证号 a way asks for
  const pay = usePayType('meterrecharge-paytype');
  const options = useMemo(
    () =>
      ((found.data?.items ?? []) as MeterItem[]).map((m) => ({ value: m.id, label: `${m.meter_no} ${m.address} ${m.kind_ch}`, meter: m })),
    [found.data],
  );
  const submit = async (v: RechargeValues) => {
    if (!picked) return;
    setBusy(true);
    try {
      const answer = await request('meterrecharge', {
        meter_id: picked.id,
        amount: v.amount ?? '',
        paytype: pay.payType as never,
        pay_method_id: pay.payMethodId ?? null,
        pay_ref: pay.payRef,
        member_id: pay.payType === 'balance' ? v.member_id : undefined,
        remark: v.remark ?? '',
      });
      noticeSuccess(`${answer.return_msg}（订单号 ${answer.data.order_no}）`);
      onDone();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form<RechargeValues> form={form} layout="vertical" onFinish={(v) => void submit(v)} data-testid="meterrecharge-form">
      {!meter && (
        <Form.Item label="表计" required>
          <Select
            showSearch={{ filterOption: false, onSearch: setKeyword }}
            placeholder="输入表号或房号查找预付费表"
            options={options}
            value={picked?.id}
            onChange={(_v, o) => setPicked((o as { meter: MeterItem }).meter)}
            notFoundContent={keyword ? '没有找到预付费表' : null}
            data-testid="meterrecharge-meter"
          />
        </Form.Item>
      )}
      {picked && (
        <Descriptions size="small" column={2} style={{ marginBottom: 12 }} data-testid="meterrecharge-meterinfo">
          <Descriptions.Item label="表号">{picked.meter_no}</Descriptions.Item>
          <Descriptions.Item label="类型">{picked.kind_ch}</Descriptions.Item>
          <Descriptions.Item label="房屋">{picked.address}</Descriptions.Item>
          <Descriptions.Item label="业主">{picked.owner}</Descriptions.Item>
          <Descriptions.Item label="剩余金额">
            <Money value={picked.balance} unit="元" />
          </Descriptions.Item>
          <Descriptions.Item label="阀门">
            <EnumTag enum={VALVE_STATE} value={picked.valve} />
          </Descriptions.Item>
        </Descriptions>
      )}
      <Form.Item
        name="amount"
        label="充值金额（元）"
        rules={[{ required: true, message: '请输入充值金额' }]}
        extra={rule ? `单笔 ${rule.min_amount} 至 ${rule.max_amount} 元${rule.custom === 'N' ? '，仅限预设档位' : ''}` : undefined}
      >
        <MoneyInput placeholder="金额" style={{ width: 200 }} disabled={rule?.custom === 'N'} data-testid="meterrecharge-amount" />
      </Form.Item>
      {rule && (
        <Space wrap style={{ marginTop: -12, marginBottom: 16 }}>
          {rule.amounts.map((a) => (
            <Button key={a} size="small" onClick={() => form.setFieldValue('amount', a)} data-testid={`meterrecharge-preset-${a}`}>
              ¥{a}
            </Button>
          ))}
        </Space>
      )}
      {pay.fields()}
      {pay.payType === 'balance' && (
        <Form.Item name="member_id" label="付款住户" rules={[{ required: true, message: '余额支付请选择付款的住户' }]}>
          <MembersSelect hid={picked?.hid ?? undefined} testId="meterrecharge-member" />
        </Form.Item>
      )}
      <Form.Item name="remark" label="备注">
        <Input maxLength={100} />
      </Form.Item>
      <Space>
        <Button onClick={onCancel}>取消</Button>
        <Button type="primary" htmlType="submit" loading={busy} disabled={!picked || !!pay.problem} data-testid="meterrecharge-ok">
          确认充值
        </Button>
        {picked && pay.problem && (
          <Typography.Text type="warning" data-testid="meterrecharge-pay-problem">
            {pay.problem}
          </Typography.Text>
        )}
      </Space>
    </Form>
  );
}

/** A meter's readings (with a manual one added here) and its commands. */
export function MeterDetailDrawer({ meter, canWrite, onClose }: { meter: MeterItem; canWrite: boolean; onClose: () => void }) {
  const readings = useList('meterrecordlist', { meter_id: meter.id });
  const commands = useList('meterloglist', { meter_no: meter.meter_no });
  const refresh = useMeterRefresh();
  const [form] = Form.useForm<{ value?: string; source?: 'manual' | 'estimated'; swap?: boolean; remark?: string }>();
  const [busy, setBusy] = useState(false);
  const unit = METER_UNIT[meter.kind];
  const add = async (v: { value?: string; source?: 'manual' | 'estimated'; swap?: boolean; remark?: string }) => {
    setBusy(true);
    try {
      const answer = await request('meterrecordadd', {
        meter_id: meter.id,
        value: v.value ?? '',
        source: v.source ?? 'manual',
        swap: !!v.swap,
        remark: v.remark ?? '',
      });
      noticeSuccess(answer.return_msg);
      form.resetFields();
      readings.reload();
      refresh();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  const readingColumns: TableColumnsType<MeterReadingItem> = [
    { key: 'read_at', title: '读表时间', dataIndex: 'read_at', width: 170 },
    { key: 'value', title: `读数（${unit}）`, dataIndex: 'value', width: 110, render: (v: string, r) => (r.swap ? `${v}（换表）` : v) },
    { key: 'usage', title: '用量', dataIndex: 'usage', width: 90 },
    { key: 'amount', title: '金额（元）', dataIndex: 'amount', width: 100 },
    { key: 'source', title: '来源', dataIndex: 'source', width: 80, render: (v: string) => <EnumTag enum={READING_SOURCE} value={v} /> },
    { key: 'operator', title: '操作人', dataIndex: 'operator', width: 100 },
    { key: 'remark', title: '备注', dataIndex: 'remark', ellipsis: true },
  ];
  const commandColumns: TableColumnsType<MeterCommandItem> = [
    { key: 'create_time', title: '时间', dataIndex: 'create_time', width: 170 },
    { key: 'request', title: '指令', dataIndex: 'request', width: 130 },
    { key: 'state', title: '状态', dataIndex: 'state', width: 90, render: (v: string) => <EnumTag enum={COMMAND_STATE} value={v} /> },
    { key: 'answer', title: '应答', dataIndex: 'answer', width: 140 },
    { key: 'latency_ms', title: '耗时', dataIndex: 'latency_ms', width: 90, render: (v: number | null) => (v === null ? '—' : `${v} ms`) },
    { key: 'operator', title: '操作人', dataIndex: 'operator', width: 90 },
  ];
  return (
    <Drawer
      open
      size="large"
      title={`${meter.meter_no} ${meter.kind_ch} · ${meter.address}`}
      onClose={onClose}
      destroyOnHidden
      data-testid="meter-detail"
    >
      <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="计费模式">{meter.mode_ch}</Descriptions.Item>
        <Descriptions.Item label="当前读数">
          {meter.reading} {unit}
        </Descriptions.Item>
        <Descriptions.Item label="读表时间">{meter.read_at || '—'}</Descriptions.Item>
        {meter.mode === 'prepaid' && (
          <Descriptions.Item label="剩余金额">
            <Money value={meter.balance} unit="元" />
          </Descriptions.Item>
        )}
        <Descriptions.Item label="阀门">
          <ValveCell row={meter} />
        </Descriptions.Item>
        <Descriptions.Item label="单价方案">{meter.plan_title}</Descriptions.Item>
      </Descriptions>
      <Tabs
        items={[
          {
            key: 'readings',
            label: '读数记录',
            children: (
              <>
                {canWrite && (
                  <Form
                    form={form}
                    layout="inline"
                    onFinish={(v) => void add(v)}
                    initialValues={{ source: 'manual' }}
                    style={{ marginBottom: 12, rowGap: 8 }}
                  >
                    <Form.Item name="value" rules={[{ required: true, message: '请输入读数' }]}>
                      <Input placeholder={`读数（${unit}）`} style={{ width: 130 }} maxLength={13} data-testid="meterreading-value" />
                    </Form.Item>
                    <Form.Item name="source">
                      <Select style={{ width: 90 }} options={enumOptions(READING_SOURCE).filter((o) => o.value !== 'auto')} />
                    </Form.Item>
                    <Form.Item name="swap" valuePropName="checked">
                      <Checkbox>换表</Checkbox>
                    </Form.Item>
                    <Form.Item name="remark">
                      <Input placeholder="备注" maxLength={100} style={{ width: 140 }} />
                    </Form.Item>
                    <Button type="primary" htmlType="submit" loading={busy} data-testid="meterreading-add">
                      录入读数
                    </Button>
                  </Form>
                )}
                <Table<MeterReadingItem>
                  rowKey="id"
                  size="small"
                  data-testid="meterreading-table"
                  loading={readings.loading}
                  columns={readingColumns}
                  dataSource={readings.items}
                  pagination={{
                    current: readings.page,
                    pageSize: readings.limit,
                    total: readings.total,
                    onChange: (p, l) => readings.setPage(p, l),
                  }}
                />
              </>
            ),
          },
          {
            key: 'commands',
            label: '指令记录',
            children: (
              <Table<MeterCommandItem>
                rowKey="id"
                size="small"
                loading={commands.loading}
                columns={commandColumns}
                dataSource={commands.items}
                pagination={{
                  current: commands.page,
                  pageSize: commands.limit,
                  total: commands.total,
                  onChange: (p, l) => commands.setPage(p, l),
                }}
              />
            ),
          },
        ]}
      />
    </Drawer>
  );
}

/** The state of a recharge with its error beside it. */
export function RechargeState({ status, error }: { status: string; error: string }) {
  return (
    <Space size={4}>
      <EnumTag enum={METER_RECHARGE_STATUS} value={status} />
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </Space>
  );
}
