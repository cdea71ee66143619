import { useState } from 'react';
import { Button, Form, Input, InputNumber, Modal, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useLocation, useSearchParams } from 'react-router';
import { CHARGE_TIER, charger, enumOptions, type ChargePowerBand, type ChargeTouBand, type ChargerItem } from '@wuye/contract';
import MoneyInput from '../../components/MoneyInput';
import QrImage from '../../components/QrImage';
import { ResourcePage, useFormFromAddress, useResourceForm, useResourceList, type Widgets } from '../../components/resource';
import { PortsDrawer } from './parts';

const LIST = '/carpark/charging';
const LIST_OPTIONS = { path: LIST };

type InputProps<T> = { value?: T[]; onChange?: (v: T[]) => void; 'data-testid'?: string };

/** Rows edited in place: one line a band, 添加 and 删除. */
function Rows<T>({
  value = [],
  onChange,
  testId,
  blank,
  render,
}: {
  value?: T[];
  onChange?: (v: T[]) => void;
  testId?: string;
  blank: () => T;
  render: (row: T, set: (r: T) => void, i: number) => React.ReactNode;
}) {
  const set = (i: number) => (r: T) => onChange?.(value.map((x, j) => (j === i ? r : x)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid={testId}>
      {value.map((row, i) => (
        <Space key={i} wrap>
          {render(row, set(i), i)}
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label="删除"
            onClick={() => onChange?.(value.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button
        size="small"
        icon={<PlusOutlined />}
        onClick={() => onChange?.([...value, blank()])}
        data-testid={testId ? `${testId}-add` : undefined}
      >
        添加
      </Button>
    </Space>
  );
}

/** 尖峰平谷: time ranges covering the day, each with its tier and price per kWh. */
function TouBands(p: InputProps<ChargeTouBand>) {
  const kind = Form.useWatch('kind', Form.useFormInstance()) as string | undefined;
  if (kind === 'ebike') return <Typography.Text type="secondary">电动自行车桩按功率档位计费</Typography.Text>;
  const last = p.value?.at(-1)?.end ?? '00:00';
  return (
    <Rows<ChargeTouBand>
      {...p}
      testId={p['data-testid']}
      blank={() => ({ start: last, end: '24:00', tier: 'flat', price: '' })}
      render={(row, set, i) => (
        <>
          <Input
            style={{ width: 76 }}
            value={row.start}
            onChange={(e) => set({ ...row, start: e.target.value })}
            placeholder="00:00"
            data-testid={`tou-${i}-start`}
          />
          <span>至</span>
          <Input
            style={{ width: 76 }}
            value={row.end}
            onChange={(e) => set({ ...row, end: e.target.value })}
            placeholder="24:00"
            data-testid={`tou-${i}-end`}
          />
          <Select
            style={{ width: 70 }}
            value={row.tier}
            options={enumOptions(CHARGE_TIER)}
            onChange={(v) => set({ ...row, tier: v })}
            data-testid={`tou-${i}-tier`}
          />
          <MoneyInput
            style={{ width: 100 }}
            value={row.price}
            onChange={(v) => set({ ...row, price: v })}
            placeholder="元/kWh"
            data-testid={`tou-${i}-price`}
          />
        </>
      )}
    />
  );
}

/** E-bike power bands: min W, max W, yuan per hour. */
function PowerBands(p: InputProps<ChargePowerBand>) {
  const kind = Form.useWatch('kind', Form.useFormInstance()) as string | undefined;
  if (kind !== 'ebike') return <Typography.Text type="secondary">汽车桩按分时电价与服务费计费</Typography.Text>;
  const last = p.value?.at(-1)?.max_w ?? 0;
  return (
    <Rows<ChargePowerBand>
      {...p}
      testId={p['data-testid']}
      blank={() => ({ min_w: last, max_w: last + 300, price: '' })}
      render={(row, set, i) => (
        <>
          <InputNumber
            style={{ width: 90 }}
            min={0}
            precision={0}
            value={row.min_w}
            onChange={(v) => set({ ...row, min_w: v ?? 0 })}
            data-testid={`band-${i}-min`}
          />
          <span>W 至</span>
          <InputNumber
            style={{ width: 90 }}
            min={1}
            precision={0}
            value={row.max_w}
            onChange={(v) => set({ ...row, max_w: v ?? 0 })}
            data-testid={`band-${i}-max`}
          />
          <span>W</span>
          <MoneyInput
            style={{ width: 100 }}
            value={row.price}
            onChange={(v) => set({ ...row, price: v })}
            placeholder="元/小时"
            data-testid={`band-${i}-price`}
          />
        </>
      )}
    />
  );
}

const widgets = { tou: TouBands, bands: PowerBands } as unknown as Widgets;

/**
 * /carpark/charging (充电桩; docs/product.md#charging-piles): the piles with their prices (car piles:
 * 尖峰平谷 per kWh and a service fee; e-bike piles: an hourly price by power band), price version,
 * ports and online state from heartbeats. 插座 shows the ports, starts a session and drives the
 * simulator; 二维码 shows the address an owner's phone opens to charge there. The form also opens
 * at /carpark/charging_add and /carpark/charging_edit?id=.
 */
export default function PileList() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const route = pathname.endsWith('/charging_add') ? 'add' : pathname.endsWith('/charging_edit') ? 'edit' : null;
  const list = useResourceList(charger, LIST_OPTIONS);
  const form = useResourceForm(charger);
  const [ports, setPorts] = useState<ChargerItem | null>(null);
  const [qr, setQr] = useState<ChargerItem | null>(null);
  useFormFromAddress({
    route,
    linkId: Number(params.get('id')) || 0,
    items: list.items,
    ready: !list.loading && list.total > 0,
    form,
    listPath: LIST,
    missing: '充电桩不存在',
  });
  const qrText = qr ? (qr.qr_url.startsWith('/') ? `${window.location.origin}${qr.qr_url}` : qr.qr_url) : '';
  return (
    <>
      <ResourcePage<ChargerItem>
        resource={charger}
        listOptions={LIST_OPTIONS}
        title="充电桩"
        form={form}
        widgets={widgets}
        columns={{ price_text: { ellipsis: true } }}
        rowActions={(row) => (
          <Space size={0}>
            <Button size="small" type="link" onClick={() => setPorts(row)} data-testid={`charger-ports-${row.id}`}>
              插座
            </Button>
            <Button size="small" type="link" onClick={() => setQr(row)} data-testid={`charger-qr-${row.id}`}>
              二维码
            </Button>
          </Space>
        )}
      />
      {ports && (
        <PortsDrawer
          pile={ports}
          simulated={ports.vendor === 'simulator'}
          onClose={() => {
            setPorts(null);
            list.reload();
          }}
        />
      )}
      {qr && (
        <Modal open title={`${qr.title} · 扫码充电`} footer={null} onCancel={() => setQr(null)} destroyOnHidden>
          <Space direction="vertical" align="center" style={{ width: '100%' }}>
            <QrImage text={qrText} size={200} testId="charger-qr-image" />
            <Typography.Paragraph copyable={{ text: qrText }} style={{ wordBreak: 'break-all' }}>
              {qrText}
            </Typography.Paragraph>
            <Typography.Text type="secondary">业主用手机扫码，在该桩选择插座开始充电</Typography.Text>
          </Space>
        </Modal>
      )}
    </>
  );
}
