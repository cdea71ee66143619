import { Badge, Button, Form, Input, Select, Space, Tabs } from 'antd';
import type { TableColumnsType } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { AUDIT_KIND, CHANGE_STATUS, CONTRACT_STATUS, type ContractAuditRow } from '@wuye/contract/crm/contracts';
import { useList } from '../../../api/useList';
import { moneyColumn } from '../../../components/Money';
import TablePage, { useActionFixed } from '../../../components/TablePage';
import { EnumTag } from '../../../components/resource';

type Tab = 'todo' | 'done' | 'mine' | 'all';
interface Filters {
  kind?: string;
  keyword?: string;
}

/**
 * /crm/contract_audit_list (合同审批; docs/product.md#crm-contracts): contracts submitted and change
 * requests alike, in 待我审批 (never one's own), 我已审批, 我发起的 and 全部; 审批 opens the decision,
 * 记录 the contract's whole trail.
 */
export default function AuditList() {
  const [params, setParams] = useSearchParams();
  const tab = (['todo', 'done', 'mine', 'all'].includes(params.get('tab') ?? '') ? params.get('tab') : 'todo') as Tab;
  const navigate = useNavigate();
  const actionFixed = useActionFixed();
  const list = useList('contractauditlist', { tab, sort: 'desc' });
  const columns: TableColumnsType<ContractAuditRow> = [
    { title: '审批类型', dataIndex: 'kind', width: 100, render: (v: string) => <EnumTag enum={AUDIT_KIND} value={v} /> },
    { title: '合同编号', dataIndex: 'contract_no', width: 170 },
    { title: '合同名称', dataIndex: 'name', width: 170 },
    { title: '合同类型', dataIndex: 'type_name', width: 120 },
    { title: '乙方', dataIndex: 'party_name', width: 100 },
    moneyColumn('合同总额', 'total_amount', { width: 120 }),
    { title: '提交人', dataIndex: 'submitter', width: 90 },
    { title: '提交时间', dataIndex: 'submit_time', width: 170 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (v: string, r) => <EnumTag enum={r.kind === 'contract' ? CONTRACT_STATUS : CHANGE_STATUS} value={v} />,
    },
    { title: '审批人', dataIndex: 'decider', width: 90 },
    { title: '审批意见', dataIndex: 'opinion', width: 160, ellipsis: true },
    {
      title: '操作',
      key: 'op',
      width: 150,
      fixed: actionFixed,
      render: (_, r) => (
        <Space size={0}>
          {r.waiting && (
            <Button
              size="small"
              type="link"
              onClick={() => void navigate(r.kind === 'contract' ? `/crm/contract_audit?id=${r.id}` : `/crm/contract_audit?change=${r.id}`)}
              data-testid={`audit-open-${r.key}`}
            >
              审批
            </Button>
          )}
          <Button
            size="small"
            type="link"
            onClick={() => void navigate(`/crm/contract_audit_info?id=${r.contract_id}`)}
            data-testid={`audit-info-${r.key}`}
          >
            记录
          </Button>
        </Space>
      ),
    },
  ];
  const waiting = list.answer?.waiting ?? 0;
  return (
    <>
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setParams(k === 'todo' ? {} : { tab: k }, { replace: true });
          list.setFilters({ ...list.filters, tab: k as Tab });
        }}
        items={[
          {
            key: 'todo',
            label: (
              <Badge count={waiting} size="small" offset={[8, 0]}>
                待我审批
              </Badge>
            ),
          },
          { key: 'done', label: '我已审批' },
          { key: 'mine', label: '我发起的' },
          { key: 'all', label: '全部' },
        ]}
        data-testid="audit-tabs"
      />
      <TablePage<ContractAuditRow, Filters>
        testId="contract-audit-page"
        list={list}
        columns={columns}
        rowKey="key"
        onSearch={(v) => list.setFilters({ tab, sort: 'desc', kind: (v.kind ?? '') as never, keyword: v.keyword?.trim() || undefined })}
        filters={
          <>
            <Form.Item name="kind" label="审批类型">
              <Select allowClear style={{ width: 120 }} options={enumOptions(AUDIT_KIND)} />
            </Form.Item>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear maxLength={40} placeholder="合同编号、名称、乙方" style={{ width: 190 }} />
            </Form.Item>
          </>
        }
      />
    </>
  );
}
