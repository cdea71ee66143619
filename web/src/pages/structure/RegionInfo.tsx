import { useEffect, useState } from 'react';
import { Button, Descriptions, Form, Image, Input, Modal, Space, Tag } from 'antd';
import type { RegionDetail } from '@wuye/contract';
import { call } from '../../api/client';
import { loadSystemInfo } from '../../router/session';
import { PageCard, save, useCanWrite } from './shared';
import { validValues } from '../../utils/forms';

type RegionForm = Pick<RegionDetail, 'title' | 'address' | 'phone' | 'area' | 'logo_url' | 'region_img' | 'copyright'>;

const urlRule = { pattern: /^(https?:\/\/|\/)/, message: '地址必须以 http://、https:// 或 / 开头' };

/** regions/index: the session community's details and the admin's edit form. */
export default function RegionInfo() {
  const [region, setRegion] = useState<RegionDetail | null>(null);
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<RegionForm>();
  const canEdit = useCanWrite(['admin']);

  const load = () => {
    call('regioninfo')
      .then(setRegion)
      .catch(() => undefined);
  };
  useEffect(load, []);

  const open = () => {
    if (!region) return;
    form.setFieldsValue(region);
    setEditing(true);
  };
  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    setSaving(true);
    try {
      setRegion(await save('regionedit', values));
      setEditing(false);
      // the shell shows the new name, logo, floor plan and copyright at once
      void loadSystemInfo(true);
    } catch {
      // the client has shown the message
    } finally {
      setSaving(false);
    }
  };

  return (
    <PageCard
      title="小区资料"
      extra={
        canEdit && (
          // enabled once the details are here: the form opens filled with them
          <Button type="primary" onClick={open} disabled={!region} data-testid="region-edit">
            编辑
          </Button>
        )
      }
    >
      {region && (
        <Descriptions bordered column={{ xs: 1, md: 2 }} data-testid="region-info">
          <Descriptions.Item label="小区名称">{region.title}</Descriptions.Item>
          <Descriptions.Item label="联系电话">{region.phone}</Descriptions.Item>
          <Descriptions.Item label="地址" span={2}>
            {region.address}
          </Descriptions.Item>
          <Descriptions.Item label="占地面积">{region.area} ㎡</Descriptions.Item>
          <Descriptions.Item label="服务到期">
            <Space>
              {region.end_time}
              <Tag color={region.days_left < 0 ? 'error' : region.days_left < 30 ? 'warning' : 'success'}>
                {region.days_left < 0 ? `已过期 ${-region.days_left} 天` : `剩余 ${region.days_left} 天`}
              </Tag>
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label="Logo">{region.logo_url ? <Image src={region.logo_url} height={48} /> : '未设置'}</Descriptions.Item>
          <Descriptions.Item label="小区平面图">
            {region.region_img ? <Image src={region.region_img} height={96} /> : '未设置'}
          </Descriptions.Item>
          <Descriptions.Item label="版权信息" span={2}>
            {region.copyright}
          </Descriptions.Item>
        </Descriptions>
      )}
      <Modal
        title="编辑小区资料"
        open={editing}
        onOk={() => void submit()}
        confirmLoading={saving}
        onCancel={() => setEditing(false)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" data-testid="region-form">
          <Form.Item name="title" label="小区名称" rules={[{ required: true, whitespace: true, message: '请输入小区名称' }, { max: 60 }]}>
            <Input data-testid="region-title" />
          </Form.Item>
          <Form.Item name="address" label="地址" rules={[{ max: 200 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="phone" label="联系电话" rules={[{ pattern: /^[\d\-+() ]{5,30}$/, message: '联系电话格式不正确' }]}>
            <Input />
          </Form.Item>
          <Form.Item
            name="area"
            label="占地面积（㎡）"
            rules={[{ pattern: /^\d{1,10}(\.\d{1,2})?$/, message: '面积应为不小于0且最多两位小数的数字' }]}
          >
            <Input />
          </Form.Item>
          <Form.Item name="logo_url" label="Logo 地址" rules={[urlRule]}>
            <Input placeholder="https://…" />
          </Form.Item>
          <Form.Item name="region_img" label="小区平面图地址" rules={[urlRule]}>
            <Input placeholder="https://…" />
          </Form.Item>
          <Form.Item name="copyright" label="版权信息" rules={[{ max: 200 }]}>
            <Input />
          </Form.Item>
        </Form>
      </Modal>
    </PageCard>
  );
}
