import { useState } from 'react';
import { Button, DatePicker, Drawer, Form, Input, Select, Space, Tabs, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useSearchParams } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  RECHARGE_PAY_TYPE,
  RECHARGE_STATUS,
  rechargePackage,
  rechargeRefundFlow,
  type RechargePackageItem,
  type RechargeRow,
} from '@wuye/contract/cards/recharge';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import { MoneyStatistic, moneyColumn } from '../../components/Money';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { EnumTag, ResourcePage, WorkflowActions, WorkflowTimeline } from '../../components/resource';
import { useDayPresets, wireRange } from '../invoice/shared';

interface Filters {
  keyword?: string;
  pay_type?: string;
  status?: string;
  created?: [Dayjs, Dayjs] | null;
}

const wire = (v: Filters) => ({
  keyword: v.keyword?.trim() || undefined,
  pay_type: (v.pay_type ?? '') as never,
  status: (v.status ?? '') as never,
  create_time: wireRange(v.created),
});

/** 充值记录: recharges with their paid and bonus parts; a whole unspent one is refunded through the refund workflow. */
function Recharges() {
  const list = useList('cardrechargelist', { sort: 'desc' });
  const presets = useDayPresets();
  const actionFixed = useActionFixed();
  const [viewing, setViewing] = useState<RechargeRow | null>(null);
  const columns: TableColumnsType<RechargeRow> = [
    { title: '单号', dataIndex: 'order_no', width: 170 },
    { title: '卡号', dataIndex: 'card_no', width: 120 },
    { title: '会员', dataIndex: 'realname', width: 90 },
    { title: '手机号', dataIndex: 'mobile', width: 120 },
    {
      title: '套餐',
      dataIndex: 'package_name',
      width: 130,
      render: (v: string) => v || <Typography.Text type="secondary">按金额</Typography.Text>,
    },
    moneyColumn('实付金额', 'paid_amount', { width: 100 }),
    moneyColumn('赠送金额', 'bonus_amount', { width: 100 }),
    { title: '赠送积分', dataIndex: 'bonus_points', width: 90, align: 'right' },
    { title: '赠券', dataIndex: 'coupons_given', width: 70, align: 'right' },
    { title: '支付方式', dataIndex: 'pay_type_ch', width: 90 },
    { title: '参考号', dataIndex: 'reference', width: 130 },
    { title: '状态', dataIndex: 'status', width: 100, render: (v: string) => <EnumTag enum={RECHARGE_STATUS} value={v} /> },
    { title: '操作人', dataIndex: 'operator', width: 90 },
    { title: '充值时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 220,
      fixed: actionFixed,
      render: (_, r) => (
        <Space size={0} wrap>
          <Button size="small" type="link" onClick={() => setViewing(r)} data-testid={`cardrecharge-log-${r.id}`}>
            记录
          </Button>
          <WorkflowActions flow={rechargeRefundFlow} row={r as never} resource="cardrechargelist" onDone={() => list.reload()} />
        </Space>
      ),
    },
  ];
  const sums = list.answer?.sums;
  return (
    <>
      <TablePage<RechargeRow, Filters>
        testId="cardrecharge-page"
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters({ sort: 'desc', ...wire(v) })}
        onExport={(v) => runExport('cardrechargeexport', wire(v))}
        toolbar={
          sums && (
            <Space size="large" wrap>
              <MoneyStatistic title="实付合计" value={sums.paid_amount} />
              <MoneyStatistic title="赠送合计" value={sums.bonus_amount} />
            </Space>
          )
        }
        filters={
          <>
            <Form.Item name="keyword" label="关键字">
              <Input
                allowClear
                maxLength={32}
                placeholder="单号、卡号、会员、手机号"
                style={{ width: 190 }}
                data-testid="cardrecharge-keyword"
              />
            </Form.Item>
            <Form.Item name="pay_type" label="支付方式">
              <Select allowClear style={{ width: 120 }} options={enumOptions(RECHARGE_PAY_TYPE)} />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 120 }} options={enumOptions(RECHARGE_STATUS)} data-testid="cardrecharge-status" />
            </Form.Item>
            <Form.Item name="created" label="充值日期">
              <DatePicker.RangePicker presets={presets} inputReadOnly style={{ maxWidth: 260 }} />
            </Form.Item>
          </>
        }
      />
      <Drawer open={!!viewing} onClose={() => setViewing(null)} title={viewing ? `充值 ${viewing.order_no}` : ''} destroyOnHidden>
        {viewing && <WorkflowTimeline flow={rechargeRefundFlow} id={viewing.id} />}
      </Drawer>
    </>
  );
}

/**
 * /carpark/storagegl (储值管理; docs/product.md#member-cards): the recharge packages (set up with
 * `cardset`) and the recharges, whose refunds are applied for by who recharges and approved by
 * `cardset` or finance.
 */
export default function StorageList() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'records' ? 'records' : 'packages';
  return (
    <Tabs
      activeKey={tab}
      onChange={(k) => setParams(k === 'records' ? { tab: k } : {}, { replace: true })}
      items={[
        { key: 'packages', label: '充值套餐', children: <ResourcePage<RechargePackageItem> resource={rechargePackage} title="充值套餐" /> },
        { key: 'records', label: '充值记录', children: <Recharges /> },
      ]}
    />
  );
}
