import { Alert, Form, Input, Select } from 'antd';
import type { TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { REFUND_STATUS } from '@wuye/contract/fees/refund';
import type { ContractRefundRow } from '@wuye/contract/crm/contracts';
import { useList } from '../../../api/useList';
import { moneyColumn } from '../../../components/Money';
import TablePage from '../../../components/TablePage';
import { EnumTag } from '../../../components/resource';

interface Filters {
  status?: string;
  keyword?: string;
}

/**
 * /crm/refund_list (合同退款; docs/product.md#crm-contracts): the refund requests of contracts'
 * receipts, which go through the fees area's refund approval (/fees/refundlist), with their state;
 * a refund is asked for from the contract's plan (合同详情 → 收款计划 → 申请退款).
 */
export default function RefundList() {
  const list = useList('contractrefundlist', { sort: 'desc' });
  const columns: TableColumnsType<ContractRefundRow> = [
    {
      title: '合同编号',
      dataIndex: 'contract_no',
      width: 170,
      render: (v: string, r) => <Link to={`/crm/roomshow?id=${r.contract_id}`}>{v}</Link>,
    },
    { title: '乙方', dataIndex: 'party_name', width: 100 },
    { title: '款项', dataIndex: 'instalments', width: 100 },
    { title: '收据号', dataIndex: 'receipt_no', width: 140 },
    moneyColumn('退款金额', 'amount', { width: 120 }),
    { title: '原因', dataIndex: 'reason', width: 200, ellipsis: true },
    { title: '状态', dataIndex: 'status', width: 90, render: (v: string) => <EnumTag enum={REFUND_STATUS} value={v} /> },
    { title: '申请人', dataIndex: 'applicant', width: 90 },
    { title: '申请时间', dataIndex: 'create_time', width: 170 },
    { title: '审核人', dataIndex: 'approver', width: 90 },
    { title: '审核意见', dataIndex: 'approve_remark', width: 160, ellipsis: true },
    { title: '审核时间', dataIndex: 'approve_time', width: 170 },
  ];
  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title="合同款的退款走收费的退款审核：在合同详情的收款计划中对已收款项申请退款，由财务在 退款审核 中处理。合同执行中退款后该款项恢复为待收；合同终止或作废后退款则该款项结清。"
      />
      <TablePage<ContractRefundRow, Filters>
        testId="contract-refund-page"
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters({ sort: 'desc', status: (v.status ?? '') as never, keyword: v.keyword?.trim() || undefined })}
        filters={
          <>
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 110 }} options={enumOptions(REFUND_STATUS)} />
            </Form.Item>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear maxLength={40} placeholder="合同编号、乙方、收据号" style={{ width: 190 }} />
            </Form.Item>
          </>
        }
      />
    </>
  );
}
