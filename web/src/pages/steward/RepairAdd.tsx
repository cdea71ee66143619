import { useMemo, useState } from 'react';
import { DatePicker, Form, Input, Modal, Radio, Switch, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { REPAIR_SOURCE } from '@wuye/contract/steward/repairs';
import type { RepairTypeNode } from '@wuye/contract/steward/repairTypes';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { PhotosInput } from '../../components/PhotosInput';
import { RoomCascader } from '../../components/resource';

interface Values {
  source: 'D' | 'T' | 'N';
  type_id?: number;
  room?: number[];
  place?: string;
  reporter?: string;
  phone?: string;
  appointment?: Dayjs;
  content?: string;
  photos?: string[];
  urgent?: boolean;
}

/** The type tree as TreeSelect wants it: enabled types, a first-level one selectable only without children. */
export function typeTreeData(items: RepairTypeNode[]) {
  return items
    .filter((t) => t.status === 'Y')
    .map((t) => ({
      value: t.id,
      title: t.title,
      selectable: t.children.length === 0,
      children: t.children.filter((c) => c.status === 'Y').map((c) => ({ value: c.id, title: c.title })),
    }));
}

export function useRepairTypeTree() {
  return useQuery({ queryKey: ['repair', 'typetree'], queryFn: () => call('repairtypetree', {}) });
}

/**
 * 登记报修 (docs/product.md#repairs): staff registering for an owner, a phone call or an internal
 * report; a household type asks for the room (picking it fills the reporter and phone from the
 * owner living there), a public one for the place.
 */
export default function RepairAdd({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (id: number) => void }) {
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const tree = useRepairTypeTree();
  const typeId = Form.useWatch('type_id', form);
  const byId = useMemo(() => {
    const m = new Map<number, RepairTypeNode>();
    for (const t of tree.data?.items ?? []) {
      m.set(t.id, t);
      for (const c of t.children) m.set(c.id, c);
    }
    return m;
  }, [tree.data]);
  const type = typeId ? byId.get(typeId) : undefined;
  const household = type?.area !== 'P';

  const pickRoom = async (path: number[]) => {
    const hid = path[2];
    if (!hid) return;
    try {
      const owner = (await request('repairroomowner', { hid })).data;
      if (owner.reporter) form.setFieldsValue({ reporter: owner.reporter, phone: owner.phone });
    } catch {
      /* shown by the client */
    }
  };
  const submit = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      const answer = await request('repairadd', {
        source: v.source,
        type_id: v.type_id!,
        ...(household ? { hid: v.room?.[2] } : { bid: undefined }),
        place: v.place?.trim() ?? '',
        reporter: v.reporter ?? '',
        phone: v.phone ?? '',
        appointment_time: v.appointment ? v.appointment.format('YYYY-MM-DD HH:mm') : '',
        content: v.content ?? '',
        photos: v.photos ?? [],
        urgent: !!v.urgent,
      });
      noticeSuccess(answer.return_msg ?? '登记成功');
      form.resetFields();
      onDone(answer.data.id);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="登记报修"
      open={open}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={busy}
      width={640}
      okText="登记"
      okButtonProps={{ 'data-testid': 'repair-add-save' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ source: 'D', urgent: false, photos: [] }} preserve={false}>
        <Form.Item name="source" label="报修来源">
          <Radio.Group options={enumOptions(REPAIR_SOURCE)} optionType="button" data-testid="repair-add-source" />
        </Form.Item>
        <Form.Item name="type_id" label="报修类型" rules={[{ required: true, message: '请选择报修类型' }]}>
          <TreeSelect
            treeData={typeTreeData(tree.data?.items ?? [])}
            treeDefaultExpandAll
            placeholder="如 水电 / 水管漏水"
            showSearch={{ treeNodeFilterProp: 'title' }}
            data-testid="repair-add-type"
          />
        </Form.Item>
        {household ? (
          <Form.Item
            name="room"
            label="报修房屋"
            rules={[{ required: true, message: '请选择报修房屋' }]}
            extra="选择房屋后自动带出在住业主和手机号"
          >
            <RoomCascader testId="repair-add-room" onChange={(p) => void pickRoom(p)} style={{ width: '100%' }} />
          </Form.Item>
        ) : null}
        <RepairContactFields household={household} testPrefix="repair-add" />
        <Form.Item name="appointment" label="预约上门时间">
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            disabledDate={(d: Dayjs) => d.isBefore(dayjs(), 'day')}
            data-testid="repair-add-appointment"
          />
        </Form.Item>
        <RepairContentFields testPrefix="repair-add" />
      </Form>
    </Modal>
  );
}

/** Where and who of a repair (具体位置, 报修人, 联系电话): the registration's fields, and a complaint's turned into a repair. */
export function RepairContactFields({ household, testPrefix }: { household: boolean; testPrefix: string }) {
  return (
    <>
      <Form.Item
        name="place"
        label={household ? '具体位置' : '公共区域位置'}
        rules={household ? [] : [{ required: true, whitespace: true, message: '请填写公共区域位置' }]}
      >
        <Input
          maxLength={60}
          placeholder={household ? '如 厨房、主卫（选填）' : '如 2号楼1单元电梯、中心花园'}
          data-testid={`${testPrefix}-place`}
        />
      </Form.Item>
      <Form.Item name="reporter" label="报修人" rules={[{ required: true, whitespace: true, message: '请填写报修人' }]}>
        <Input maxLength={30} data-testid={`${testPrefix}-reporter`} />
      </Form.Item>
      <Form.Item
        name="phone"
        label="联系电话"
        rules={[
          { required: true, message: '请填写联系电话' },
          { pattern: /^1[3-9]\d{9}$/, message: '联系电话格式不正确，应为11位手机号' },
        ]}
      >
        <Input maxLength={11} data-testid={`${testPrefix}-phone`} />
      </Form.Item>
    </>
  );
}

/** What a repair is (报修内容, 现场照片, 紧急): the registration's fields, and a complaint's turned into a repair. */
export function RepairContentFields({ testPrefix }: { testPrefix: string }) {
  return (
    <>
      <Form.Item name="content" label="报修内容" rules={[{ required: true, whitespace: true, message: '请填写报修内容' }]}>
        <Input.TextArea rows={4} maxLength={700} showCount data-testid={`${testPrefix}-content`} />
      </Form.Item>
      <Form.Item name="photos" label="现场照片（最多9张）">
        <PhotosInput max={9} testId={`${testPrefix}-photos`} />
      </Form.Item>
      <Form.Item name="urgent" label="紧急" valuePropName="checked">
        <Switch data-testid={`${testPrefix}-urgent`} />
      </Form.Item>
    </>
  );
}
