import { useState } from 'react';
import { Button, DatePicker, Form, Input, Modal, Select, Space, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { PlusOutlined } from '@ant-design/icons';
import { enumOptions } from '@wuye/contract/kit/resource';
import { METER_KIND, METER_RECHARGE_STATUS, PAY_TYPE, type MeterRechargeItem } from '@wuye/contract';
import { request } from '../../api/client';
import { useList } from '../../api/useList';
import { Money } from '../../components/Money';
import TablePage from '../../components/TablePage';
import { TextPromptModal } from '../../components/TextPromptModal';
import { EnumTag, useCanWrite } from '../../components/resource';
import { RechargeModalBody, RechargeState, sendNotice, usePollWhile } from './meterParts';

interface Filters {
  order_no?: string;
  meter_no?: string;
  kind?: string;
  status?: string;
  paytype?: string;
  create_time?: [Dayjs, Dayjs] | null;
}
const toFilters = (v: Filters) => ({
  order_no: v.order_no || undefined,
  meter_no: v.meter_no || undefined,
  kind: (v.kind || undefined) as never,
  status: (v.status || undefined) as never,
  paytype: v.paytype || undefined,
  create_time: v.create_time ? [v.create_time[0].format('YYYY-MM-DD'), v.create_time[1].format('YYYY-MM-DD')] : undefined,
});

/**
 * /carpark/meterpayment (充值缴费; docs/product.md#smart-meters): a prepaid meter's recharge at the
 * cashier or from a resident's balance, and every recharge order with its push state (待下发,
 * 已下发, 下发失败, 已退款); a failed push is retried or refunded.
 */
export default function MeterPayment() {
  const canPay = useCanWrite(['carpark', 'devicelist', 'cashier', 'fees', 'payment']);
  const list = useList('meterrechargelist', {});
  const [adding, setAdding] = useState(false);
  const [refunding, setRefunding] = useState<MeterRechargeItem | null>(null);
  usePollWhile(
    list.items.some((r) => r.status === 'W'),
    list.reload,
  );
  const retry = async (r: MeterRechargeItem) => {
    if (await sendNotice(request('meterrechargeretry', { id: r.id }))) list.reload();
  };
  const columns: TableColumnsType<MeterRechargeItem> = [
    { key: 'order_no', title: '订单号', dataIndex: 'order_no', width: 190, fixed: 'left' },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 160 },
    { key: 'meter_no', title: '表号', dataIndex: 'meter_no', width: 120 },
    { key: 'kind', title: '类型', dataIndex: 'kind', width: 80, render: (v: string) => <EnumTag enum={METER_KIND} value={v} /> },
    { key: 'amount', title: '金额（元）', dataIndex: 'amount', width: 100, align: 'right', render: (v: string) => <Money value={v} /> },
    { key: 'paytype', title: '支付方式', dataIndex: 'paytype_ch', width: 170 },
    { key: 'pay_ref', title: '凭证号', dataIndex: 'pay_ref', width: 120, render: (v: string) => v || '-' },
    {
      key: 'status',
      title: '状态',
      dataIndex: 'status',
      width: 200,
      render: (_v, r) => <RechargeState status={r.status} error={r.error} />,
    },
    { key: 'member_name', title: '付款人', dataIndex: 'member_name', width: 90 },
    { key: 'operator', title: '操作人', dataIndex: 'operator', width: 90 },
    { key: 'create_time', title: '充值时间', dataIndex: 'create_time', width: 170 },
    { key: 'confirmed_at', title: '到账时间', dataIndex: 'confirmed_at', width: 170 },
    ...(canPay
      ? [
          {
            key: 'actions',
            title: '操作',
            width: 130,
            fixed: 'right' as const,
            render: (_v: unknown, r: MeterRechargeItem) =>
              r.status === 'F' && (
                <Space size={0}>
                  <Button size="small" type="link" onClick={() => void retry(r)} data-testid={`meterrecharge-retry-${r.id}`}>
                    重新下发
                  </Button>
                  <Button size="small" type="link" danger onClick={() => setRefunding(r)} data-testid={`meterrecharge-refund-${r.id}`}>
                    退款
                  </Button>
                </Space>
              ),
          },
        ]
      : []),
  ];
  const sums = list.answer?.sums;
  return (
    <>
      <TablePage<MeterRechargeItem, Filters>
        testId="meterpayment-page"
        title="充值缴费"
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters(toFilters(v))}
        totalText={(total) =>
          sums ? (
            <span>
              共 {total} 笔，合计 <Money value={sums.amount} unit="元" />
              （不含已退款）
            </span>
          ) : (
            `共 ${total}${list.answer?.more ? '+' : ''} 笔，按充值时间缩小范围后显示合计`
          )
        }
        toolbar={
          canPay && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="meterpayment-add">
              充值
            </Button>
          )
        }
        filters={
          <>
            <Form.Item name="order_no" label="订单号">
              <Input allowClear maxLength={40} />
            </Form.Item>
            <Form.Item name="meter_no" label="表号">
              <Input allowClear maxLength={30} />
            </Form.Item>
            <Form.Item name="kind" label="类型">
              <Select allowClear style={{ width: 100 }} options={enumOptions(METER_KIND)} />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select
                allowClear
                style={{ width: 110 }}
                options={enumOptions(METER_RECHARGE_STATUS)}
                data-testid="meterpayment-filter-status"
              />
            </Form.Item>
            <Form.Item name="paytype" label="支付方式">
              <Select allowClear style={{ width: 110 }} options={enumOptions(PAY_TYPE)} />
            </Form.Item>
            <Form.Item name="create_time" label="充值时间">
              <DatePicker.RangePicker />
            </Form.Item>
          </>
        }
        tableProps={{ scroll: { x: 1500 }, size: 'middle' }}
      />
      {adding && (
        <Modal open title="表计充值" footer={null} onCancel={() => setAdding(false)} destroyOnHidden>
          <RechargeModalBody
            onCancel={() => setAdding(false)}
            onDone={() => {
              setAdding(false);
              list.reload();
            }}
          />
        </Modal>
      )}
      <TextPromptModal<{ id: number }>
        open={!!refunding}
        title={refunding ? `退款 ${refunding.order_no}` : ''}
        label="退款说明"
        required="请填写退款说明"
        maxLength={100}
        danger
        testIds={{ text: 'meterrefund-remark', ok: 'meterrefund-ok' }}
        send={(remark) => request('meterrechargerefund', { id: refunding!.id, remark })}
        onDone={() => {
          setRefunding(null);
          list.reload();
        }}
        onCancel={() => setRefunding(null)}
      >
        {refunding && (
          <Typography.Paragraph type="secondary">
            {refunding.paytype === 'balance'
              ? '金额将退回付款住户的余额。'
              : `请现场退还 ${refunding.amount} 元（${refunding.paytype_ch}）。`}
            该充值的下发指令将被取消。
          </Typography.Paragraph>
        )}
      </TextPromptModal>
    </>
  );
}
