import { useEffect, useState } from 'react';
import { Button, Card, Checkbox, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { enumOptions } from '@wuye/contract/kit/resource';
import { contractType, CUSTOM_FIELD_TYPE, type ContractTypeItem, type CustomFieldDef } from '@wuye/contract/crm/contracts';
import { CRM_ROLES } from '@wuye/contract/crm/roles';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import SafeButton from '../../../components/SafeButton';
import { ResourcePage, useRoles } from '../../../components/resource';

/** The custom fields of a type: name, kind, required, and a select's options; a field keeps its key. */
function FieldsEditor({ value, onChange }: { value?: CustomFieldDef[]; onChange?: (v: CustomFieldDef[]) => void }) {
  const list = value ?? [];
  const set = (i: number, patch: Partial<CustomFieldDef>) => onChange?.(list.map((f, k) => (k === i ? { ...f, ...patch } : f)));
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="type-fields">
      {list.map((f, i) => (
        <Space key={f.key || `new-${i}`} wrap>
          <Input
            value={f.label}
            maxLength={20}
            placeholder="字段名称"
            style={{ width: 120 }}
            onChange={(e) => set(i, { label: e.target.value })}
            data-testid={`type-field-label-${i}`}
          />
          <Select value={f.type} style={{ width: 90 }} options={enumOptions(CUSTOM_FIELD_TYPE)} onChange={(type) => set(i, { type })} />
          {f.type === 'select' && (
            <Select
              mode="tags"
              value={f.options}
              placeholder="选项，回车添加"
              style={{ minWidth: 160 }}
              onChange={(options: string[]) => set(i, { options })}
            />
          )}
          <Checkbox checked={f.required} onChange={(e) => set(i, { required: e.target.checked })}>
            必填
          </Checkbox>
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            onClick={() => onChange?.(list.filter((_, k) => k !== i))}
            aria-label="删除字段"
          />
        </Space>
      ))}
      <Button
        icon={<PlusOutlined />}
        onClick={() => onChange?.([...list, { key: '', label: '', type: 'text', required: false, options: [] }])}
        data-testid="type-field-add"
      >
        添加字段
      </Button>
    </Space>
  );
}

/** How far ahead instalments are billed, and when a contract counts as ending soon. */
function ContractSettingsCard() {
  const [form] = Form.useForm<{ bill_days_ahead: number; expiring_days: number }>();
  const [busy, setBusy] = useState(false);
  const can = useRoles();
  useEffect(() => {
    call('contractsettings', {})
      .then((v) => form.setFieldsValue(v))
      .catch(() => undefined);
  }, [form]);
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      noticeSuccess((await request('contractsettingsedit', v)).return_msg);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title="合同设置" style={{ marginBottom: 12 }}>
      <Form form={form} layout="inline" style={{ rowGap: 8 }}>
        <Form.Item name="bill_days_ahead" label="收款计划提前出账（天）" rules={[{ required: true, message: '请输入天数' }]}>
          <InputNumber min={0} max={90} precision={0} data-testid="contract-bill-days" />
        </Form.Item>
        <Form.Item name="expiring_days" label="到期提醒（天）" rules={[{ required: true, message: '请输入天数' }]}>
          <InputNumber min={1} max={365} precision={0} />
        </Form.Item>
        {can([...CRM_ROLES.contracts]) && (
          <SafeButton type="primary" loading={busy} onClick={() => void save()} data-testid="contract-settings-save">
            保存
          </SafeButton>
        )}
      </Form>
      <Typography.Text type="secondary">
        每期款项在计划日期前按此天数生成账单（收银台可收）；到期提醒天数内的合同列入 合同续签。
      </Typography.Text>
    </Card>
  );
}

/**
 * 合同类型与编号, a tab of /crm/setcrmsys (docs/product.md#crm-contracts): the contract types with
 * their kind, numbering (prefix + date + sequence), approval and custom fields; and the settings.
 */
export default function ContractTypesTab() {
  return (
    <>
      <ContractSettingsCard />
      <ResourcePage<ContractTypeItem> resource={contractType} title="合同类型" widgets={{ fields: FieldsEditor as never }} />
    </>
  );
}
