import { Button, Form, Input, Space, Tabs, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { LEASE_ROLES, type LeaseRow } from '@wuye/contract/crm/leases';
import { useList } from '../../../api/useList';
import { moneyColumn } from '../../../components/Money';
import TablePage, { useActionFixed } from '../../../components/TablePage';
import { useCanWrite } from '../../../components/resource';
import { LeaseStatusTags } from './parts';

type View = 'todo' | 'decided' | 'mine';

function Approvals({ view }: { view: View }) {
  const navigate = useNavigate();
  const list = useList('leaselist', { sort: 'desc', view });
  const actionFixed = useActionFixed();
  const columns: TableColumnsType<LeaseRow> = [
    { title: '租约编号', dataIndex: 'lease_no', width: 110, fixed: 'left' },
    { title: '租户', dataIndex: 'tenant_name', width: 180 },
    { title: '房屋', dataIndex: 'address', width: 200 },
    { title: '租期', key: 'term', width: 200, render: (_, r) => `${r.start_date} 至 ${r.end_date}` },
    moneyColumn('月租金', 'monthly_rent', { width: 110 }),
    moneyColumn('押金', 'deposit', { width: 110 }),
    moneyColumn('租期总额', 'total_amount', { width: 120 }),
    { title: '续租自', dataIndex: 'renew_of_no', width: 100 },
    { title: '状态', key: 'status', width: 130, render: (_, r) => <LeaseStatusTags row={r} /> },
    {
      title: '审批意见',
      key: 'opinion',
      width: 200,
      render: (_, r) =>
        r.approver ? (
          <Typography.Text type="secondary">
            {r.approver}：{r.approve_remark || '—'}
          </Typography.Text>
        ) : (
          '—'
        ),
    },
    { title: '起草人', dataIndex: 'creator', width: 90 },
    {
      title: '操作',
      key: 'op',
      width: 100,
      fixed: actionFixed,
      render: (_, r) => (
        <Button
          size="small"
          type="link"
          onClick={() => void navigate(`/crm/lease_approval_info?id=${r.id}`)}
          data-testid={`lease-approval-open-${r.id}`}
        >
          {view === 'todo' ? '审批' : '查看'}
        </Button>
      ),
    },
  ];
  return (
    <TablePage<LeaseRow, { keyword?: string }>
      testId={`lease-approval-${view}`}
      list={list}
      columns={columns}
      rowKey="id"
      onSearch={(v) => list.setFilters({ sort: 'desc', view, keyword: v.keyword?.trim() || undefined } as never)}
      filters={
        <Form.Item name="keyword" label="关键字">
          <Input allowClear maxLength={40} placeholder="编号、租户、手机号" style={{ width: 180 }} />
        </Form.Item>
      }
    />
  );
}

/**
 * /crm/lease_approval (租赁审批; docs/product.md#crm-leases): the leases waiting for the reader's
 * approval (never those they drafted or submitted), those decided, and the reader's own.
 */
export default function LeaseApproval() {
  const [params, setParams] = useSearchParams();
  const canApprove = useCanWrite(LEASE_ROLES.approve);
  const fallback: View = canApprove ? 'todo' : 'mine';
  const view = (['todo', 'decided', 'mine'] as const).find((v) => v === params.get('view')) ?? fallback;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Tabs
        activeKey={view}
        onChange={(k) => setParams({ view: k }, { replace: true })}
        items={[
          ...(canApprove ? [{ key: 'todo', label: '待我审批' }] : []),
          { key: 'decided', label: '已审批' },
          { key: 'mine', label: '我提交的' },
        ].map((t) => ({ ...t, children: view === t.key ? <Approvals view={t.key as View} /> : null }))}
      />
    </Space>
  );
}
