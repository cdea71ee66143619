import { useMemo, useState } from 'react';
import { Alert, App, Button, Card, Form, Input, Modal, Radio, Select, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enumKeys, enumOptions } from '@wuye/contract/kit/resource';
import {
  PAY_FEE_KIND,
  PAY_PROVIDER,
  type PayFeeKind,
  type PayMerchantItem,
  type PayProvider,
  type SetpayInfo,
} from '@wuye/contract/leader/setpay';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { validValues } from '../../utils/forms';

const INFO_KEY = ['setpayinfo'];

interface MerchantForm {
  rid: number;
  fee_kind: PayFeeKind;
  provider: PayProvider;
  title: string;
  status: boolean;
  mch_id?: string;
  app_id?: string;
  serial_no?: string;
  api_v3_secret?: string;
  private_key_secret?: string;
  public_key_secret?: string;
  remark?: string;
}

/** A key field: written only; on edit its mask says what is stored and a blank leaves it. */
function keyHelp(masked: string | undefined, editing: boolean): string {
  if (!editing) return '加密保存，保存后不再显示';
  return masked ? `${masked}，留空不修改` : '未设置';
}

function MerchantModal({
  open,
  editing,
  info,
  onClose,
}: {
  open: boolean;
  editing: PayMerchantItem | null;
  info: SetpayInfo | undefined;
  onClose: (saved: boolean) => void;
}) {
  const [form] = Form.useForm<MerchantForm>();
  const [saving, setSaving] = useState(false);
  const provider = Form.useWatch('provider', form) ?? editing?.provider ?? 'wechat';
  const regionOptions = [
    { value: 0, label: '集团默认（未单独配置的小区使用）' },
    ...(info?.regions ?? []).map((r) => ({ value: r.rid, label: r.title })),
  ];
  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const payload = {
        ...v,
        rid: v.rid || '',
        status: v.status ? ('Y' as const) : ('N' as const),
        mch_id: v.mch_id ?? '',
        app_id: v.app_id ?? '',
        serial_no: v.serial_no ?? '',
        api_v3_secret: v.api_v3_secret ?? '',
        private_key_secret: v.private_key_secret ?? '',
        public_key_secret: v.public_key_secret ?? '',
        remark: v.remark ?? '',
      };
      const answer = editing ? await request('setpayedit', { ...payload, id: editing.id }) : await request('setpayadd', payload);
      noticeSuccess(answer.return_msg);
      onClose(true);
    } catch {
      // the client showed the refusal
    } finally {
      setSaving(false);
    }
  };
  const wechat = provider === 'wechat';
  return (
    <Modal
      open={open}
      title={editing ? '编辑支付商户' : '新增支付商户'}
      width={640}
      destroyOnHidden
      onCancel={() => onClose(false)}
      onOk={() => void submit()}
      okText="保存"
      okButtonProps={{ loading: saving, 'data-testid': 'setpay-save' } as never}
      afterOpenChange={(visible) => {
        if (!visible) return;
        form.resetFields();
        form.setFieldsValue(
          editing
            ? {
                rid: editing.rid ?? 0,
                fee_kind: editing.fee_kind,
                provider: editing.provider,
                title: editing.title,
                status: editing.status === 'Y',
                mch_id: editing.mch_id,
                app_id: editing.app_id,
                serial_no: editing.serial_no,
                remark: editing.remark,
              }
            : { rid: 0, fee_kind: 'all', provider: 'wechat', status: true },
        );
      }}
    >
      <Form form={form} layout="horizontal" labelCol={{ span: 6 }} wrapperCol={{ span: 17 }} preserve={false}>
        <Form.Item name="rid" label="适用小区" rules={[{ required: true }]}>
          <Select options={regionOptions} data-testid="setpay-rid" showSearch optionFilterProp="label" />
        </Form.Item>
        <Form.Item name="fee_kind" label="费用类型" rules={[{ required: true, message: '请选择费用类型' }]}>
          <Select options={enumOptions(PAY_FEE_KIND)} data-testid="setpay-fee-kind" />
        </Form.Item>
        <Form.Item name="provider" label="支付渠道" rules={[{ required: true }]}>
          <Radio.Group options={enumOptions(PAY_PROVIDER)} data-testid="setpay-provider" />
        </Form.Item>
        <Form.Item name="title" label="商户名称" rules={[{ required: true, message: '请输入商户名称' }, { max: 30 }]}>
          <Input placeholder="如 阳光花园物业费" data-testid="setpay-title" />
        </Form.Item>
        {wechat && (
          <Form.Item
            name="mch_id"
            label="商户号"
            rules={[
              { required: true, message: '请输入微信支付商户号' },
              { pattern: /^\d{8,12}$/, message: '商户号应为8至12位数字' },
            ]}
          >
            <Input data-testid="setpay-mch-id" />
          </Form.Item>
        )}
        <Form.Item
          name="app_id"
          label="AppID"
          tooltip={wechat ? '公众号或小程序的AppID' : '支付宝开放平台应用的AppID'}
          rules={[{ required: true, message: '请输入AppID' }]}
        >
          <Input data-testid="setpay-app-id" />
        </Form.Item>
        {wechat && (
          <>
            <Form.Item name="serial_no" label="证书序列号" rules={[{ required: true, message: '请输入商户API证书序列号' }]}>
              <Input data-testid="setpay-serial-no" />
            </Form.Item>
            <Form.Item
              name="api_v3_secret"
              label="APIv3密钥"
              extra={keyHelp(editing?.api_v3_masked, !!editing)}
              rules={editing?.api_v3_masked && editing.provider === 'wechat' ? [] : [{ required: true, message: '请输入APIv3密钥' }]}
            >
              <Input.Password autoComplete="new-password" data-testid="setpay-api-v3" />
            </Form.Item>
          </>
        )}
        <Form.Item
          name="private_key_secret"
          label={wechat ? '商户私钥' : '应用私钥'}
          extra={keyHelp(editing?.private_key_masked, !!editing)}
          rules={editing?.private_key_masked && editing.provider === provider ? [] : [{ required: true, message: '请输入私钥' }]}
        >
          <Input.TextArea
            rows={3}
            placeholder={wechat ? '粘贴 apiclient_key.pem 的完整内容' : '粘贴RSA2应用私钥'}
            data-testid="setpay-private-key"
          />
        </Form.Item>
        {!wechat && (
          <Form.Item
            name="public_key_secret"
            label="支付宝公钥"
            extra={keyHelp(editing?.public_key_masked, !!editing)}
            rules={editing?.public_key_masked && editing.provider === 'alipay' ? [] : [{ required: true, message: '请输入支付宝公钥' }]}
          >
            <Input.TextArea rows={3} data-testid="setpay-public-key" />
          </Form.Item>
        )}
        <Form.Item name="status" label="启用" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={[{ max: 100 }]}>
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const sourceTone: Record<string, string> = { own: 'green', own_all: 'green', group: 'blue', group_all: 'blue', none: 'red' };

export default function SetPay() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const confirmDelete = useConfirmDelete();
  const info = useQuery({ queryKey: INFO_KEY, queryFn: () => call('setpayinfo', {}) });
  const [modal, setModal] = useState<{ open: boolean; editing: PayMerchantItem | null }>({ open: false, editing: null });
  const [scope, setScope] = useState<number | 'all'>('all');
  const [testing, setTesting] = useState<number | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: INFO_KEY });

  const merchants = useMemo(
    () => (info.data?.merchants ?? []).filter((m) => scope === 'all' || (m.rid ?? 0) === scope),
    [info.data, scope],
  );

  const test = async (m: PayMerchantItem) => {
    setTesting(m.id);
    try {
      const answer = await request('setpaytest', { id: m.id });
      if (answer.data.ok) void message.success(answer.data.message);
      else void message.error(answer.data.message, 6);
      await reload();
    } catch {
      // shown by the client
    } finally {
      setTesting(null);
    }
  };

  const columns: TableColumnsType<PayMerchantItem> = [
    {
      title: '适用范围',
      dataIndex: 'region_title',
      width: 120,
      render: (t: string, m) => (m.rid === null ? <Tag color="blue">集团默认</Tag> : t),
    },
    { title: '费用类型', dataIndex: 'fee_kind_ch', width: 110 },
    {
      title: '支付渠道',
      dataIndex: 'provider_ch',
      width: 90,
      render: (t: string, m) => <Tag color={m.provider === 'wechat' ? 'green' : 'blue'}>{t}</Tag>,
    },
    { title: '商户名称', dataIndex: 'title', width: 190 },
    {
      title: '商户号 / AppID',
      key: 'ids',
      width: 200,
      render: (_, m) => (
        <Space direction="vertical" size={0}>
          {m.mch_id && <span>商户号 {m.mch_id}</span>}
          <Typography.Text type="secondary">{m.app_id}</Typography.Text>
        </Space>
      ),
    },
    {
      title: '密钥',
      key: 'keys',
      width: 230,
      render: (_, m) => {
        const keys: Array<[string, string]> =
          m.provider === 'wechat'
            ? [
                ['APIv3密钥', m.api_v3_masked],
                ['商户私钥', m.private_key_masked],
              ]
            : [
                ['应用私钥', m.private_key_masked],
                ['支付宝公钥', m.public_key_masked],
              ];
        return (
          <Space direction="vertical" size={0} data-testid={`setpay-keys-${m.id}`}>
            {keys.map(([label, masked]) => (
              <span key={label}>
                {label}：
                {masked ? <Typography.Text code>{masked}</Typography.Text> : <Typography.Text type="danger">未设置</Typography.Text>}
              </span>
            ))}
          </Space>
        );
      },
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 70,
      render: (s: string, m) => <Tag color={s === 'Y' ? 'success' : 'default'}>{m.status_ch}</Tag>,
    },
    {
      title: '最近测试',
      key: 'test',
      width: 170,
      render: (_, m) =>
        m.last_test_ok ? (
          <Tooltip title={m.last_test_result}>
            <Space direction="vertical" size={0} data-testid={`setpay-test-result-${m.id}`}>
              <Tag color={m.last_test_ok === 'Y' ? 'success' : 'error'}>{m.last_test_ok === 'Y' ? '通过' : '未通过'}</Tag>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {m.last_test_time}
              </Typography.Text>
            </Space>
          </Tooltip>
        ) : (
          <Typography.Text type="secondary">未测试</Typography.Text>
        ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 170,
      fixed: 'right',
      render: (_, m) => (
        <Space size={4}>
          <Button size="small" loading={testing === m.id} onClick={() => void test(m)} data-testid={`setpay-test-${m.id}`}>
            测试
          </Button>
          <Button size="small" type="link" onClick={() => setModal({ open: true, editing: m })} data-testid={`setpay-edit-${m.id}`}>
            编辑
          </Button>
          <Button
            size="small"
            type="link"
            danger
            data-testid={`setpay-del-${m.id}`}
            onClick={() =>
              confirmDelete(async () => {
                const answer = await request('setpaydel', { id: m.id });
                noticeSuccess(answer.return_msg);
                await reload();
              })
            }
          >
            删除
          </Button>
        </Space>
      ),
    },
  ];

  type RegionRow = SetpayInfo['regions'][number];
  const regionColumns: TableColumnsType<RegionRow> = [
    { title: '小区', dataIndex: 'title', width: 120, fixed: 'left' },
    ...enumKeys(PAY_FEE_KIND).map((kind) => ({
      title: PAY_FEE_KIND[kind].text,
      key: kind,
      width: 150,
      render: (_: unknown, r: RegionRow) => {
        const a = r.applies.find((x) => x.fee_kind === kind);
        if (!a) return null;
        return (
          <Space direction="vertical" size={0}>
            <Tag color={sourceTone[a.source]}>{a.source_ch}</Tag>
            {a.merchant_title && (
              <Typography.Text ellipsis style={{ maxWidth: 140, fontSize: 12 }} title={a.merchant_title}>
                {a.merchant_title}
              </Typography.Text>
            )}
          </Space>
        );
      },
    })),
  ];

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Card
        variant="borderless"
        title="支付商户设置"
        extra={
          <Space>
            <Select
              style={{ width: 200 }}
              value={scope}
              onChange={setScope}
              data-testid="setpay-scope"
              options={[
                { value: 'all', label: '全部商户' },
                { value: 0, label: '集团默认' },
                ...(info.data?.regions ?? []).map((r) => ({ value: r.rid, label: r.title })),
              ]}
            />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setModal({ open: true, editing: null })} data-testid="setpay-add">
              新增商户
            </Button>
          </Space>
        }
      >
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message="每个小区的每类费用收款到一个商户：优先使用本小区该类费用的商户，其次本小区“全部费用”的商户，再次集团默认商户。密钥加密保存，只显示后四位；编辑时留空则保持原密钥。"
        />
        <Table<PayMerchantItem>
          rowKey="id"
          size="middle"
          loading={info.isLoading}
          columns={columns}
          dataSource={merchants}
          pagination={false}
          scroll={{ x: 1340 }}
          data-testid="setpay-table"
        />
      </Card>
      <Card variant="borderless" title="各小区适用的商户" size="small">
        <Table<RegionRow>
          rowKey="rid"
          size="small"
          loading={info.isLoading}
          columns={regionColumns}
          dataSource={info.data?.regions ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          scroll={{ x: 1200 }}
          data-testid="setpay-applies"
        />
      </Card>
      <MerchantModal
        open={modal.open}
        editing={modal.editing}
        info={info.data}
        onClose={(saved) => {
          setModal({ open: false, editing: modal.editing });
          if (saved) void reload();
        }}
      />
    </Space>
  );
}
