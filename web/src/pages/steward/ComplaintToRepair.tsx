import { useMemo, useState } from 'react';
import { Button, Form, Modal, TreeSelect } from 'antd';
import type { ButtonProps } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { ComplaintRow } from '@wuye/contract/steward/complaints';
import type { RepairTypeNode } from '@wuye/contract/steward/repairTypes';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource, RoomCascader } from '../../components/resource';
import { RepairContactFields, RepairContentFields, typeTreeData, useRepairTypeTree } from './RepairAdd';

interface Values {
  type_id?: number;
  room?: number[];
  place?: string;
  reporter?: string;
  phone?: string;
  content?: string;
  photos?: string[];
  urgent?: boolean;
}

/**
 * 转为报修单 (docs/product.md#complaints): the desk picks the repair type; the room, reporter, phone,
 * content and photos come from the complaint and may be corrected. The new ticket and the complaint
 * point at each other. Test ids complaint-torepair-<id>, complaint-torepair-type, -ok.
 */
export default function ComplaintToRepair({
  row,
  onDone,
  size = 'small',
}: {
  row: ComplaintRow;
  onDone?: () => void;
  size?: 'small' | 'middle';
}) {
  const [form] = Form.useForm<Values>();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
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
  const household = (typeId ? byId.get(typeId) : undefined)?.area !== 'P';

  const submit = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      const hid = household ? (row.hid ?? v.room?.[2]) : undefined;
      const answer = await request('complainttorepair', {
        id: row.id,
        repair: {
          source: 'D',
          type_id: v.type_id!,
          hid,
          place: v.place?.trim() ?? '',
          reporter: v.reporter ?? '',
          phone: v.phone ?? '',
          appointment_time: '',
          content: v.content ?? '',
          photos: v.photos ?? [],
          urgent: !!v.urgent,
        },
      });
      noticeSuccess(answer.return_msg ?? '已转为报修单');
      setOpen(false);
      void invalidateResource(queryClient, 'complaint');
      void queryClient.invalidateQueries({ queryKey: ['res', 'repair'] });
      onDone?.();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        size={size}
        onClick={() => {
          form.resetFields();
          setOpen(true);
        }}
        data-testid={`complaint-torepair-${row.id}`}
      >
        转报修
      </Button>
      <Modal
        title={`转为报修单 · ${row.no}`}
        open={open}
        onOk={() => void submit()}
        onCancel={() => setOpen(false)}
        confirmLoading={busy}
        width={600}
        okText="生成报修单"
        okButtonProps={{ 'data-testid': 'complaint-torepair-ok' } as ButtonProps}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{
            reporter: row.anonymous && row.contact === '匿名' ? '' : row.contact,
            phone: /^1\d{10}$/.test(row.phone) ? row.phone : '',
            content: row.content,
            photos: row.photos,
            urgent: false,
          }}
        >
          <Form.Item name="type_id" label="报修类型" rules={[{ required: true, message: '请选择报修类型' }]}>
            <TreeSelect
              treeData={typeTreeData(tree.data?.items ?? [])}
              treeDefaultExpandAll
              placeholder="如 水电 / 水管漏水"
              showSearch={{ treeNodeFilterProp: 'title' }}
              data-testid="complaint-torepair-type"
            />
          </Form.Item>
          {household &&
            (row.hid !== null ? (
              <Form.Item label="报修房屋">{row.address}</Form.Item>
            ) : (
              <Form.Item name="room" label="报修房屋" rules={[{ required: true, message: '请选择报修房屋' }]}>
                <RoomCascader testId="complaint-torepair-room" style={{ width: '100%' }} />
              </Form.Item>
            ))}
          <RepairContactFields household={household} testPrefix="complaint-torepair" />
          <RepairContentFields testPrefix="complaint-torepair" />
        </Form>
      </Modal>
    </>
  );
}
