import { useEffect, useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Form, Input, InputNumber, Modal, Radio, Select, Space, Table, Tag, Typography } from 'antd';
import type { ButtonProps, TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  CHARGE_MODE,
  CHARGE_PORT_STATE,
  CHARGE_STATE,
  CHARGE_TIER,
  enumOptions,
  type ChargeFrameItem,
  type ChargeMemberItem,
  type ChargePortItem,
  type ChargeSlot,
} from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { Money } from '../../components/Money';
import { EnumTag, SmallSelect } from '../../components/resource';

/** A member of the community found by mobile or name, with the balance and month card beside. */
export function MemberPicker({
  value,
  onChange,
  testId,
}: {
  value?: number;
  onChange?: (v: number, m: ChargeMemberItem) => void;
  testId: string;
}) {
  const [keyword, setKeyword] = useState('');
  const found = useQuery({
    queryKey: ['chargemembers', keyword],
    queryFn: () => call('chargemembers', { keyword }),
    enabled: keyword.length >= 2,
    retry: false,
  });
  const items = found.data?.items ?? [];
  return (
    <Select
      showSearch
      value={value}
      placeholder="输入手机号或姓名查找会员"
      filterOption={false}
      onSearch={setKeyword}
      loading={found.isFetching}
      notFoundContent={keyword.length >= 2 ? '没有找到会员' : '至少输入两个字'}
      data-testid={testId}
      options={items.map((m) => ({
        value: m.id,
        label: `${m.realname} ${m.mobile}（余额 ${m.balance} 元${m.month_card ? `，${m.month_card}` : ''}）`,
      }))}
      onChange={(v: number) =>
        onChange?.(
          v,
          items.find((m) => m.id === v)!,
        )
      }
    />
  );
}

const VALUE_LABEL: Record<string, string> = {
  hours: '充电时长（小时）',
  energy: '充电电量（kWh）',
  amount: '充电金额（元）',
  full: '最多花费（元）',
};

/**
 * 开始充电: a member (by mobile), a pile and a free port, the mode and its value, a charging coupon;
 * the server holds the prepayment from the member's balance and queues the start to the pile.
 */
