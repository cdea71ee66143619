import { useState } from 'react';
import { Button, Form, Input, InputNumber, Modal, Space, Table, type ButtonProps } from 'antd';
import { useNavigate } from 'react-router';
import type { Building } from '@wuye/contract';
import { useList } from '../../api/useList';
import { PageCard, pagination, save, useCanWrite, useConfirmDelete } from './shared';

interface BuildingForm {
  title: string;
  floors: number;
  sort: number;
  remark: string;
}

/** buildinglist: buildings with their unit and room counts. */
export default function BuildingList() {
  const list = useList('buildinglist', { title: '' });
  const canWrite = useCanWrite();
  const confirmDelete = useConfirmDelete();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<Building | 'new' | null>(null);
  const [form] = Form.useForm<BuildingForm>();
  const [title, setTitle] = useState('');

  const open = (row: Building | 'new') => {
    form.setFieldsValue(row === 'new' ? { title: '', floors: 0, sort: 0, remark: '' } : row);
    setEditing(row);
  };
  const submit = async () => {
    const values = await form.validateFields();
    try {
      if (editing === 'new') await save('buildingadd', values);
      else if (editing) await save('buildingedit', { id: editing.id, ...values });
      setEditing(null);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };

  return (
    <PageCard
      title="楼栋管理"
      extra={
        canWrite && (
          <Space>
            <Button onClick={() => void navigate('/basis/buildingimport')} data-testid="building-import">
              批量导入
            </Button>
            <Button type="primary" onClick={() => open('new')} data-testid="building-add">
              新增楼栋
            </Button>
          </Space>
        )
      }
    >
      <Space style={{ marginBottom: 16 }}>
        <Input
          placeholder="楼栋名称"
          allowClear
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          onPressEnter={() => list.setFilters({ title })}
          data-testid="building-filter-title"
        />
        <Button type="primary" onClick={() => list.setFilters({ title })} data-testid="building-search">
          搜索
        </Button>
      </Space>
      <Table<Building>
        rowKey="id"
        loading={list.loading}
        dataSource={list.items}
        pagination={pagination(list)}
        data-testid="building-table"
        columns={[
          { title: 'ID', dataIndex: 'id', width: 80 },
          { title: '楼栋名称', dataIndex: 'title' },
          { title: '楼层数', dataIndex: 'floors', width: 90 },
          {
            title: '单元数',
            dataIndex: 'unit_count',
            width: 90,
            render: (n: number, row) => <a onClick={() => void navigate(`/basis/unitlist?bid=${row.id}`)}>{n}</a>,
          },
          {
            title: '房屋数',
            dataIndex: 'room_count',
            width: 90,
            render: (n: number, row) => <a onClick={() => void navigate(`/basis/roomlist?bid=${row.id}`)}>{n}</a>,
          },
          { title: '排序', dataIndex: 'sort', width: 80 },
          { title: '备注', dataIndex: 'remark', ellipsis: true },
          { title: '创建时间', dataIndex: 'create_time', width: 170 },
          ...(canWrite
            ? [
                {
                  title: '操作',
                  key: 'op',
                  width: 150,
                  render: (_: unknown, row: Building) => (
                    <Space>
                      <Button size="small" onClick={() => open(row)}>
                        编辑
                      </Button>
                      <Button
                        size="small"
                        danger
                        data-testid={`building-del-${row.id}`}
                        onClick={() =>
                          confirmDelete(async () => {
                            await save('buildingdel', { id: row.id });
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
        title={editing === 'new' ? '新增楼栋' : '编辑楼栋'}
        open={editing !== null}
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'building-save' } as ButtonProps}
      >
        <Form form={form} layout="vertical">
          <Form.Item name="title" label="楼栋名称" rules={[{ required: true, whitespace: true, message: '请输入楼栋名称' }, { max: 30 }]}>
            <Input placeholder="如 1号楼" data-testid="building-title" />
          </Form.Item>
          <Form.Item name="floors" label="地上楼层数">
            <InputNumber min={0} max={200} precision={0} />
          </Form.Item>
          <Form.Item name="sort" label="排序">
            <InputNumber min={0} max={99999} precision={0} />
          </Form.Item>
          <Form.Item name="remark" label="备注" rules={[{ max: 200 }]}>
            <Input.TextArea rows={2} />
          </Form.Item>
        </Form>
      </Modal>
    </PageCard>
  );
}
