import { useState } from 'react';
import { Button, Form, Input, InputNumber, Modal, Select, Space, Table, type ButtonProps } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import type { Unit } from '@wuye/contract';
import { useList } from '../../api/useList';
import { PageCard, pagination, save, useCanWrite, useConfirmDelete, useSmallList } from './shared';

interface UnitForm {
  bid: number;
  title: string;
  sort: number;
}

/** unitlist: units of the community, filtered by building and title. */
export default function UnitList() {
  const [params] = useSearchParams();
  const initialBid = Number(params.get('bid')) || undefined;
  const list = useList('unitlist', { bid: initialBid, title: '' });
  const buildings = useSmallList('building_small_list', {});
  const canWrite = useCanWrite();
  const confirmDelete = useConfirmDelete();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<Unit | 'new' | null>(null);
  const [form] = Form.useForm<UnitForm>();
  const [bid, setBid] = useState<number | undefined>(initialBid);
  const [title, setTitle] = useState('');

  const open = (row: Unit | 'new') => {
    form.setFieldsValue(row === 'new' ? { bid, title: '', sort: 0 } : row);
    setEditing(row);
  };
  const submit = async () => {
    const values = await form.validateFields();
    try {
      if (editing === 'new') await save('unitadd', values);
      else if (editing) await save('unitedit', { id: editing.id, ...values });
      setEditing(null);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };

  return (
    <PageCard
      title="单元管理"
      extra={
        canWrite && (
          <Button type="primary" onClick={() => open('new')} data-testid="unit-add">
            新增单元
          </Button>
        )
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <Select
          placeholder="全部楼栋"
          allowClear
          style={{ width: 160 }}
          options={buildings}
          value={bid}
          data-testid="unit-filter-bid"
          onChange={(v?: number) => {
            setBid(v);
            list.setFilters({ bid: v, title });
          }}
        />
        <Input
          placeholder="单元名称"
          allowClear
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          onPressEnter={() => list.setFilters({ bid, title })}
        />
        <Button type="primary" onClick={() => list.setFilters({ bid, title })}>
          搜索
        </Button>
      </Space>
      <Table<Unit>
        rowKey="id"
        loading={list.loading}
        dataSource={list.items}
        pagination={pagination(list)}
        data-testid="unit-table"
        columns={[
          { title: 'ID', dataIndex: 'id', width: 80 },
          { title: '楼栋', dataIndex: 'building_title' },
          { title: '单元名称', dataIndex: 'title' },
          {
            title: '房屋数',
            dataIndex: 'room_count',
            width: 100,
            render: (n: number, row) => <a onClick={() => void navigate(`/basis/roomlist?bid=${row.bid}&tid=${row.id}`)}>{n}</a>,
          },
          { title: '排序', dataIndex: 'sort', width: 80 },
          { title: '创建时间', dataIndex: 'create_time', width: 170 },
          ...(canWrite
            ? [
                {
                  title: '操作',
                  key: 'op',
                  width: 150,
                  render: (_: unknown, row: Unit) => (
                    <Space>
                      <Button size="small" onClick={() => open(row)}>
                        编辑
                      </Button>
                      <Button
                        size="small"
                        danger
                        onClick={() =>
                          confirmDelete(async () => {
                            await save('unitdel', { id: row.id });
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
        title={editing === 'new' ? '新增单元' : '编辑单元'}
        open={editing !== null}
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'unit-save' } as ButtonProps}
      >
        <Form form={form} layout="vertical">
          <Form.Item name="bid" label="所属楼栋" rules={[{ required: true, message: '请选择楼栋' }]}>
            <Select options={buildings} data-testid="unit-bid" showSearch optionFilterProp="label" />
          </Form.Item>
          <Form.Item name="title" label="单元名称" rules={[{ required: true, whitespace: true, message: '请输入单元名称' }, { max: 30 }]}>
            <Input placeholder="如 1单元" data-testid="unit-title" />
          </Form.Item>
          <Form.Item name="sort" label="排序">
            <InputNumber min={0} max={99999} precision={0} />
          </Form.Item>
        </Form>
      </Modal>
    </PageCard>
  );
}
