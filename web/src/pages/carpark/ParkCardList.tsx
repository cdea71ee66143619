import { useEffect, useState } from 'react';
import { Button, Card, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Statistic, Tabs } from 'antd';
import type { TableColumnsType } from 'antd';
import { GiftOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  COUPON_PAY_TYPES,
  PARK_COUPON_ROLES,
  parkCoupon,
  type CouponOrderItem,
  type CouponStockItem,
} from '@wuye/contract/carpark/coupons';
import { PAY_TYPE_CH } from '@wuye/contract/fees';
import { fenToYuan, toFen } from '@wuye/contract/money';
import { request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { MoneyStatistic, moneyColumn } from '../../components/Money';
import { invalidateResource, rangePickerPresets, ResourcePage, SmallSelect, useCanWrite } from '../../components/resource';

const merchantWidget = { small: 'merchant_auth_small_list' } as const;
const couponWidget = { small: 'parkcoupon_small_list' } as const;

type Dialog = { kind: 'buy' | 'give'; merchant_id?: number; coupon_id?: number } | null;

/** 购买停车劵 / 发放停车劵: a merchant buys a batch (price × quantity, exact), or gives one to a plate. */
function CouponDialog({ dialog, onClose }: { dialog: Dialog; onClose: (done: boolean) => void }) {
  const [form] = Form.useForm<{
    merchant_id?: number;
    coupon_id?: number;
    quantity?: number;
    pay_type?: string;
    carlicense?: string;
    remark?: string;
  }>();
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState('');
  const couponId = Form.useWatch('coupon_id', form);
  const quantity = Form.useWatch('quantity', form);
  const [price, setPrice] = useState<string | null>(null);
  useEffect(() => {
    if (!dialog) return;
    form.resetFields();
    form.setFieldsValue({ merchant_id: dialog.merchant_id, coupon_id: dialog.coupon_id, quantity: 10, pay_type: 'cash' });
    // one key per opened dialog: a double click or a retry buys once
    setKey(`pc-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`);
  }, [dialog, form]);
  useEffect(() => {
    setPrice(null);
    if (!couponId || dialog?.kind !== 'buy') return;
    void request('parkcouponlist', { limit: 200 }).then((a) => setPrice(a.data.items.find((c) => c.id === couponId)?.price ?? null));
  }, [couponId, dialog?.kind]);
  const amount = price && quantity ? fenToYuan(toFen(price) * BigInt(quantity)) : null;
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const answer =
        dialog?.kind === 'buy'
          ? await request('parkcouponorderadd', {
              merchant_id: v.merchant_id!,
              coupon_id: v.coupon_id!,
              quantity: v.quantity!,
              pay_type: v.pay_type as (typeof COUPON_PAY_TYPES)[number],
              amount: amount ?? undefined,
              remark: v.remark ?? '',
              idempotency_key: key,
            })
          : await request('parkcoupongive', { merchant_id: v.merchant_id!, coupon_id: v.coupon_id!, carlicense: v.carlicense ?? '' });
      noticeSuccess(answer.return_msg);
      onClose(true);
    } catch {
      /* the client showed why (停车劵不足，请购买) */
    } finally {
      setBusy(false);
    }
  };
  const buying = dialog?.kind === 'buy';
  return (
    <Modal
      open={!!dialog}
      title={buying ? '购买停车劵' : '发放停车劵'}
      onCancel={() => onClose(false)}
      onOk={() => void submit()}
      okText={buying ? '确认购买' : '发放'}
      okButtonProps={{ loading: busy, 'data-testid': 'coupon-dialog-ok' } as never}
      destroyOnHidden
      forceRender
    >
      <Form form={form} labelCol={{ span: 5 }} data-testid={buying ? 'coupon-buy-form' : 'coupon-give-form'}>
        <Form.Item name="merchant_id" label="商户" rules={[{ required: true, message: '请选择商户' }]}>
          <SmallSelect widget={merchantWidget} values={{}} testId="coupon-dialog-merchant" />
        </Form.Item>
        <Form.Item name="coupon_id" label="停车劵" rules={[{ required: true, message: '请选择停车劵' }]}>
          <SmallSelect widget={couponWidget} values={{}} testId="coupon-dialog-coupon" />
        </Form.Item>
        {buying ? (
          <>
            <Form.Item name="quantity" label="数量" rules={[{ required: true, message: '请填写数量' }]}>
              <InputNumber min={1} max={10000} precision={0} addonAfter="张" data-testid="coupon-dialog-quantity" />
            </Form.Item>
            <Form.Item label="金额">
              <span data-testid="coupon-dialog-amount">{amount ? `${amount} 元（单价 ${price} 元）` : '—'}</span>
            </Form.Item>
            <Form.Item name="pay_type" label="支付方式" rules={[{ required: true, message: '请选择支付方式' }]}>
              <Select options={COUPON_PAY_TYPES.map((p) => ({ value: p, label: PAY_TYPE_CH[p] }))} data-testid="coupon-dialog-pay-type" />
            </Form.Item>
            <Form.Item name="remark" label="备注">
              <Input maxLength={200} />
            </Form.Item>
          </>
        ) : (
          <Form.Item name="carlicense" label="车牌号" rules={[{ required: true, message: '请输入车牌号' }]} extra="自发放起24小时内有效">
            <Input maxLength={10} placeholder="如 沪A12345" data-testid="coupon-dialog-plate" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/** Each merchant's stock per coupon, with buy and give. */
function StockTab({ open }: { open: (d: Dialog) => void }) {
  const list = useList('parkcouponstocklist', {});
  const canWrite = useCanWrite(PARK_COUPON_ROLES.write);
  const columns: TableColumnsType<CouponStockItem> = [
    { title: '商户', dataIndex: 'merchant', width: 140 },
    { title: '停车劵', dataIndex: 'coupon_title', width: 140 },
    { title: '停车场', dataIndex: 'lot_title', width: 130 },
    { title: '面值', dataIndex: 'face', width: 100 },
    { title: '已购', dataIndex: 'bought', width: 80 },
    { title: '已发放', dataIndex: 'given', width: 80 },
    { title: '剩余', dataIndex: 'left_count', width: 80, render: (v: number, r) => <b data-testid={`coupon-stock-left-${r.id}`}>{v}</b> },
    {
      title: '操作',
      key: 'op',
      width: 140,
      render: (_, r) =>
        canWrite && (
          <Space size={4}>
            <Button type="link" size="small" onClick={() => open({ kind: 'buy', merchant_id: r.merchant_id, coupon_id: r.coupon_id })}>
              购买
            </Button>
            <Button
              type="link"
              size="small"
              onClick={() => open({ kind: 'give', merchant_id: r.merchant_id, coupon_id: r.coupon_id })}
              data-testid={`coupon-stock-give-${r.id}`}
            >
              发放
            </Button>
          </Space>
        ),
    },
  ];
  return (
    <TablePage<CouponStockItem, { merchant_id?: number; coupon_id?: number }>
      testId="coupon-stock"
      list={list}
      columns={columns}
      rowKey="id"
      onSearch={(v) => list.setFilters({ merchant_id: v.merchant_id, coupon_id: v.coupon_id })}
      filters={
        <>
          <Form.Item name="merchant_id" label="商户">
            <SmallSelect widget={merchantWidget} values={{}} style={{ width: 150 }} allowClear />
          </Form.Item>
          <Form.Item name="coupon_id" label="停车劵">
            <SmallSelect widget={couponWidget} values={{}} style={{ width: 150 }} allowClear />
          </Form.Item>
        </>
      }
      toolbar={
        canWrite && (
          <Space>
            <Button type="primary" icon={<ShoppingCartOutlined />} onClick={() => open({ kind: 'buy' })} data-testid="coupon-buy">
              购买停车劵
            </Button>
            <Button icon={<GiftOutlined />} onClick={() => open({ kind: 'give' })} data-testid="coupon-give">
              发放停车劵
            </Button>
          </Space>
        )
      }
    />
  );
}

interface OrderFilterForm {
  merchant_id?: number;
  coupon_id?: number;
  pay_type?: string;
  orderid?: string;
  dates?: [Dayjs, Dayjs] | null;
}
const orderFilters = (v: OrderFilterForm) => ({
  sort: 'desc' as const,
  merchant_id: v.merchant_id,
  coupon_id: v.coupon_id,
  pay_type: (v.pay_type ?? '') as '' | (typeof COUPON_PAY_TYPES)[number],
  orderid: v.orderid,
  create_time: v.dates ? ([v.dates[0].format('YYYY-MM-DD'), v.dates[1].format('YYYY-MM-DD')] as [string, string]) : undefined,
});

/** The merchants' orders: filters, totals, export. */
function OrdersTab() {
  const list = useList('parkcouponorderlist', { sort: 'desc' });
  const columns: TableColumnsType<CouponOrderItem> = [
    { title: '单号', dataIndex: 'orderid', width: 170 },
    { title: '商户', dataIndex: 'merchant', width: 130 },
    { title: '停车劵', dataIndex: 'coupon_title', width: 130 },
    { title: '面值', dataIndex: 'face', width: 90 },
    { title: '数量', dataIndex: 'quantity', width: 70 },
    moneyColumn('单价', 'price', { width: 100 }),
    moneyColumn('金额', 'amount', { width: 110 }),
    { title: '支付方式', dataIndex: 'pay_type_ch', width: 90 },
    { title: '经办人', dataIndex: 'operator', width: 90 },
    { title: '备注', dataIndex: 'remark', width: 120 },
    { title: '时间', dataIndex: 'create_time', width: 170 },
  ];
  return (
    <>
      <Space size="large" style={{ marginBottom: 8 }} data-testid="coupon-order-totals">
        <Statistic title="购买张数" value={list.answer?.sum_quantity ?? 0} />
        <MoneyStatistic title="购买金额" value={list.answer?.sum_amount ?? '0.00'} />
      </Space>
      <TablePage<CouponOrderItem, OrderFilterForm>
        testId="coupon-orders"
        list={list}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 1200 } }}
        onSearch={(v) => list.setFilters(orderFilters(v))}
        onExport={(v) => runExport('parkcouponorderexport', orderFilters(v))}
        filters={
          <>
            <Form.Item name="merchant_id" label="商户">
              <SmallSelect widget={merchantWidget} values={{}} style={{ width: 150 }} allowClear />
            </Form.Item>
            <Form.Item name="coupon_id" label="停车劵">
              <SmallSelect widget={couponWidget} values={{}} style={{ width: 150 }} allowClear />
            </Form.Item>
            <Form.Item name="pay_type" label="支付方式">
              <Select allowClear style={{ width: 110 }} options={COUPON_PAY_TYPES.map((p) => ({ value: p, label: PAY_TYPE_CH[p] }))} />
            </Form.Item>
            <Form.Item name="orderid" label="单号">
              <Input allowClear style={{ width: 150 }} />
            </Form.Item>
            <Form.Item name="dates" label="购买日期">
              <DatePicker.RangePicker inputReadOnly presets={rangePickerPresets()} style={{ maxWidth: 240 }} />
            </Form.Item>
          </>
        }
      />
    </>
  );
}

/** 停车劵 (/carpark/parkcardlist; docs/product.md#parking-coupons): coupon kinds, merchants' stock with buy and give, orders. */
export default function ParkCardList() {
  const [dialog, setDialog] = useState<Dialog>(null);
  const [tab, setTab] = useState('kinds');
  const queryClient = useQueryClient();
  const close = (done: boolean) => {
    setDialog(null);
    if (done) {
      void invalidateResource(queryClient, 'parkcoupon');
      void queryClient.invalidateQueries({ queryKey: ['list'] });
    }
  };
  return (
    <Card data-testid="parkcard-page" styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'kinds',
            label: <span data-testid="parkcard-tab-kinds">停车劵</span>,
            children: <ResourcePage resource={parkCoupon} title="停车劵" />,
          },
          { key: 'stock', label: <span data-testid="parkcard-tab-stock">商户库存</span>, children: <StockTab open={setDialog} /> },
          { key: 'orders', label: <span data-testid="parkcard-tab-orders">购买记录</span>, children: <OrdersTab /> },
        ]}
      />
      <CouponDialog dialog={dialog} onClose={close} />
    </Card>
  );
}
