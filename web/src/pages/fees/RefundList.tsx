import { Form, Select } from 'antd';
import type { TableColumnsType } from 'antd';
import { enumOptions } from '@wuye/contract/kit/resource';
import { REFUND_STATUS, refundFlow, type RefundRow } from '@wuye/contract/fees';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, RequestActions, useRequestLog } from '../../components/resource';
import { useActionFixed } from './shared';
import { formatMoney, moneyColumn } from '../../components/Money';

/** Refund requests (/fees/refundlist): approved or rejected through the refund workflow, each with its timeline. */
export default function RefundList() {
  const list = useList('refund_list', { sort: 'desc' });
  const log = useRequestLog<RefundRow>(refundFlow, (r) => `退款申请 ${r.receipt_no} · ${formatMoney(r.amount, { unit: '元' })}`);
  const actionFixed = useActionFixed();
  const columns: TableColumnsType<RefundRow> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: '收据号', dataIndex: 'receipt_no', width: 110 },
    { title: '房屋', dataIndex: 'address', width: 150 },
    // amount and status early, so they stay in view beside the fixed action column
    moneyColumn('金额', 'amount', { width: 110 }),
    { title: '状态', dataIndex: 'status', width: 90, render: (s: RefundRow['status']) => <EnumTag enum={REFUND_STATUS} value={s} /> },
    { title: '退款账单', dataIndex: 'bill_titles', width: 220, ellipsis: true },
    moneyColumn('原路退回', 'cash_amount', { width: 120 }),
    moneyColumn('退回余额', 'balance_amount', { width: 120 }),
    { title: '原因', dataIndex: 'reason', width: 160, ellipsis: true },
    { title: '申请人', dataIndex: 'applicant', width: 90 },
    { title: '审核人', dataIndex: 'approver', width: 90 },
    { title: '申请时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 200,
      fixed: actionFixed,
      render: (_, r) => <RequestActions flow={refundFlow} row={r} onDone={list.reload} onLog={() => log.open(r)} />,
    },
  ];

  return (
    <>
      <TablePage<RefundRow, { status?: '' | RefundRow['status'] }>
        testId="refundlist-page"
        title="退款审核"
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters({ sort: 'desc', status: v.status ?? '' })}
        filters={
          <Form.Item name="status" label="状态">
            <Select allowClear style={{ width: 110 }} options={enumOptions(REFUND_STATUS)} />
          </Form.Item>
        }
      />
      {log.drawer}
    </>
  );
}
