import { Checkbox, Form, Select } from 'antd';
import type { TableColumnsType } from 'antd';
import { enumOptions } from '@wuye/contract/kit/resource';
import { DISCOUNT_STATUS, discountFlow, type DiscountRequestRow, type DiscountStatus } from '@wuye/contract/fees';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, RequestActions, useRequestLog } from '../../components/resource';
import { useActionFixed } from './shared';
import { formatMoney, moneyColumn } from '../../components/Money';

interface Filters {
  status?: '' | DiscountStatus;
  mine?: boolean;
}

/**
 * Discount approvals (/fees/discountlist, 优惠审批): what cashiers asked above the cap, approved or
 * rejected through the discount workflow by a manager (never the one who asked), each with its timeline.
 */
export default function DiscountList() {
  const list = useList('discount_request_list', { sort: 'desc' });
  const log = useRequestLog<DiscountRequestRow>(discountFlow, (r) => `优惠申请 #${r.id} · ${formatMoney(r.amount, { unit: '元' })}`);
  const actionFixed = useActionFixed();
  const columns: TableColumnsType<DiscountRequestRow> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: '房屋', dataIndex: 'address', width: 150 },
    // amount and status early, so they stay in view beside the fixed action column
    moneyColumn('优惠金额', 'amount', { width: 120 }),
    { title: '状态', dataIndex: 'status', width: 90, render: (s: DiscountStatus) => <EnumTag enum={DISCOUNT_STATUS} value={s} /> },
    { title: '账单', dataIndex: 'bill_titles', width: 220, ellipsis: true },
    moneyColumn('应收', 'receivable', { width: 110 }),
    moneyColumn('滞纳金', 'late_fee', { width: 110 }),
    { title: '原因', dataIndex: 'reason', width: 160, ellipsis: true },
    { title: '申请人', dataIndex: 'applicant', width: 90 },
    { title: '审批人', dataIndex: 'approver', width: 90 },
    { title: '收据号', dataIndex: 'receipt_no', width: 110 },
    { title: '申请时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 200,
      fixed: actionFixed,
      render: (_, r) => <RequestActions flow={discountFlow} row={r} onDone={list.reload} onLog={() => log.open(r)} />,
    },
  ];

  return (
    <>
      <TablePage<DiscountRequestRow, Filters>
        testId="discountlist-page"
        title="优惠审批"
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters({ sort: 'desc', status: v.status ?? '', mine: !!v.mine })}
        filters={
          <>
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 110 }} options={enumOptions(DISCOUNT_STATUS)} data-testid="discount-status" />
            </Form.Item>
            <Form.Item name="mine" valuePropName="checked">
              <Checkbox>只看本人申请</Checkbox>
            </Form.Item>
          </>
        }
      />
      {log.drawer}
    </>
  );
}
