import { useState } from 'react';
import { Button, Form, Input, InputNumber, Modal, Space } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { CostTypeRow } from '@wuye/contract/fees';
import { useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { useActionFixed } from './shared';
import { invalidateResource } from '../../components/resource';

interface CateForm {
  id?: number;
  cost_type: string;
  title: string;
  sort: number;
}

/** Cost types (/fees/feeitemcatelist): the fee categories bills are grouped by. */
export default function FeeItemCateList() {
  const list = useList('feeitemcatelist', { sort: 'asc' });
  const queryClient = useQueryClient();
  const confirmDelete = useConfirmDelete();
  const [editing, setEditing] = useState<CateForm | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<CateForm>();

  const open = (row?: CostTypeRow) => {
    const v = row ? { id: row.id, cost_type: row.cost_type, title: row.title, sort: row.sort } : { cost_type: '', title: '', sort: 0 };
    setEditing(v);
    form.setFieldsValue(v);
  };
  const changed = () => {
    list.reload();
    void invalidateResource(queryClient, 'costtype');
  };
  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const answer = editing?.id
        ? await request('feeitemcateedit', { id: editing.id, title: v.title, sort: v.sort })
        : await request('feeitemcateadd', { cost_type: v.cost_type, title: v.title, sort: v.sort });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setEditing(null);
      changed();
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  const actionFixed = useActionFixed();
  const columns: TableColumnsType<CostTypeRow> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    { title: '编码', dataIndex: 'cost_type', width: 140 },
    { title: '名称', dataIndex: 'title', width: 160 },
    { title: '排序', dataIndex: 'sort', width: 80 },
    { title: '收费项目数', dataIndex: 'item_count', width: 110 },
    { title: '创建时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 150,
      fixed: actionFixed,
      render: (_, row) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => open(row)} data-testid={`cate-edit-${row.id}`}>
            编辑
          </Button>
          <Button
            size="small"
            type="link"
            danger
            data-testid={`cate-del-${row.id}`}
            onClick={() =>
              confirmDelete(async () => {
                const answer = await request('feeitemcatedel', { id: row.id });
                noticeSuccess(answer.return_msg ?? '操作成功');
                changed();
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
    <>
      <TablePage<CostTypeRow>
        testId="feeitemcate-page"
        list={list}
        columns={columns}
        rowKey="id"
        title="费用类型"
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open()} data-testid="cate-add">
            新增费用类型
          </Button>
        }
      />
      <Modal
        open={!!editing}
        title={editing?.id ? '编辑费用类型' : '新增费用类型'}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        confirmLoading={saving}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'cate-save' } as never}
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="cost_type"
            label="编码"
            rules={[{ required: true, pattern: /^[a-z][a-z0-9_]{1,29}$/, message: '小写字母开头，只能包含小写字母、数字和下划线' }]}
          >
            <Input disabled={!!editing?.id} placeholder="例如 heating" data-testid="cate-code" />
          </Form.Item>
          <Form.Item name="title" label="名称" rules={[{ required: true, max: 20, message: '请输入名称（最多20字）' }]}>
            <Input data-testid="cate-title" />
          </Form.Item>
          <Form.Item name="sort" label="排序">
            <InputNumber min={0} max={9999} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
