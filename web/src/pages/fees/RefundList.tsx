import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import type { RefundRow } from '@wuye/contract/fees';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { useActionFixed } from './shared';

const COLOR = { E: 'warning', Y: 'success', N: 'default' } as const;

/** Refund requests (/fees/refundlist): approve or reject with a remark. */
export default function RefundList() {
  const list = useList('refund_list', { sort: 'desc' });
  const [deciding, setDeciding] = useState<{ row: RefundRow; approve: boolean } | null>(null);
  const [remark, setRemark] = useState('');
  const [saving, setSaving] = useState(false);

  const decide = async () => {
    if (!deciding) return;
    setSaving(true);
    try {
      const answer = await request('refundapprove', { id: deciding.row.id, approve: deciding.approve, remark });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setDeciding(null);
      setRemark('');
      list.reload();
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  const actionFixed = useActionFixed();
  const columns: TableColumnsType<RefundRow> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: '收据号', dataIndex: 'receipt_no', width: 110 },
    { title: '房屋', dataIndex: 'address', width: 150 },
    // amount and status early, so they stay in view beside the fixed action column
    { title: '金额', dataIndex: 'amount', width: 100, align: 'right' },
    { title: '状态', dataIndex: 'status', width: 90, render: (s: RefundRow['status'], r) => <Tag color={COLOR[s]}>{r.status_ch}</Tag> },
    { title: '退款账单', dataIndex: 'bill_titles', width: 220, ellipsis: true },
    { title: '原路退回', dataIndex: 'cash_amount', width: 100, align: 'right' },
    { title: '退回余额', dataIndex: 'balance_amount', width: 100, align: 'right' },
    { title: '原因', dataIndex: 'reason', width: 160, ellipsis: true },
    { title: '申请人', dataIndex: 'applicant', width: 90 },
    { title: '审核人', dataIndex: 'approver', width: 90 },
    { title: '申请时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 130,
      fixed: actionFixed,
      render: (_, r) =>
        r.status !== 'E' ? (
          '—'
        ) : (
          <Space size={4}>
            <Button size="small" type="link" onClick={() => setDeciding({ row: r, approve: true })} data-testid={`refund-approve-${r.id}`}>
              批准
            </Button>
            <Button
              size="small"
              type="link"
              danger
              onClick={() => setDeciding({ row: r, approve: false })}
              data-testid={`refund-reject-${r.id}`}
            >
              驳回
            </Button>
          </Space>
        ),
    },
  ];

  return (
    <>
      <TablePage<RefundRow, { status?: '' | 'E' | 'Y' | 'N' }>
        testId="refundlist-page"
        title="退款审核"
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters({ sort: 'desc', status: v.status ?? '' })}
        filters={
          <Form.Item name="status" label="状态">
            <Select
              allowClear
              style={{ width: 110 }}
              options={[
                { value: 'E', label: '待审核' },
                { value: 'Y', label: '已退款' },
                { value: 'N', label: '已驳回' },
              ]}
            />
          </Form.Item>
        }
      />
      <Modal
        open={!!deciding}
        title={deciding?.approve ? `批准退款 ${deciding.row.amount} 元` : '驳回退款申请'}
        confirmLoading={saving}
        onCancel={() => setDeciding(null)}
        onOk={() => void decide()}
        okButtonProps={{ danger: !deciding?.approve, 'data-testid': 'refund-decide' } as never}
      >
        {deciding?.approve && <p>批准后账单恢复为未缴，余额抵扣部分退回业主余额，其余按原支付方式退回。</p>}
        <Input.TextArea rows={2} maxLength={200} value={remark} onChange={(e) => setRemark(e.target.value)} placeholder="审核意见" />
      </Modal>
    </>
  );
}
