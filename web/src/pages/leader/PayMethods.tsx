import { useState } from 'react';
import { Button, Card, Form, Input, InputNumber, Modal, Radio, Space, Switch, Table, Tag, Tooltip } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { PAY_TYPE_CH } from '@wuye/contract/fees';
import { PAY_METHOD_BASES, type PayMethodBase, type PayMethodItem } from '@wuye/contract/leader/paytypes';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useConfirmDelete } from '../../components/useConfirmDelete';

interface Values {
  name: string;
  base: PayMethodBase;
  enabled: boolean;
  ref_required: boolean;
  sort: number;
  remark: string;
}

const yn = (b: boolean): 'Y' | 'N' => (b ? 'Y' : 'N');

/**
 * The group's own payment methods (自定义支付方式, on /setup/paytypelist; docs/product.md#paytypelist):
 * named ways on a system offline method (POS机-工行 on 银行卡), added, edited, and deleted while no
 * receipt or top-up used them; a used one is disabled instead, and keeps its base.
 */
export function PayMethods({ methods, loading, listKey }: { methods: PayMethodItem[]; loading: boolean; listKey: readonly unknown[] }) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<PayMethodItem | 'new' | null>(null);
  const [saving, setSaving] = useState(false);
  const confirmDelete = useConfirmDelete();
  const refresh = () => queryClient.invalidateQueries({ queryKey: listKey });

  const open = (m?: PayMethodItem) => {
    setEditing(m ?? 'new');
    form.setFieldsValue(
      m
        ? { name: m.name, base: m.base, enabled: m.enabled === 'Y', ref_required: m.ref_required === 'Y', sort: m.sort, remark: m.remark }
        : { name: '', base: 'bankcard', enabled: true, ref_required: false, sort: 10, remark: '' },
    );
  };

  const save = async () => {
    const v = await form.validateFields();
    const payload = {
      name: v.name.trim(),
      base: v.base,
      enabled: yn(v.enabled),
      ref_required: yn(v.ref_required),
      sort: v.sort,
      remark: v.remark ?? '',
    };
    setSaving(true);
    try {
      const answer =
        editing && editing !== 'new'
          ? await request('paymethodedit', { id: editing.id, ...payload })
          : await request('paymethodadd', payload);
      noticeSuccess(answer.return_msg);
      setEditing(null);
      await refresh();
    } catch {
      // the client showed the refusal
    } finally {
      setSaving(false);
    }
  };

  const remove = (m: PayMethodItem) =>
    confirmDelete(async () => {
      const answer = await request('paymethoddel', { id: m.id });
      noticeSuccess(answer.return_msg);
      await refresh();
    });

  const columns: TableColumnsType<PayMethodItem> = [
    { title: '名称', dataIndex: 'name', width: 140 },
    { title: '所属方式', dataIndex: 'base_ch', width: 100 },
    {
      title: '启用',
      dataIndex: 'enabled',
      width: 70,
      render: (v: string) => (v === 'Y' ? <Tag color="success">启用</Tag> : <Tag>停用</Tag>),
    },
    {
      title: '计入实收',
      dataIndex: 'counted',
      width: 90,
      render: (v: string, m) => <Tooltip title={`随所属方式（${m.base_ch}）`}>{v === 'Y' ? '是' : '否'}</Tooltip>,
    },
    { title: '须填凭证号', dataIndex: 'ref_required', width: 100, render: (v: string) => (v === 'Y' ? '是' : '否') },
    { title: '排序', dataIndex: 'sort', width: 70 },
    { title: '已使用', dataIndex: 'used', width: 80, render: (u: boolean) => (u ? <Tag color="processing">已使用</Tag> : '未使用') },
    { title: '备注', dataIndex: 'remark', width: 160, ellipsis: true },
    { title: '更新时间', dataIndex: 'update_time', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: 130,
      fixed: 'right',
      render: (_, m) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => open(m)} data-testid={`paymethod-edit-${m.id}`}>
            编辑
          </Button>
          <Tooltip title={m.used ? '已有收款记录，只能停用' : undefined}>
            <Button size="small" type="link" danger disabled={m.used} onClick={() => remove(m)} data-testid={`paymethod-del-${m.id}`}>
              删除
            </Button>
          </Tooltip>
        </Space>
      ),
    },
  ];

  const usedBase = editing && editing !== 'new' && editing.used;
  return (
    <Card
      variant="borderless"
      title="自定义支付方式"
      extra={
        <Button type="primary" onClick={() => open()} data-testid="paymethod-add">
          新增支付方式
        </Button>
      }
    >
      <Table<PayMethodItem>
        rowKey="id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={methods}
        pagination={false}
        scroll={{ x: 1100 }}
        locale={{ emptyText: '暂无自定义支付方式，可按所属方式新增，如“POS机-工行”（银行卡）、“支票”（银行转账）' }}
        data-testid="paymethod-table"
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? '新增支付方式' : '编辑支付方式'}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        okButtonProps={{ loading: saving, 'data-testid': 'paymethod-save' } as never}
        destroyOnHidden
      >
        <Form<Values> form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="name"
            label="名称"
            rules={[
              { required: true, whitespace: true, message: '请填写支付方式名称' },
              { max: 20, message: '名称不能超过20个字' },
            ]}
          >
            <Input maxLength={20} placeholder="如 POS机-工行" data-testid="paymethod-name" />
          </Form.Item>
          <Form.Item
            name="base"
            label="所属方式"
            extra={usedBase ? '已有收款记录，所属方式不能修改' : '按所属方式统计，并随它计入实收'}
            rules={[{ required: true, message: '请选择所属方式' }]}
          >
            <Radio.Group
              disabled={!!usedBase}
              options={PAY_METHOD_BASES.map((b) => ({ value: b, label: PAY_TYPE_CH[b] }))}
              data-testid="paymethod-base"
            />
          </Form.Item>
          <Space size={32}>
            <Form.Item name="enabled" label="启用" valuePropName="checked">
              <Switch data-testid="paymethod-enabled" />
            </Form.Item>
            <Form.Item name="ref_required" label="须填凭证号" valuePropName="checked">
              <Switch data-testid="paymethod-ref" />
            </Form.Item>
            <Form.Item name="sort" label="排序" rules={[{ required: true, message: '请填写排序' }]}>
              <InputNumber min={0} max={999} precision={0} style={{ width: 90 }} />
            </Form.Item>
          </Space>
          <Form.Item name="remark" label="备注">
            <Input maxLength={100} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
