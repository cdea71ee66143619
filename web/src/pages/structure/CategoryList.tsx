import { useState } from 'react';
import { Button, Form, Input, InputNumber, Modal, Select, Space, Table } from 'antd';
import type { RoomCategory } from '@wuye/contract';
import { ROOM_CATEGORY_KIND_TEXT, ROOM_CATEGORY_KINDS } from '@wuye/contract/structure';
import { useList } from '../../api/useList';
import { PageCard, pagination, save, useCanWrite, useConfirmDelete } from './shared';

interface CategoryForm {
  title: string;
  kind: RoomCategory['kind'];
  sort: number;
}

/** category: room categories (住宅、商铺、写字楼、车位、储藏室…). */
export default function CategoryList() {
  const list = useList('roomcatelist', { title: '' });
  const canWrite = useCanWrite();
  const confirmDelete = useConfirmDelete();
  const [editing, setEditing] = useState<RoomCategory | 'new' | null>(null);
  const [form] = Form.useForm<CategoryForm>();
  const [title, setTitle] = useState('');

  const open = (row: RoomCategory | 'new') => {
    form.setFieldsValue(row === 'new' ? { title: '', kind: 'residence', sort: 0 } : row);
    setEditing(row);
  };
  const submit = async () => {
    const values = await form.validateFields();
    try {
      if (editing === 'new') await save('roomcateadd', values);
      else if (editing) await save('roomcateedit', { id: editing.id, ...values });
      setEditing(null);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };

  return (
    <PageCard
      title="房屋类型"
      extra={
        canWrite && (
          <Button type="primary" onClick={() => open('new')} data-testid="category-add">
            新增类型
          </Button>
        )
      }
    >
      <Space style={{ marginBottom: 16 }}>
        <Input.Search
          placeholder="类型名称"
          allowClear
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          onSearch={(v) => list.setFilters({ title: v })}
          data-testid="category-filter-title"
        />
      </Space>
      <Table<RoomCategory>
        rowKey="id"
        loading={list.loading}
        dataSource={list.items}
        pagination={pagination(list)}
        data-testid="category-table"
        columns={[
          { title: 'ID', dataIndex: 'id', width: 80 },
          { title: '类型名称', dataIndex: 'title' },
          { title: '归类', dataIndex: 'kind_ch' },
          { title: '排序', dataIndex: 'sort', width: 80 },
          { title: '房屋数', dataIndex: 'room_count', width: 100 },
          ...(canWrite
            ? [
                {
                  title: '操作',
                  key: 'op',
                  width: 160,
                  render: (_: unknown, row: RoomCategory) => (
                    <Space>
                      <Button size="small" onClick={() => open(row)}>
                        编辑
                      </Button>
                      <Button
                        size="small"
                        danger
                        onClick={() =>
                          confirmDelete(async () => {
                            await save('roomcatedel', { id: row.id });
                            list.reload();
                          })
                        }
                      >
                        删除
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Modal
        title={editing === 'new' ? '新增房屋类型' : '编辑房屋类型'}
        open={editing !== null}
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item name="title" label="类型名称" rules={[{ required: true, whitespace: true, message: '请输入类型名称' }, { max: 30 }]}>
            <Input data-testid="category-title" />
          </Form.Item>
          <Form.Item name="kind" label="归类" rules={[{ required: true }]}>
            <Select options={ROOM_CATEGORY_KINDS.map((k) => ({ value: k, label: ROOM_CATEGORY_KIND_TEXT[k] }))} />
          </Form.Item>
          <Form.Item name="sort" label="排序">
            <InputNumber min={0} max={99999} precision={0} />
          </Form.Item>
        </Form>
      </Modal>
    </PageCard>
  );
}