export function StartDialog({ chargerId, portId, onClose }: { chargerId?: number; portId?: number; onClose: (started: boolean) => void }) {
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const pile = Form.useWatch('charger_id', form) as number | undefined;
  const mode = (Form.useWatch('mode', form) as string | undefined) ?? 'hours';
  const ports = useQuery({
    queryKey: ['chargerportlist', pile],
    queryFn: () => call('chargerportlist', { charger_id: pile! }),
    enabled: pile !== undefined,
    retry: false,
  });
  useEffect(() => {
    form.setFieldsValue({ charger_id: chargerId, port_id: portId, mode: 'hours', value: 1, coupon_code: '' });
  }, [form, chargerId, portId]);
  const submit = async () => {
    const v = (await form.validateFields()) as {
      charger_id: number;
      port_id: number;
      member_id: number;
      mode: string;
      value: number | string;
      coupon_code?: string;
    };
    setSaving(true);
    try {
      const answer = await request('chargestart', {
        charger_id: v.charger_id,
        port_id: v.port_id,
        member_id: v.member_id,
        mode: v.mode as 'hours',
        value: String(v.value),
        coupon_code: v.coupon_code ?? '',
      });
      noticeSuccess(answer.return_msg);
      onClose(true);
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title="开始充电"
      onCancel={() => onClose(false)}
      onOk={() => void submit()}
      confirmLoading={saving}
      okText="开始充电"
      okButtonProps={{ 'data-testid': 'chargestart-save' } as ButtonProps}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="chargestart-form">
        <Form.Item name="member_id" label="会员" rules={[{ required: true, message: '请选择会员' }]}>
          <MemberPicker testId="chargestart-member" />
        </Form.Item>
        <Form.Item name="charger_id" label="充电桩" rules={[{ required: true, message: '请选择充电桩' }]}>
          <SmallSelect
            widget={{ small: 'charger_small_list' }}
            values={{}}
            testId="chargestart-charger"
            placeholder="请选择充电桩"
            onChange={() => form.setFieldValue('port_id', undefined)}
          />
        </Form.Item>
        <Form.Item name="port_id" label="插座" rules={[{ required: true, message: '请选择插座' }]}>
          <Select
            data-testid="chargestart-port"
            placeholder="请选择空闲插座"
            options={(ports.data?.items ?? []).map((p) => ({
              value: p.id,
              label: `${p.title}（${p.state_ch}）`,
              disabled: p.state !== 'free',
            }))}
          />
        </Form.Item>
        <Form.Item name="mode" label="充电方式">
          <Radio.Group options={enumOptions(CHARGE_MODE)} data-testid="chargestart-mode" />
        </Form.Item>
        <Form.Item name="value" label={VALUE_LABEL[mode]} rules={[{ required: true, message: '请输入' }]}>
          <InputNumber
            min={mode === 'hours' ? 1 : 0.01}
            max={mode === 'hours' ? 10 : 100000}
            precision={mode === 'hours' ? 0 : 2}
            style={{ width: '100%' }}
            data-testid="chargestart-value"
          />
        </Form.Item>
        <Form.Item name="coupon_code" label="充电券码" extra="满减券按面值折算为免费时长（从第一小时起，够付整小时才抵）">
          <Input maxLength={40} placeholder="可不填" data-testid="chargestart-coupon" />
        </Form.Item>
      </Form>
      <Typography.Text type="secondary">预付金额从会员余额扣除，结算后多余部分原路退回余额。</Typography.Text>
    </Modal>
  );
}

/** A pile's ports with their reported state, the session on each, and the simulator's controls. */
export function PortsDrawer({
  pile,
  simulated,
  onClose,
}: {
  pile: { id: number; title: string; sim_lose_final: 'Y' | 'N' };
  simulated: boolean;
  onClose: () => void;
}) {
  const ports = useQuery({
    queryKey: ['chargerportlist', pile.id],
    queryFn: () => call('chargerportlist', { charger_id: pile.id }),
    refetchInterval: 3000,
  });
  const [starting, setStarting] = useState<number | null>(null);
  const [lose, setLose] = useState(pile.sim_lose_final === 'Y');
  const [minutes, setMinutes] = useState(30);
  const sim = async (action: 'lose_final' | 'keep_final' | 'unplug' | 'fault' | 'repair' | 'advance', portId?: number) => {
    try {
      const answer = await request('chargersim', {
        charger_id: pile.id,
        action,
        port_id: portId,
        minutes: action === 'advance' ? minutes : undefined,
      });
      noticeSuccess(answer.return_msg);
      if (action === 'lose_final' || action === 'keep_final') setLose(action === 'lose_final');
      void ports.refetch();
    } catch {
      /* shown by the client */
    }
  };
  const columns: TableColumnsType<ChargePortItem> = [
    { key: 'title', title: '插座', dataIndex: 'title', width: 90 },
    { key: 'state', title: '状态', dataIndex: 'state', width: 90, render: (v: string) => <EnumTag enum={CHARGE_PORT_STATE} value={v} /> },
    { key: 'order', title: '当前订单', dataIndex: 'order_no', width: 200, render: (v: string, r) => (v ? `${v} ${r.realname}` : '') },
    { key: 'meter', title: '电表读数(kWh)', dataIndex: 'meter_kwh', width: 120, align: 'right' },
    { key: 'power', title: '功率(W)', dataIndex: 'power_w', width: 90, align: 'right' },
    {
      key: 'actions',
      title: '操作',
      width: 220,
      render: (_: unknown, r) => (
        <Space size={0}>
          {r.state === 'free' && (
            <Button size="small" type="link" onClick={() => setStarting(r.id)} data-testid={`chargeport-start-${r.no}`}>
              开始充电
            </Button>
          )}
          {simulated && r.order_id && (
            <Button size="small" type="link" onClick={() => void sim('unplug', r.id)} data-testid={`chargeport-unplug-${r.no}`}>
              模拟拔枪
            </Button>
          )}
          {simulated && r.state !== 'fault' && (
            <Button size="small" type="link" danger onClick={() => void sim('fault', r.id)} data-testid={`chargeport-fault-${r.no}`}>
              模拟故障
            </Button>
          )}
          {simulated && r.state === 'fault' && (
            <Button size="small" type="link" onClick={() => void sim('repair', r.id)} data-testid={`chargeport-repair-${r.no}`}>
              故障修复
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Drawer open size="large" title={`${pile.title} · 插座`} onClose={onClose} destroyOnHidden>
      {simulated && (
        <Alert
          style={{ marginBottom: 12 }}
          type="info"
          message={
            <Space wrap>
              <span>模拟器：</span>
              <span>快进</span>
              <InputNumber
                min={1}
                max={600}
                value={minutes}
                onChange={(v) => setMinutes(v ?? 30)}
                data-testid="chargesim-minutes"
                style={{ width: 80 }}
              />
              <span>分钟</span>
              <Button size="small" onClick={() => void sim('advance')} data-testid="chargesim-advance">
                快进
              </Button>
              <Button size="small" onClick={() => void sim(lose ? 'keep_final' : 'lose_final')} data-testid="chargesim-lose">
                {lose ? '恢复发送结束帧' : '丢失结束帧'}
              </Button>
              {lose && <Tag color="warning">结束帧将丢失</Tag>}
            </Space>
          }
        />
      )}
      <Table<ChargePortItem>
        rowKey="id"
        size="small"
        data-testid="chargeport-table"
        loading={ports.isLoading}
        columns={columns}
        dataSource={ports.data?.items ?? []}
        pagination={false}
      />
      {starting !== null && (
        <StartDialog
          chargerId={pile.id}
          portId={starting}
          onClose={(started) => {
            setStarting(null);
            if (started) void ports.refetch();
          }}
        />
      )}
    </Drawer>
  );
}

const kwh = (wh: number) => (wh / 1000).toFixed(3);

/** A session: its figures, meter values and the price by hour it was settled with. */
export function OrderDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const info = useQuery({ queryKey: ['chargeorderinfo', id], queryFn: () => call('chargeorderinfo', { id }), refetchInterval: 3000 });
  const o = info.data;
  const slotColumns: TableColumnsType<ChargeSlot> = [
    { key: 'hour', title: '小时', dataIndex: 'hour', width: 60 },
    { key: 'wh', title: '电量(kWh)', dataIndex: 'wh', width: 100, align: 'right', render: (v: number) => kwh(v) },
    {
      key: 'tiers',
      title: o?.pricing.kind === 'ebike' ? '功率档小时价' : '分时电量',
      width: 220,
      render: (_: unknown, s) =>
        o?.pricing.kind === 'ebike'
          ? `${s.band_price} 元/时`
          : Object.entries(s.tiers)
              .map(([t, wh]) => `${CHARGE_TIER[t as keyof typeof CHARGE_TIER].text} ${kwh(wh)}`)
              .join('，'),
    },
    { key: 'amount', title: '金额（元）', dataIndex: 'amount', width: 100, align: 'right', render: (v: string) => <Money value={v} /> },
    {
      key: 'free',
      title: '抵扣',
      dataIndex: 'free',
      width: 80,
      render: (v: string) => (v === 'card' ? <Tag color="success">月卡</Tag> : v === 'coupon' ? <Tag color="processing">券</Tag> : ''),
    },
  ];
  const frameColumns: TableColumnsType<ChargeFrameItem> = [
    { key: 'at', title: '时间', dataIndex: 'at', width: 170 },
    { key: 'meter', title: '电表读数(kWh)', dataIndex: 'meter_kwh', width: 130, align: 'right' },
    { key: 'power', title: '功率(W)', dataIndex: 'power_w', width: 90, align: 'right' },
  ];
  return (
    <Drawer open size="large" title={o ? `充电订单 ${o.order_no}` : '充电订单'} onClose={onClose} destroyOnHidden>
      {o && (
        <>
          <Descriptions size="small" column={2} bordered data-testid="chargeorder-detail">
            <Descriptions.Item label="会员">{`${o.realname} ${o.mobile}`}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <EnumTag enum={CHARGE_STATE} value={o.state} />
            </Descriptions.Item>
            <Descriptions.Item label="充电桩">{`${o.charger_title} ${o.port_no}号插座`}</Descriptions.Item>
            <Descriptions.Item label="方式">{`${o.mode_ch} ${o.mode_value}`}</Descriptions.Item>
            <Descriptions.Item label="开始">{o.start_time}</Descriptions.Item>
            <Descriptions.Item label="结束">{o.end_time}</Descriptions.Item>
            <Descriptions.Item label="结束原因">{o.end_reason_ch}</Descriptions.Item>
            <Descriptions.Item label="电量(kWh)">{o.energy_kwh}</Descriptions.Item>
            <Descriptions.Item label="预付（元）">
              <Money value={o.prepaid} />
            </Descriptions.Item>
            <Descriptions.Item label="实收（元）">
              <span data-testid="chargeorder-amount">{o.amount ? <Money value={o.amount} /> : ''}</span>
            </Descriptions.Item>
            <Descriptions.Item label="退回余额（元）">
              <span data-testid="chargeorder-refund">{o.refund ? <Money value={o.refund} /> : ''}</span>
            </Descriptions.Item>
            <Descriptions.Item label="价格版本">{`V${o.price_version}`}</Descriptions.Item>
            <Descriptions.Item label="计费小时">{`${o.hours}（月卡 ${o.card_hours} 可用，券抵 ${o.coupon_hours}）`}</Descriptions.Item>
            <Descriptions.Item label="抵扣（元）">
              {o.gross ? `原价 ${o.gross}，月卡 ${o.card_free}，券 ${o.coupon_free}` : ''}
            </Descriptions.Item>
            {o.check_note && <Descriptions.Item label="核对说明">{o.check_note}</Descriptions.Item>}
            {o.error && <Descriptions.Item label="说明">{o.error}</Descriptions.Item>}
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            按小时价格明细
          </Typography.Title>
          <Table<ChargeSlot>
            rowKey="hour"
            size="small"
            data-testid="chargeorder-slots"
            columns={slotColumns}
            dataSource={o.slots}
            pagination={false}
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            计量数据
          </Typography.Title>
          <Table<ChargeFrameItem>
            rowKey={(r) => `${r.at}-${r.meter_kwh}`}
            size="small"
            columns={frameColumns}
            dataSource={o.frames}
            pagination={{ pageSize: 20 }}
          />
        </>
      )}
    </Drawer>
  );
}
