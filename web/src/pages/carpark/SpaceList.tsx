import { useState } from 'react';
import { Button, Form, Input, InputNumber, Modal, Radio } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { SPACE_KIND, space, type SpaceItem } from '@wuye/contract';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource, ResourcePage, SmallSelect } from '../../components/resource';

interface BatchForm {
  lot_id?: number;
  prefix: string;
  from?: number;
  to?: number;
  digits: number;
  kind: 'ordinary' | 'parent' | 'virtual';
  area: string;
}

/** 批量添加: prefix + numbers from..to, zero-padded; a clash refuses the whole batch and names the numbers. */
function BatchAdd() {
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<BatchForm>();
  const queryClient = useQueryClient();
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const answer = await request('parkingspacebatchadd', {
        lot_id: v.lot_id!,
        prefix: v.prefix ?? '',
        from: v.from!,
        to: v.to!,
        digits: v.digits,
        kind: v.kind,
        area: v.area || '0',
      });
      noticeSuccess(answer.return_msg);
      void invalidateResource(queryClient, space.def.name);
      setOpen(false);
    } catch {
      /* the client showed why */
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="parkingspace-batch">
        批量添加
      </Button>
      <Modal
        title="批量添加车位"
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => void submit()}
        confirmLoading={saving}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'parkingspace-batch-save' } as never}
      >
        <Form<BatchForm>
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ prefix: '', digits: 3, kind: 'ordinary', area: '' }}
        >
          <Form.Item name="lot_id" label="停车场" rules={[{ required: true, message: '请选择停车场' }]}>
            <SmallSelect widget={{ small: 'carpark_small_list' }} values={{}} testId="parkingspace-batch-lot" />
          </Form.Item>
          <Form.Item name="prefix" label="前缀" extra="如 A-，生成 A-001、A-002…">
            <Input maxLength={10} data-testid="parkingspace-batch-prefix" />
          </Form.Item>
          <Form.Item label="编号范围" required style={{ marginBottom: 0 }}>
            <Form.Item name="from" rules={[{ required: true, message: '请输入起始编号' }]} style={{ display: 'inline-block', width: 140 }}>
              <InputNumber min={0} max={99999} precision={0} placeholder="起" data-testid="parkingspace-batch-from" />
            </Form.Item>
            <span style={{ display: 'inline-block', width: 24, textAlign: 'center', lineHeight: '32px' }}>至</span>
            <Form.Item name="to" rules={[{ required: true, message: '请输入结束编号' }]} style={{ display: 'inline-block', width: 140 }}>
              <InputNumber min={0} max={99999} precision={0} placeholder="止" data-testid="parkingspace-batch-to" />
            </Form.Item>
          </Form.Item>
          <Form.Item name="digits" label="编号位数（不足补零）">
            <InputNumber min={1} max={6} precision={0} />
          </Form.Item>
          <Form.Item name="kind" label="车位类型">
            <Radio.Group options={enumOptions(SPACE_KIND)} />
          </Form.Item>
          <Form.Item name="area" label="面积(m²)">
            <Input maxLength={10} placeholder="如 13.5" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/**
 * /carpark/cdlist (车位管理; docs/product.md#carpark): spaces by lot, state, kind, number and room;
 * add one or a batch; the state moves only with the cars (rent, sell, release), never by editing.
 */
export default function SpaceList() {
  return <ResourcePage<SpaceItem> resource={space} title="车位管理" toolbar={<BatchAdd />} />;
}
