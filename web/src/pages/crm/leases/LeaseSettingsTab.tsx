import { useEffect, useState } from 'react';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Row, Select, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { LEASE_CYCLE, LEASE_ROLES, leaseNumber, type LeaseSettings } from '@wuye/contract/crm/leases';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { useCanWrite } from '../../../components/resource';
import { validValues } from '../../../utils/forms';

type Values = Omit<LeaseSettings, 'next_no'>;

/**
 * 租赁设置, a tab of /crm/setcrmsys (docs/product.md#crm-leases): the lease number's prefix and next
 * sequence, the days before the end a lease becomes 即将到期, and the form's defaults (deposit months,
 * days billed ahead, payment cycle).
 */
export default function LeaseSettingsTab() {
  const [form] = Form.useForm<Values>();
  const canWrite = useCanWrite(LEASE_ROLES.write);
  const [saving, setSaving] = useState(false);
  const settings = useQuery({ queryKey: ['leasesettings'], queryFn: () => call('leasesettings', {}) });
  const prefix = Form.useWatch('number_prefix', form) ?? '';
  const seq = Form.useWatch('next_seq', form) ?? 1;
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  if (!settings.data) return <Spin />;
  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const a = await request('leasesettingsedit', v);
      noticeSuccess(a.return_msg);
      void settings.refetch();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card size="small" title="租赁设置" data-testid="lease-settings">
      <Form<Values> form={form} layout="vertical" disabled={!canWrite}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item
              name="number_prefix"
              label="租约编号前缀"
              rules={[{ required: true, pattern: /^[A-Za-z0-9-]{1,10}$/, message: '大写字母、数字和 -，最多10位' }]}
            >
              <Input maxLength={10} data-testid="lease-settings-prefix" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="next_seq"
              label="下一序号"
              extra={`下一份租约编号：${leaseNumber(String(prefix).toUpperCase(), Number(seq) || 1)}`}
            >
              <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid="lease-settings-seq" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="expiring_days" label="到期提醒（天）" extra="距到期日不超过此天数的租约为即将到期，待办提醒续租或退租">
              <InputNumber min={1} max={365} precision={0} style={{ width: '100%' }} data-testid="lease-settings-expiring" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="deposit_months" label="默认押金（月租金的月数）">
              <InputNumber min={0} max={12} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="bill_ahead_days" label="默认提前出账（天）" extra="每期在开始前这么多天出账，应缴日为该期第一天">
              <InputNumber min={0} max={90} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="cycle_months" label="默认付款周期">
              <Select options={enumOptions(LEASE_CYCLE).map((o) => ({ value: Number(o.value), label: o.label }))} />
            </Form.Item>
          </Col>
        </Row>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="计租规则：按自然月分期，首月和末月按天折算（当月天数分之一），四舍五入到分，尾差结转下一期；免租期只免租金，其他费用照收；递增按首期租金单利计算。"
        />
        {canWrite && (
          <Button type="primary" loading={saving} onClick={() => void save()} data-testid="lease-settings-save">
            保存
          </Button>
        )}
      </Form>
    </Card>
  );
}
