import { useState } from 'react';
import { Button, Form, Input, Space } from 'antd';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { type GrantItem } from '@wuye/contract';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { GrantInfo } from './grantParts';
import { grantColumns } from './GrantList';

/**
 * /carpark/currentexamine (门禁审核; docs/product.md#access-control): the grants waiting for review;
 * 审核 opens the photo, the person and the history with 通过 / 驳回 (currentexamine_info?id=);
 * /carpark/currentexamine_show?id= shows a grant read-only.
 */
export default function GrantExamine() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const list = useList('accessgrantlist', { status: 'W', revoked: 'N', sort: 'desc' });
  const linked = Number(params.get('id')) || 0;
  const [open, setOpen] = useState<{ id: number; actions: boolean } | null>(null);
  const shown =
    open ??
    (linked && (pathname.endsWith('/currentexamine_info') || pathname.endsWith('/currentexamine_show'))
      ? { id: linked, actions: pathname.endsWith('_info') }
      : null);
  return (
    <>
      <TablePage<GrantItem, { keyword?: string }>
        testId="examine-page"
        title="门禁审核"
        list={list}
        columns={grantColumns((r) => (
          <Space size={0}>
            <Button size="small" type="link" onClick={() => setOpen({ id: r.id, actions: true })} data-testid={`examine-${r.id}`}>
              审核
            </Button>
            <Button size="small" type="link" onClick={() => setOpen({ id: r.id, actions: false })}>
              查看
            </Button>
          </Space>
        ))}
        rowKey="id"
        onSearch={(v) => list.setFilters({ status: 'W', revoked: 'N', sort: 'desc', keyword: v.keyword || undefined })}
        filters={
          <Form.Item name="keyword" label="人员">
            <Input allowClear maxLength={30} placeholder="姓名、手机号、房屋" />
          </Form.Item>
        }
        tableProps={{ scroll: { x: 1700 }, size: 'middle' }}
      />
      {shown && (
        <GrantInfo
          id={shown.id}
          actions={shown.actions}
          onClose={() => {
            setOpen(null);
            if (linked) void navigate('/carpark/currentexamine', { replace: true });
            list.reload();
          }}
        />
      )}
    </>
  );
}
