import { useEffect, useState } from 'react';
import { Alert, Button, Card, Col, Divider, Form, Input, Radio, Row, Select, Space, Typography } from 'antd';
import { ApiOutlined, SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  INVOICE_KIND,
  INVOICE_MERGE_RULE,
  INVOICE_PROVIDER,
  INVOICE_PUSH,
  INVOICE_SANDBOX_MODE,
  TAXPAYER_KIND,
  invoiceSettingsFields,
  type InvoiceSettings,
} from '@wuye/contract/invoice/invoices';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { zodRule } from '../../components/resource';
import { validValues } from '../../utils/forms';
import ItemMapCard from './ItemMapCard';
import './invoice.css';

type Values = Omit<InvoiceSettings, 'configured' | 'app_secret_masked' | 'update_time' | 'updated_by'> & { app_secret?: string };

const YN = [
  { value: 'Y', label: '是' },
  { value: 'N', label: '否' },
];

/** A form item whose rule is the contract's own (the server parses the payload with it). */
function Field({
  name,
  label,
  children,
  choose,
}: {
  name: keyof typeof invoiceSettingsFields;
  label: string;
  children: React.ReactNode;
  choose?: boolean;
}) {
  return (
    <Col xs={24} md={12} xl={8}>
      <Form.Item name={name} label={label} rules={[zodRule(invoiceSettingsFields[name], label, choose)]}>
        {children}
      </Form.Item>
    </Col>
  );
}

/** 开票设置 (/invoice/invoiceset): the seller, who signs, the policies, the provider, and the fee items' tax mapping. */
export default function InvoiceSet() {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const q = useQuery({ queryKey: ['invoicesetinfo'], queryFn: () => call('invoicesetinfo'), retry: false, refetchOnWindowFocus: false });
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null);
  const info = q.data;

  useEffect(() => {
    if (!info) return;
    const { configured: _c, app_secret_masked: _m, update_time: _u, updated_by: _b, ...values } = info;
    form.setFieldsValue({ ...values, app_secret: '' });
  }, [info, form]);

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const answer = await request('invoiceset', { ...v, app_secret: v.app_secret ?? '' } as never);
      noticeSuccess(answer.return_msg);
      await queryClient.invalidateQueries({ queryKey: ['invoicesetinfo'] });
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  const testProvider = async () => {
    setTesting(true);
    setTest(null);
    try {
      setTest(await call('invoiceprovidertest'));
    } catch {
      /* shown by the client */
    } finally {
      setTesting(false);
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="invoiceset-page">
      <Card
        title="开票设置"
        loading={q.isLoading}
        extra={
          info?.update_time ? (
            <Typography.Text type="secondary" className="invoice-hint">
              {info.updated_by} 于 {info.update_time} 保存
            </Typography.Text>
          ) : null
        }
      >
        {info?.configured === 'N' && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title="尚未设置开票信息：保存销方信息并为收费项目设置开票映射后才能开票。"
          />
        )}
        <Form<Values>
          form={form}
          layout="vertical"
          data-testid="invoiceset-form"
          initialValues={{
            taxpayer_kind: 'general',
            default_kind: 'p',
            auto_issue: 'N',
            merge_rule: 'payment',
            allow_future: 'N',
            push_default: 'none',
            provider: 'sandbox',
            sandbox_mode: 'ok',
          }}
        >
          <Divider titlePlacement="start">销方信息</Divider>
          <Row gutter={16}>
            <Field name="seller_name" label="销方名称">
              <Input maxLength={100} data-testid="invoiceset-seller_name" />
            </Field>
            <Field name="seller_tax_no" label="统一社会信用代码">
              <Input maxLength={18} data-testid="invoiceset-seller_tax_no" style={{ textTransform: 'uppercase' }} />
            </Field>
            <Field name="taxpayer_kind" label="纳税人类型" choose>
              <Radio.Group options={enumOptions(TAXPAYER_KIND)} data-testid="invoiceset-taxpayer_kind" />
            </Field>
            <Field name="seller_address" label="地址">
              <Input maxLength={100} data-testid="invoiceset-seller_address" />
            </Field>
            <Field name="seller_phone" label="电话">
              <Input maxLength={30} data-testid="invoiceset-seller_phone" />
            </Field>
            <Field name="seller_bank" label="开户行">
              <Input maxLength={60} data-testid="invoiceset-seller_bank" />
            </Field>
            <Field name="seller_account" label="银行账号">
              <Input maxLength={40} data-testid="invoiceset-seller_account" />
            </Field>
            <Field name="default_kind" label="默认发票种类" choose>
              <Radio.Group options={enumOptions(INVOICE_KIND)} data-testid="invoiceset-default_kind" />
            </Field>
          </Row>
          <Divider titlePlacement="start">开票人员</Divider>
          <Row gutter={16}>
            <Field name="payee" label="收款人">
              <Input maxLength={20} data-testid="invoiceset-payee" />
            </Field>
            <Field name="checker" label="复核人">
              <Input maxLength={20} data-testid="invoiceset-checker" />
            </Field>
            <Field name="clerk" label="开票人">
              <Input maxLength={20} data-testid="invoiceset-clerk" />
            </Field>
          </Row>
          <Divider titlePlacement="start">开票策略</Divider>
          <Row gutter={16}>
            <Field name="auto_issue" label="线上缴费后自动开票" choose>
              <Radio.Group options={YN} data-testid="invoiceset-auto_issue" />
            </Field>
            <Field name="merge_rule" label="合并规则" choose>
              <Select options={enumOptions(INVOICE_MERGE_RULE)} data-testid="invoiceset-merge_rule" />
            </Field>
            <Field name="allow_future" label="允许预开未来账期" choose>
              <Radio.Group options={YN} data-testid="invoiceset-allow_future" />
            </Field>
            <Field name="push_default" label="默认推送方式" choose>
              <Radio.Group options={enumOptions(INVOICE_PUSH)} data-testid="invoiceset-push_default" />
            </Field>
          </Row>
          <Divider titlePlacement="start">开票平台</Divider>
          <Row gutter={16}>
            <Field name="provider" label="开票平台" choose>
              <Select options={enumOptions(INVOICE_PROVIDER)} data-testid="invoiceset-provider" />
            </Field>
            <Field name="app_key" label="AppKey">
              <Input maxLength={100} autoComplete="off" data-testid="invoiceset-app_key" />
            </Field>
            <Field name="app_secret" label="AppSecret">
              <Input.Password
                maxLength={200}
                autoComplete="new-password"
                placeholder={info?.app_secret_masked ? `${info.app_secret_masked}（不修改请留空）` : '未设置'}
                data-testid="invoiceset-app_secret"
              />
            </Field>
            <Field name="sandbox_mode" label="沙箱模式" choose>
              <Radio.Group options={enumOptions(INVOICE_SANDBOX_MODE)} data-testid="invoiceset-sandbox_mode" />
            </Field>
          </Row>
          {test && (
            <Alert
              type={test.ok ? 'success' : 'error'}
              showIcon
              style={{ marginBottom: 16 }}
              title={test.ok ? '连接成功' : '连接失败'}
              description={test.message}
              data-testid="invoiceset-test-result"
            />
          )}
          <Space wrap>
            <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="invoiceset-save">
              保存设置
            </Button>
            <Button icon={<ApiOutlined />} loading={testing} onClick={() => void testProvider()} data-testid="invoiceset-test">
              测试连接
            </Button>
          </Space>
        </Form>
      </Card>
      <ItemMapCard />
    </Space>
  );
}
