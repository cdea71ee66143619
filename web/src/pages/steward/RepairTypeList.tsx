import { useEffect } from 'react';
import { Button, Card, Form, InputNumber, Space } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { repairType, type RepairSettings } from '@wuye/contract/steward/repairTypes';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { call } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { ResourcePage, useCanWrite } from '../../components/resource';

/** The desk's repair settings (docs/product.md#repairs): max open tickets per technician, auto-rating, reopen window. */
function RepairSettingsCard() {
  const [form] = Form.useForm<RepairSettings>();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(STEWARD_ROLES.desk);
  const settings = useQuery({ queryKey: ['repairsettings'], queryFn: () => call('repairsettings', {}) });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const save = async () => {
    const values = await form.validateFields();
    try {
      await call('repairsettingsedit', values);
      noticeSuccess('保存成功');
      void queryClient.invalidateQueries({ queryKey: ['repairsettings'] });
    } catch {
      /* shown by the client */
    }
  };
  const num = (min: number, max: number, testId: string) => (
    <InputNumber min={min} max={max} precision={0} disabled={!canWrite} style={{ width: 90 }} data-testid={testId} />
  );
  return (
    <Card size="small" title="报修设置" style={{ marginBottom: 12 }} data-testid="repair-settings">
      <Form form={form} layout="inline" style={{ rowGap: 8 }}>
        <Form.Item name="max_open" label="每位师傅最多同时处理" rules={[{ required: true, message: '请填写' }]} extra="张">
          {num(1, 99, 'repair-settings-max-open')}
        </Form.Item>
        <Form.Item name="auto_rate_hours" label="待评价超过" rules={[{ required: true, message: '请填写' }]} extra="小时自动好评">
          {num(1, 720, 'repair-settings-auto-rate')}
        </Form.Item>
        <Form.Item name="reopen_days" label="完成后" rules={[{ required: true, message: '请填写' }]} extra="天内可返修">
          {num(0, 90, 'repair-settings-reopen')}
        </Form.Item>
        {canWrite && (
          <Form.Item>
            <Space>
              <Button type="primary" onClick={() => void save()} data-testid="repair-settings-save">
                保存设置
              </Button>
            </Space>
          </Form.Item>
        )}
      </Form>
    </Card>
  );
}

/** 报修类型 (/steward/repairtype): the two-level tree of repair types with their handling settings and technicians. */
export default function RepairTypeList() {
  return (
    <>
      <RepairSettingsCard />
      <ResourcePage resource={repairType} />
    </>
  );
}
