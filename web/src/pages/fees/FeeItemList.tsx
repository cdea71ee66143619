import { Button, Form, Input, Select, Space, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { FeeItemRow } from '@wuye/contract/fees';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { useActionFixed } from './shared';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { useSmallList } from '../../components/resource';
import { invalidateResource } from '../../components/resource';

interface Filters {
  cost_type?: string;
  keyword?: string;
  status?: '' | 'Y' | 'N';
}

const lateText = (r: FeeItemRow) =>
  r.late_fee_rule === 'none'
    ? '不收'
    : `每日 ${r.late_fee_rate}‰，宽限 ${r.late_fee_grace_days} 天${r.late_fee_cap_percent ? `，封顶 ${r.late_fee_cap_percent}%` : ''}`;

/** Fee items (/fees/feeitemlist): pricing, unit price, cycle, due day, late-fee rule. */
export default function FeeItemList() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useList('feeitemlist', { sort: 'asc' });
  const costTypes = useSmallList('feebill_cate_small_list', {}).items;
  const confirmDelete = useConfirmDelete();

  const actionFixed = useActionFixed();
  const columns: TableColumnsType<FeeItemRow> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: '收费项目', dataIndex: 'title', width: 160 },
    { title: '费用类型', dataIndex: 'cost_type_title', width: 100 },
    { title: '计费方式', dataIndex: 'pricing_ch', width: 150 },
    { title: '单价', dataIndex: 'unit_price', width: 100, align: 'right' },
    { title: '周期(月)', dataIndex: 'cycle_months', width: 90 },
    { title: '缴费日', dataIndex: 'due_day', width: 80, render: (d: number) => `每期 ${d} 日` },
    { title: '滞纳金', key: 'late', width: 220, render: (_, r) => lateText(r) },
    { title: '绑定', dataIndex: 'bind_count', width: 70 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 80,
      render: (s: string) => <Tag color={s === 'Y' ? 'success' : 'default'}>{s === 'Y' ? '启用' : '停用'}</Tag>,
    },
    {
      title: '操作',
      key: 'op',
      width: 200,
      fixed: actionFixed,
      render: (_, row) => (
        <Space size={4}>
          <Button
            size="small"
            type="link"
            onClick={() => void navigate(`/fees/feeitemedit?id=${row.id}`)}
            data-testid={`item-edit-${row.id}`}
          >
            编辑
          </Button>
          <Button size="small" type="link" onClick={() => void navigate(`/fees/bindfee?item_id=${row.id}`)}>
            绑定
          </Button>
          <Button
            size="small"
            type="link"
            danger
            data-testid={`item-del-${row.id}`}
            onClick={() =>
              confirmDelete(async () => {
                const answer = await request('feeitemdel', { id: row.id });
                noticeSuccess(answer.return_msg ?? '操作成功');
                list.reload();
                void invalidateResource(queryClient, 'feeitem');
              })
            }
          >
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <TablePage<FeeItemRow, Filters>
      testId="feeitem-page"
      list={list}
      columns={columns}
      rowKey="id"
      title="收费项目"
      onSearch={(v) => list.setFilters({ ...list.filters, ...v })}
      filters={
        <>
          <Form.Item name="cost_type" label="费用类型">
            <Select allowClear style={{ width: 130 }} options={costTypes.map((c) => ({ value: c.cost_type, label: c.title }))} />
          </Form.Item>
          <Form.Item name="keyword" label="名称">
            <Input allowClear style={{ width: 150 }} data-testid="item-keyword" />
          </Form.Item>
          <Form.Item name="status" label="状态">
            <Select
              allowClear
              style={{ width: 100 }}
              options={[
                { value: 'Y', label: '启用' },
                { value: 'N', label: '停用' },
              ]}
            />
          </Form.Item>
        </>
      }
      toolbar={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/fees/feeitemadd')} data-testid="item-add">
          新增收费项目
        </Button>
      }
    />
  );
}
