import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Form, Input, InputNumber, Skeleton, Space, Switch, Typography } from 'antd';
import { AppstoreOutlined, GiftOutlined, ProfileOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CARD_ROLES } from '@wuye/contract/cards/roles';
import { mallSettingsSchema, type MallSettings as Settings } from '@wuye/contract/cards/mall';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useCanWrite } from '../../components/resource';
import './mall.css';

type FormValues = Omit<Settings, 'update_time' | 'enabled' | 'pickup' | 'delivery'> & {
  enabled: boolean;
  modes: Array<'pickup' | 'delivery'>;
};

const SETTINGS_KEY = ['mall', 'settings'] as const;

const toForm = (s: Settings): FormValues => ({
  ...s,
  enabled: s.enabled === 'Y',
  modes: [...(s.pickup === 'Y' ? ['pickup' as const] : []), ...(s.delivery === 'Y' ? ['delivery' as const] : [])],
});

/**
 * /carpark/shopmall (积分商城设置; docs/product.md#member-cards): whether the mall is open, its name,
 * what a point is worth (points per yuan, for display), how members receive goods (at the property
 * office and/or delivered), where and when to pick up, and the notice; with the ways to the goods,
 * the categories and the orders. Saving takes `cardmall`; the card staff read it.
 */
export default function MallSettings() {
  const canWrite = useCanWrite(CARD_ROLES.mall);
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: () => call('shopmallinfo') });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(toForm(settings.data));
  }, [form, settings.data]);
  const pickup = (Form.useWatch('modes', form) ?? []).includes('pickup');

  const save = async () => {
    let v: FormValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const payload = {
      ...v,
      enabled: v.enabled ? 'Y' : 'N',
      pickup: v.modes.includes('pickup') ? 'Y' : 'N',
      delivery: v.modes.includes('delivery') ? 'Y' : 'N',
    } as const;
    const parsed = mallSettingsSchema.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path[0] === 'pickup' ? 'modes' : String(issue.path[0]);
      form.setFields([{ name: field as keyof FormValues, errors: [issue.message] }]);
      return;
    }
    setSaving(true);
    try {
      const answer = await request('shopmalledit', parsed.data);
      noticeSuccess(answer.return_msg);
      queryClient.setQueryData(SETTINGS_KEY, answer.data);
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="shopmall-page">
      <Card
        variant="borderless"
        title="积分商城"
        extra={settings.data?.update_time && <Typography.Text type="secondary">更新于 {settings.data.update_time}</Typography.Text>}
      >
        <div className="mall-links">
          <Link to="/carpark/goods" data-testid="shopmall-goods">
            <Button icon={<GiftOutlined />}>商品管理</Button>
          </Link>
          <Link to="/carpark/catelist" data-testid="shopmall-catelist">
            <Button icon={<AppstoreOutlined />}>商品分类</Button>
          </Link>
          <Link to="/carpark/mallorderlist" data-testid="shopmall-orders">
            <Button icon={<ProfileOutlined />}>兑换订单</Button>
          </Link>
        </div>
      </Card>
      <Card variant="borderless" title="商城设置">
        {settings.isLoading ? (
          <Skeleton active />
        ) : (
          <Form form={form} layout="vertical" disabled={!canWrite} style={{ maxWidth: 640 }} data-testid="shopmall-form">
            {settings.data?.enabled === 'N' && (
              <Alert type="warning" showIcon style={{ marginBottom: 16 }} title="商城已关闭：会员不能兑换商品，物业也不能代会员兑换。" />
            )}
            <Form.Item name="enabled" label="开启商城" valuePropName="checked">
              <Switch checkedChildren="开启" unCheckedChildren="关闭" data-testid="shopmall-enabled" />
            </Form.Item>
            <Form.Item name="name" label="商城名称" rules={[{ required: true, message: '请输入商城名称' }]}>
              <Input maxLength={20} data-testid="shopmall-name" />
            </Form.Item>
            <Form.Item
              name="points_per_yuan"
              label="积分价值"
              extra="用于展示商品约合的金额：多少积分折合 1 元"
              rules={[{ required: true, message: '请输入积分价值' }]}
            >
              <InputNumber
                min={1}
                max={100000}
                precision={0}
                addonAfter="积分 = 1 元"
                style={{ width: '100%', maxWidth: 280 }}
                data-testid="shopmall-points"
              />
            </Form.Item>
            <Form.Item name="modes" label="领取方式" rules={[{ required: true, message: '请至少选择一种领取方式（到物业自提或配送）' }]}>
              <Checkbox.Group
                options={[
                  { value: 'pickup', label: '到物业自提' },
                  { value: 'delivery', label: '配送到家' },
                ]}
                data-testid="shopmall-modes"
              />
            </Form.Item>
            <Form.Item
              name="pickup_address"
              label="自提地点"
              rules={pickup ? [{ required: true, whitespace: true, message: '到物业自提须填写自提地点' }] : []}
            >
              <Input maxLength={100} placeholder="如 物业服务中心（1号楼一层）" data-testid="shopmall-address" />
            </Form.Item>
            <Form.Item name="pickup_hours" label="自提时间">
              <Input maxLength={50} placeholder="如 每天 9:00-18:00" data-testid="shopmall-hours" />
            </Form.Item>
            <Form.Item name="notice" label="商城公告">
              <Input.TextArea rows={3} maxLength={500} showCount data-testid="shopmall-notice" />
            </Form.Item>
            {canWrite && (
              <Button type="primary" loading={saving} onClick={() => void save()} data-testid="shopmall-save">
                保存
              </Button>
            )}
          </Form>
        )}
      </Card>
    </Space>
  );
}
