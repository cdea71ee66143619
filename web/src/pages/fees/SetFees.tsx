import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Space, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { FeeSettings } from '@wuye/contract/fees';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { validValues } from '../../utils/forms';

interface SettingsForm {
  receipt_title: string;
  receipt_footnote: string;
  receipt_prefix: string;
  allow_discount: boolean;
  max_discount_percent: number;
  default_due_day: number;
}

const toForm = (s: FeeSettings): SettingsForm => ({ ...s, allow_discount: s.allow_discount === 'Y' });

/** Fee settings (/setup/setfees): receipt heading, note and number prefix, the cashier's discount limit, the default due day. */
export default function SetFees() {
  const [form] = Form.useForm<SettingsForm>();
  const queryClient = useQueryClient();
  const info = useQuery({
    queryKey: ['fees', 'settings'],
    queryFn: () => call('feesettinginfo', {}),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const [saving, setSaving] = useState(false);
  const allow = Form.useWatch('allow_discount', form);
  const prefix = Form.useWatch('receipt_prefix', form);

  useEffect(() => {
    if (info.data) form.setFieldsValue(toForm(info.data));
  }, [info.data, form]);

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const answer = await request('feesettingedit', { ...v, allow_discount: v.allow_discount ? 'Y' : 'N' });
      noticeSuccess(answer.return_msg ?? '保存成功');
      void queryClient.invalidateQueries({ queryKey: ['fees', 'settings'] });
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="收费设置" data-testid="setfees-page" loading={info.isLoading}>
      <Form form={form} layout="horizontal" labelCol={{ flex: '150px' }} wrapperCol={{ flex: '1 1 0' }} style={{ maxWidth: 720 }}>
        <Typography.Title level={5}>收据</Typography.Title>
        <Form.Item
          name="receipt_title"
          label="收据标题"
          extra="不填时打印为「小区名称 收款收据」"
          rules={[{ max: 40, message: '最多 40 个字' }]}
        >
          <Input allowClear maxLength={40} placeholder="例如：阳光花园物业服务中心收款收据" data-testid="setfees-title" />
        </Form.Item>
        <Form.Item
          name="receipt_footnote"
          label="收据备注"
          extra="打印在收据底部，例如缴费说明或联系电话"
          rules={[{ max: 200, message: '最多 200 个字' }]}
        >
          <Input.TextArea rows={2} maxLength={200} showCount data-testid="setfees-footnote" />
        </Form.Item>
        <Form.Item
          name="receipt_prefix"
          label="收据编号前缀"
          extra={`之后的收据编号为 ${prefix ?? ''}00000001 这样的格式，已开出的收据不变`}
          rules={[{ pattern: /^[A-Za-z0-9-]{0,10}$/, message: '最多 10 位字母、数字或 -' }]}
        >
          <Input allowClear maxLength={10} style={{ width: 160 }} placeholder="例如 YG" data-testid="setfees-prefix" />
        </Form.Item>
        <Typography.Title level={5}>收银台</Typography.Title>
        <Form.Item name="allow_discount" label="允许优惠减免" valuePropName="checked" extra="关闭后收银台不能填写优惠金额（含减免滞纳金）">
          <Switch data-testid="setfees-allow-discount" />
        </Form.Item>
        <Form.Item label="最高优惠比例">
          <Space>
            <Form.Item name="max_discount_percent" noStyle rules={[{ required: true, message: '请填写最高优惠比例' }]}>
              <InputNumber min={0} max={100} precision={0} disabled={!allow} data-testid="setfees-max-discount" />
            </Form.Item>
            <span>% （占应收合计含滞纳金的比例）</span>
          </Space>
        </Form.Item>
        <Typography.Title level={5}>收费项目</Typography.Title>
        <Form.Item
          name="default_due_day"
          label="默认缴费截止日"
          extra="新增收费项目时的缴费日（账期首月的第几天）"
          rules={[{ required: true, message: '请填写默认缴费日' }]}
        >
          <InputNumber min={1} max={28} precision={0} data-testid="setfees-due-day" />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="setfees-save">
              保存
            </Button>
            {info.data?.update_user && (
              <Typography.Text type="secondary">
                最近由 {info.data.update_user} 于 {info.data.update_time} 修改
              </Typography.Text>
            )}
          </Space>
        </Form.Item>
      </Form>
      {!info.isLoading && !info.data && <Alert type="warning" showIcon title="收费设置加载失败，请刷新重试" />}
    </Card>
  );
}
