import { useEffect, useState } from 'react';
import { Alert, Button, Form, InputNumber, Space, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CrmPoolSettings } from '@wuye/contract/crm/sales';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { invalidateResource } from '../../../components/resource';
import { useSalesManager } from './parts';

type Values = Omit<CrmPoolSettings, 'pool_enabled' | 'queue_last' | 'update_time' | 'updated_by'> & { pool_enabled: boolean };

/**
 * 公海规则, the first tab of /crm/setcrmsys (docs/product.md#crm-sales): a held customer without a
 * follow-up for N days, or without a deal M days after it was taken, goes back to the pool by the
 * daily job, its consultant warned K days before; how many open customers a consultant may hold.
 * A sales manager saves them; the consultants read them.
 */
export default function PoolRulesTab() {
  const manager = useSalesManager();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const q = useQuery({ queryKey: ['crmpoolinfo'], queryFn: () => call('crmpoolinfo', {}) });
  useEffect(() => {
    if (q.data) form.setFieldsValue({ ...q.data, pool_enabled: q.data.pool_enabled === 'Y' });
  }, [q.data, form]);
  const enabled = Form.useWatch('pool_enabled', form);
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      const answer = await request('crmpoolset', { ...v, pool_enabled: v.pool_enabled ? 'Y' : 'N' });
      noticeSuccess(answer.return_msg);
      queryClient.setQueryData(['crmpoolinfo'], answer.data);
      void invalidateResource(queryClient, 'crmcustomer');
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  const days = (label: string, name: keyof Values, help: string, max = 3650) => (
    <Form.Item name={name} label={label} extra={help} rules={[{ required: true, message: `请填写${label}` }]}>
      <InputNumber
        min={0}
        max={max}
        precision={0}
        suffix={name === 'hold_limit' ? '位' : '天'}
        disabled={!manager}
        style={{ width: 200 }}
        data-testid={`pool-${name}`}
      />
    </Form.Item>
  );
  return (
    <div style={{ maxWidth: 640 }} data-testid="pool-rules">
      {!manager && <Alert type="info" showIcon style={{ marginBottom: 16 }} title="公海规则由销售经理或管理员设置，这里只能查看。" />}
      <Form form={form} layout="vertical" disabled={!manager || q.isLoading}>
        <Form.Item name="pool_enabled" label="启用公海回收" valuePropName="checked" extra="关闭后不再自动回收，客户只能手动放入公海">
          <Switch data-testid="pool-pool_enabled" />
        </Form.Item>
        {days('未跟进回收天数', 'pool_follow_days', '最近一次跟进（或领取）后这么多天没有新的跟进，回收公海；0 为不按此规则')}
        {days('未成交回收天数', 'pool_deal_days', '领取后这么多天仍未认购或签约，回收公海；0 为不按此规则')}
        {days('提前提醒天数', 'pool_warn_days', '回收前这么多天在置业顾问的待办事项里提醒；0 为不提醒', 365)}
        {days('每位顾问持有上限', 'hold_limit', '未成交、未无效的客户数；领取、分配和录入超过上限时拒绝；0 为不限', 100000)}
        {manager && (
          <Space>
            <Button type="primary" loading={saving} onClick={() => void save()} disabled={false} data-testid="pool-save">
              保存
            </Button>
            {!enabled && <Typography.Text type="warning">公海回收已关闭</Typography.Text>}
          </Space>
        )}
      </Form>
      {q.data && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
          已发放排号至第 {q.data.queue_last} 号（排号不重复使用）。
          {q.data.updated_by ? `最近由${q.data.updated_by}于 ${q.data.update_time} 修改。` : '尚未修改，使用默认规则。'}
        </Typography.Paragraph>
      )}
    </div>
  );
}
