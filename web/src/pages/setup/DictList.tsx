import { useMemo, useState } from 'react';
import { Badge, Button, Card, Col, Form, Input, InputNumber, Menu, Modal, Radio, Row, Select, Space, Table, Tag, Typography } from 'antd';
import type { ButtonProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { DICT_ITEM_SCOPE, DICT_SCOPE, DICT_STATUS, DICT_TONE, DICT_KEEPERS, type DictItem, type DictType } from '@wuye/contract/setup/dict';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call, request } from '../../api';
import { noticeSuccess } from '../../api/feedback';
import { EnumTag, useCanWrite, usePagination } from '../../components/resource';
import { useAppStore } from '../../stores/app';
import { useUser } from '../../stores/user';
import { reloadDictLabels } from './dictLabels';

const TYPES_KEY = ['dict', 'types'] as const;
const ITEMS_KEY = ['dict', 'items'] as const;

/** The form of an editable item (新增 / 编辑). */
function ItemForm({
  type,
  typeName,
  editing,
  onClose,
}: {
  type: string;
  typeName: string;
  editing: DictItem | 'new';
  onClose: (saved: boolean) => void;
}) {
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const isNew = editing === 'new';
  // the group side keeps the group's items only; a community's own are kept in the community
  const onGroupSide = useUser((s) => s.side) === 'group';
  const used = !isNew && editing.used > 0;
  const initial = isNew
    ? { scope: onGroupSide ? 'group' : 'community', sort: 0, tone: 'default', status: 'Y', remark: '' }
    : {
        label: editing.label,
        value: editing.value,
        sort: editing.sort,
        tone: editing.tone,
        status: editing.status,
        remark: editing.remark,
      };
  const submit = async () => {
    const v = (await form.validateFields()) as Record<string, string | number>;
    setSaving(true);
    try {
      const res = isNew
        ? await request('dictadd', { type: type as 'owner_tag', ...(v as object) } as never)
        : await request('dictedit', { id: editing.id, ...(v as object) } as never);
      noticeSuccess(res.return_msg);
      onClose(true);
    } catch {
      /* shown by the client; the form stays open */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={isNew ? `新增${typeName}` : `编辑${typeName}`}
      onOk={() => void submit()}
      onCancel={() => onClose(false)}
      okButtonProps={{ loading: saving, 'data-testid': 'dict-save' } as ButtonProps}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial}>
        {isNew && (
          <Form.Item name="scope" label="适用范围" required>
            <Radio.Group options={enumOptions(DICT_ITEM_SCOPE).filter((o) => !onGroupSide || o.value === 'group')} />
          </Form.Item>
        )}
        <Form.Item name="label" label="标签" rules={[{ required: true, whitespace: true, message: '请输入标签' }, { max: 100 }]}>
          <Input placeholder="页面上显示的文字" data-testid="dict-label" />
        </Form.Item>
        <Form.Item
          name="value"
          label="字典值"
          rules={[
            { required: true, whitespace: true, message: '请输入字典值' },
            { max: 100 },
            { pattern: /^\S+$/, message: '字典值不能包含空格' },
          ]}
          help={used ? `已被 ${editing.used} 条记录使用，不能修改` : undefined}
        >
          <Input disabled={used} placeholder="保存到记录中的值，类型内唯一" data-testid="dict-value" />
        </Form.Item>
        <Space size="large" wrap>
          <Form.Item name="sort" label="排序">
            <InputNumber min={0} max={9999} precision={0} />
          </Form.Item>
          <Form.Item name="tone" label="颜色">
            <Select
              style={{ width: 120 }}
              options={enumOptions(DICT_TONE).map((o) => ({ value: o.value, label: <EnumTag enum={DICT_TONE} value={o.value} /> }))}
            />
          </Form.Item>
          <Form.Item name="status" label="状态">
            <Radio.Group options={enumOptions(DICT_STATUS)} />
          </Form.Item>
        </Space>
        <Form.Item name="remark" label="备注" rules={[{ max: 200 }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 改标签 of a system item: its value is the code's; an empty label restores the code's word. */
function LabelForm({ item, typeName, onClose }: { item: DictItem; typeName: string; onClose: (saved: boolean) => void }) {
  const [label, setLabel] = useState(item.label === item.default_label ? '' : item.label);
  const [saving, setSaving] = useState(false);
  const save = async (next: string) => {
    setSaving(true);
    try {
      const res = await request('dictlabel', { type: item.type, value: item.value, label: next.trim() });
      noticeSuccess(res.return_msg);
      onClose(true);
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`修改${typeName}的标签`}
      onCancel={() => onClose(false)}
      footer={[
        <Button
          key="reset"
          onClick={() => void save('')}
          disabled={saving || item.label === item.default_label}
          data-testid="dict-label-reset"
        >
          恢复默认
        </Button>,
        <Button key="cancel" onClick={() => onClose(false)}>
          取消
        </Button>,
        <Button key="ok" type="primary" loading={saving} onClick={() => void save(label)} data-testid="dict-label-save">
          保存
        </Button>,
      ]}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        值“{item.value}”由系统使用，不能修改；新标签会显示在所有列表、筛选、表单与导出中（本集团各小区）。
      </Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label="默认标签">
          <Input value={item.default_label} disabled />
        </Form.Item>
        <Form.Item label="新标签" help="留空则恢复默认标签">
          <Input
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            maxLength={100}
            placeholder={item.default_label}
            data-testid="dict-new-label"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /setup/dict_list (数据字典): the types on the left (system: the code's coded values, whose labels
 * the group renames; editable: visitor reasons, car brands, owner tags), their items on the right.
 */
export default function DictList() {
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(DICT_KEEPERS);
  const mobile = useAppStore((s) => s.device) === 'mobile';
  // the chosen type lives in the address: a rename redraws the page with the new words
  const [params, setParams] = useSearchParams();
  const [labelFilter, setLabelFilter] = useState('');
  const [statusFilter, setStatusFilter] = useState<'' | 'Y' | 'N'>('');
  const [page, setPage] = useState({ page: 1, limit: 10 });
  const [editing, setEditing] = useState<DictItem | 'new' | null>(null);
  const [renaming, setRenaming] = useState<DictItem | null>(null);

  const types = useQuery({ queryKey: TYPES_KEY, queryFn: () => call('dicttypelist') });
  const typeList = types.data?.items ?? [];
  const typeKey = params.get('type') || typeList[0]?.key || '';
  const type: DictType | undefined = typeList.find((t) => t.key === typeKey);
  const system = type?.scope === 'system';
  const filters = { type: typeKey, label: labelFilter || undefined, status: statusFilter || undefined };
  const items = useQuery({
    queryKey: [...ITEMS_KEY, filters, page],
    queryFn: () => call('dictlist', { ...filters, ...page }),
    enabled: !!typeKey,
    retry: false,
  });
  const list = {
    items: items.data?.items ?? [],
    total: items.data?.total ?? 0,
    loading: items.isFetching,
    page: page.page,
    limit: page.limit,
    setPage: (p: number, limit?: number) => setPage({ page: p, limit: limit ?? page.limit }),
  };
  const pagination = usePagination(list);

  const choose = (key: string) => {
    setParams({ type: key }, { replace: true });
    setPage({ page: 1, limit: page.limit });
  };
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['dict'] });
  };
  const remove = (row: DictItem) =>
    Modal.confirm({
      title: `删除“${row.label}”？`,
      content: '删除后不能恢复；已被使用的值不能删除，可以停用。',
      okType: 'danger',
      okButtonProps: { 'data-testid': 'dict-del-ok' } as ButtonProps,
      onOk: async () => {
        const res = await request('dictdel', { id: row.id });
        noticeSuccess(res.return_msg);
        await refresh();
      },
    });

  const columns: ColumnsType<DictItem> = useMemo(() => {
    const cols: ColumnsType<DictItem> = [
      { key: 'label', title: '标签', dataIndex: 'label', render: (v: string, r) => <Tag color={r.tone}>{v}</Tag> },
      {
        key: 'value',
        title: '值',
        dataIndex: 'value',
        render: (v: string) => <Typography.Text code>{v === '' ? '（空）' : v}</Typography.Text>,
      },
    ];
    if (system) cols.push({ key: 'default_label', title: '默认标签', dataIndex: 'default_label' });
    else
      cols.push(
        { key: 'sort', title: '排序', dataIndex: 'sort', width: 70 },
        { key: 'status', title: '状态', dataIndex: 'status', width: 80, render: (v: string) => <EnumTag enum={DICT_STATUS} value={v} /> },
        { key: 'used', title: '使用数', dataIndex: 'used', width: 80 },
        { key: 'remark', title: '备注', dataIndex: 'remark', ellipsis: true },
      );
    cols.push({
      key: 'scope',
      title: '来源',
      dataIndex: 'scope',
      width: 80,
      render: (v: string) => <EnumTag enum={DICT_SCOPE} value={v} />,
    });
    if (canWrite)
      cols.push({
        key: 'op',
        title: '操作',
        width: system ? 90 : 140,
        render: (_: unknown, r) =>
          system ? (
            <Button size="small" onClick={() => setRenaming(r)} data-testid={`dict-rename-${r.value}`}>
              改标签
            </Button>
          ) : (
            <Space size={4}>
              <Button size="small" onClick={() => setEditing(r)} data-testid={`dict-edit-${r.value}`}>
                编辑
              </Button>
              <Button size="small" danger onClick={() => remove(r)} data-testid={`dict-del-${r.value}`}>
                删除
              </Button>
            </Space>
          ),
      });
    return cols;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [system, canWrite]);

  const typeItems = (scope: 'system' | 'custom') =>
    typeList
      .filter((t) => t.scope === scope)
      .map((t) => ({
        key: t.key,
        label: (
          <span data-testid={`dict-type-${t.key}`}>
            {t.name}
            {t.renamed > 0 && <Badge count={`改 ${t.renamed}`} size="small" color="orange" style={{ marginLeft: 6 }} />}
            <Typography.Text type="secondary" style={{ marginLeft: 6 }}>
              {t.count}
            </Typography.Text>
          </span>
        ),
      }));
  const typePicker = mobile ? (
    <Select
      style={{ width: '100%', marginBottom: 12 }}
      value={typeKey || undefined}
      onChange={choose}
      data-testid="dict-type-select"
      options={[
        { label: '系统（只改标签）', options: typeList.filter((t) => t.scope === 'system').map((t) => ({ value: t.key, label: t.name })) },
        { label: '可维护', options: typeList.filter((t) => t.scope === 'custom').map((t) => ({ value: t.key, label: t.name })) },
      ]}
    />
  ) : (
    <Menu
      mode="inline"
      selectedKeys={[typeKey]}
      onClick={(e) => choose(e.key)}
      style={{ borderInlineEnd: 'none' }}
      items={[
        { type: 'group', key: 'system', label: '系统（只改标签）', children: typeItems('system') },
        { type: 'group', key: 'custom', label: '可维护', children: typeItems('custom') },
      ]}
    />
  );

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={7} lg={5}>
        <Card
          variant="borderless"
          title={mobile ? undefined : '字典类型'}
          loading={types.isLoading}
          styles={{ body: { padding: mobile ? 12 : 8 } }}
        >
          {typePicker}
        </Card>
      </Col>
      <Col xs={24} md={17} lg={19}>
        <Card variant="borderless" title={type ? `${type.name}` : '字典项'} data-testid="dict-items">
          <Space wrap style={{ marginBottom: 12 }}>
            <Input.Search
              allowClear
              placeholder="按标签搜索"
              style={{ width: 200 }}
              onSearch={(v) => {
                setLabelFilter(v.trim());
                setPage({ page: 1, limit: page.limit });
              }}
              data-testid="dict-filter-label"
            />
            {!system && (
              <Select
                allowClear
                placeholder="状态"
                style={{ width: 100 }}
                value={statusFilter || undefined}
                onChange={(v?: 'Y' | 'N') => {
                  setStatusFilter(v ?? '');
                  setPage({ page: 1, limit: page.limit });
                }}
                options={enumOptions(DICT_STATUS)}
              />
            )}
            {!system && canWrite && type && (
              <Button type="primary" onClick={() => setEditing('new')} data-testid="dict-add">
                新增
              </Button>
            )}
          </Space>
          {system && (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
              系统使用这些值，不能增删或改值；改标签后本集团所有页面与导出显示新标签。
            </Typography.Paragraph>
          )}
          <Table<DictItem>
            rowKey={(r) => `${r.type}:${r.value}:${r.id}`}
            size="middle"
            columns={columns}
            dataSource={list.items}
            loading={list.loading}
            pagination={pagination}
            scroll={{ x: 'max-content' }}
          />
        </Card>
      </Col>
      {editing && type && (
        <ItemForm
          type={type.key}
          typeName={type.name}
          editing={editing}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void refresh();
          }}
        />
      )}
      {renaming && type && (
        <LabelForm
          item={renaming}
          typeName={type.name}
          onClose={(saved) => {
            setRenaming(null);
            // the new word everywhere: the labels again, then every list (the page redraws)
            if (saved) void refresh().then(() => reloadDictLabels(queryClient));
          }}
        />
      )}
    </Row>
  );
}
