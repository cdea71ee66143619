import { useState } from 'react';
import {
  App,
  Button,
  Checkbox,
  DatePicker,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  List,
  Modal,
  Radio,
  Rate,
  Select,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import type { ButtonProps } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { allowedTransitions, type TransitionDef } from '@wuye/contract/kit/workflow';
import {
  INTERNAL_ORDER_KIND,
  INTERNAL_ORDER_RECURRENCE,
  INTERNAL_ORDER_STATUS,
  internalOrderFlow,
  internalOrderSchemas,
  type InternalOrderDetail,
  type InternalOrderRow,
} from '@wuye/contract/steward/internalOrders';
import { call } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { EnumTag, invalidateResource, useRoles, useSmallList, WorkflowTimeline, zodRule } from '../../components/resource';
import { requestMethod } from '../../components/resource/wire';
import { PhotoGallery, PhotosInput } from '../../components/PhotosInput';

type Key = keyof typeof internalOrderFlow.def.transitions;
const infoKey = (id: number | null) => ['res', 'internalorder', 'info', id];

/** The staff an order may be given to or copied to. */
export function useOrderStaff() {
  const staff = useSmallList('internal_order_staff_small_list', {});
  return staff.items.map((s) => ({ value: s.id, label: s.name }));
}

/** 超时 beside the state. */
export function OrderOverdue({ row }: { row: InternalOrderRow }) {
  return row.overdue ? (
    <Tag color="red" data-testid={`internalorder-overdue-${row.id}`}>
      超时
    </Tag>
  ) : null;
}

/**
 * An order's actions (docs/product.md#internal-orders): the transitions its state allows, its
 * handlers' (开始处理, 提交验收) to its handlers, its creator's (验收通过, 退回, 关闭, 修改) to its creator;
 * admin may do all. Test ids internalorder-<transition>-<id>, the form's OK internalorder-<transition>-ok.
 */
export function OrderActions({
  row,
  onDone,
  onEdit,
  size = 'small',
}: {
  row: InternalOrderRow;
  onDone?: () => void;
  onEdit?: () => void;
  size?: 'small' | 'middle';
}) {
  const can = useRoles();
  const admin = can(['admin']);
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [asking, setAsking] = useState<[Key, TransitionDef] | null>(null);
  const [busy, setBusy] = useState(false);
  const handlerSteps: Key[] = ['start', 'submit'];
  const allowed = allowedTransitions(internalOrderFlow.def, row.status, can).filter(
    ([key]) => admin || (handlerSteps.includes(key as Key) ? row.handling : row.mine),
  ) as Array<[Key, TransitionDef]>;
  const editable = row.status === 'P' && (admin || row.mine) && onEdit;

  const run = async (t: TransitionDef, input: Record<string, unknown>) => {
    setBusy(true);
    try {
      const answer = await requestMethod(t.method, { id: row.id, ...input });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setAsking(null);
      void invalidateResource(queryClient, 'internalorder');
      onDone?.();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  const start = (key: Key, t: TransitionDef) => {
    if (!t.input) {
      void modal.confirm({
        title: t.label,
        content: `确定${t.label}「${row.title}」？`,
        okText: '确定',
        cancelText: '取消',
        okButtonProps: { 'data-testid': `internalorder-${key}-confirm` } as ButtonProps,
        onOk: () => run(t, {}),
      });
      return;
    }
    form.resetFields();
    setAsking([key, t]);
  };
  const submit = async () => {
    if (!asking) return;
    try {
      await run(asking[1], (await form.validateFields()) as Record<string, unknown>);
    } catch {
      /* the form shows what is missing */
    }
  };
  if (allowed.length === 0 && !editable) return null;
  const labels = (asking?.[1].inputLabels ?? {}) as Record<string, string>;
  return (
    <>
      <Space size={4} wrap>
        {editable && (
          <Button size={size} onClick={onEdit} data-testid={`internalorder-edit-${row.id}`}>
            修改
          </Button>
        )}
        {allowed.map(([key, t]) => (
          <Button
            key={key}
            size={size}
            danger={t.danger}
            type={key === 'start' || key === 'submit' || key === 'accept' ? 'primary' : 'default'}
            ghost={key === 'start' || key === 'submit' || key === 'accept'}
            onClick={() => start(key, t)}
            data-testid={`internalorder-${key}-${row.id}`}
          >
            {t.label}
          </Button>
        ))}
      </Space>
      <Modal
        title={asking ? `${asking[1].label} · ${row.no}` : ''}
        open={asking !== null}
        onOk={() => void submit()}
        onCancel={() => setAsking(null)}
        confirmLoading={busy}
        destroyOnHidden
        okButtonProps={{ danger: asking?.[1].danger, 'data-testid': asking ? `internalorder-${asking[0]}-ok` : undefined } as ButtonProps}
      >
        {asking && (
          <Form form={form} layout="vertical">
            {asking[0] === 'accept' && (
              <Form.Item name="score" label={labels.score} rules={[{ required: true, message: '请评分' }]}>
                <Rate data-testid="internalorder-accept-score" />
              </Form.Item>
            )}
            <Form.Item
              name="note"
              label={labels.note}
              rules={
                asking[0] === 'reject' || asking[0] === 'close'
                  ? [{ required: true, whitespace: true, message: `请填写${labels.note}` }]
                  : []
              }
            >
              <Input.TextArea rows={3} maxLength={200} showCount data-testid={`internalorder-${asking[0]}-note`} />
            </Form.Item>
          </Form>
        )}
      </Modal>
    </>
  );
}

/** One checklist item: ticked by a handler while 处理中, with one photo. */
function CheckItem({
  order,
  item,
  onDone,
}: {
  order: InternalOrderDetail;
  item: InternalOrderDetail['items'][number];
  onDone: () => void;
}) {
  const can = useRoles();
  const editable = order.status === 'D' && (order.handling || can(['admin']));
  const [photo, setPhoto] = useState<string[]>(item.photo ? [item.photo] : []);
  const [busy, setBusy] = useState(false);
  const toggle = async (done: boolean, photos = photo) => {
    setBusy(true);
    try {
      const answer = await requestMethod('internalordercheck', { id: order.id, item_id: item.id, done, photo: photos[0] ?? '' });
      noticeSuccess(answer.return_msg ?? '操作成功');
      onDone();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <List.Item data-testid={`internalorder-item-${item.sort}`}>
      <Space align="start" wrap>
        <Checkbox
          checked={item.done}
          disabled={!editable || busy}
          onChange={(e) => void toggle(e.target.checked)}
          data-testid={`internalorder-check-${item.sort}`}
        >
          <Typography.Text delete={item.done}>{item.title}</Typography.Text>
        </Checkbox>
        {item.done && (
          <Typography.Text type="secondary">
            {item.done_by} {item.done_time}
          </Typography.Text>
        )}
        {editable && !item.done ? (
          <PhotosInput max={1} value={photo} onChange={setPhoto} testId={`internalorder-item-photo-${item.sort}`} />
        ) : (
          item.photo && <PhotoGallery urls={[item.photo]} size={48} />
        )}
      </Space>
    </List.Item>
  );
}

/** An order's detail: its fields, the checklist, attachments and the timeline. */
export function OrderDetail({
  id,
  onClose,
  onEdit,
  onChanged,
}: {
  id: number | null;
  onClose: () => void;
  onEdit: (row: InternalOrderDetail) => void;
  onChanged: () => void;
}) {
  const info = useQuery({ queryKey: infoKey(id), queryFn: () => call('internalorderinfo', { id: id! }), enabled: id !== null });
  const o = info.data;
  const reload = () => {
    void info.refetch();
    onChanged();
  };
  return (
    <Drawer open={id !== null} onClose={onClose} title={o ? `${o.no} ${o.title}` : '工单详情'} size="large" destroyOnHidden>
      {!o ? (
        <Spin />
      ) : (
        <div data-testid="internalorder-detail">
          <Space style={{ marginBottom: 12 }} wrap>
            <EnumTag enum={INTERNAL_ORDER_STATUS} value={o.status} />
            <OrderOverdue row={o} />
            <OrderActions row={o} size="middle" onDone={reload} onEdit={() => onEdit(o)} />
          </Space>
          <Descriptions
            column={{ xs: 1, md: 2 }}
            size="small"
            bordered
            items={[
              { key: 'kind', label: '类型', children: o.kind_ch },
              { key: 'loc', label: '位置', children: o.location || '—' },
              { key: 'h', label: '处理人', children: o.handler_names },
              { key: 'cc', label: '抄送', children: o.cc_names || '—' },
              { key: 'due', label: '截止时间', children: `${o.due_time}（${o.due_hours} 小时内完成）` },
              { key: 'rec', label: '工单标识', children: o.template_id ? `${o.recurrence_ch}（${o.occurs_on}）` : o.recurrence_ch },
              { key: 'c', label: '发起', children: `${o.creator} ${o.create_time}` },
              ...(o.score !== null
                ? [{ key: 'score', label: '验收评分', children: <Rate disabled value={o.score} style={{ fontSize: 14 }} /> }]
                : []),
              ...(o.accept_note ? [{ key: 'note', label: o.status === 'Y' ? '验收意见' : '退回原因', children: o.accept_note }] : []),
              ...(o.content ? [{ key: 'content', label: '内容', span: 2, children: o.content }] : []),
            ]}
          />
          {o.items.length > 0 && (
            <>
              <Typography.Title level={5} style={{ marginTop: 20 }}>
                检查项（{o.item_done}/{o.item_total}）
              </Typography.Title>
              <List
                size="small"
                bordered
                dataSource={o.items}
                renderItem={(item) => <CheckItem key={item.id} order={o} item={item} onDone={reload} />}
              />
            </>
          )}
          {o.photos.length > 0 && (
            <>
              <Typography.Title level={5} style={{ marginTop: 20 }}>
                附件
              </Typography.Title>
              <PhotoGallery urls={o.photos} />
            </>
          )}
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            流转记录
          </Typography.Title>
          <WorkflowTimeline flow={internalOrderFlow} items={o.log} />
        </div>
      )}
    </Drawer>
  );
}

const addShape = internalOrderSchemas.internalorderadd.shape;

interface OrderForm {
  title: string;
  kind: string;
  location?: string;
  content?: string;
  handler_ids: number[];
  cc_ids?: number[];
  items?: string[];
  due_hours: number;
  recurrence?: string;
  start_date?: Dayjs | null;
  photos?: string[];
}

/** 发起工单 / 修改工单: one form for both; recurrence only when raising. */
export function OrderFormModal({
  editing,
  open,
  onClose,
  onSaved,
}: {
  editing: InternalOrderDetail | null;
  open: boolean;
  onClose: () => void;
  onSaved: (id: number) => void;
}) {
  const [form] = Form.useForm<OrderForm>();
  const [busy, setBusy] = useState(false);
  const staff = useOrderStaff();
  const recurrence = Form.useWatch('recurrence', form);
  const initial: Partial<OrderForm> = editing
    ? {
        title: editing.title,
        kind: editing.kind,
        location: editing.location,
        content: editing.content,
        handler_ids: editing.handler_ids,
        cc_ids: editing.cc_ids,
        items: editing.items.map((i) => i.title),
        due_hours: editing.due_hours,
        photos: editing.photos,
      }
    : { kind: 'E', recurrence: 'O', due_hours: 24, items: [''], cc_ids: [], photos: [], start_date: dayjs() };
  const submit = async () => {
    let v: OrderForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const payload = {
      title: v.title,
      kind: v.kind as 'E',
      location: v.location ?? '',
      content: v.content ?? '',
      handler_ids: v.handler_ids,
      cc_ids: v.cc_ids ?? [],
      items: (v.items ?? []).map((s) => (s ?? '').trim()).filter(Boolean),
      due_hours: v.due_hours,
      photos: v.photos ?? [],
    };
    setBusy(true);
    try {
      if (editing) {
        await call('internalorderedit', { id: editing.id, ...payload });
        noticeSuccess('保存成功');
        onSaved(editing.id);
      } else {
        const recurring = v.recurrence && v.recurrence !== 'O';
        const answer = await call('internalorderadd', {
          ...payload,
          recurrence: (v.recurrence ?? 'O') as 'O',
          start_date: recurring && v.start_date ? v.start_date.format('YYYY-MM-DD') : undefined,
        });
        noticeSuccess(answer.no ? `已发起工单 ${answer.no}` : '已保存周期工单');
        onSaved(answer.id);
      }
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={editing ? `修改工单 ${editing.no}` : '发起内部工单'}
      open={open}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={busy}
      destroyOnHidden
      width={660}
      okButtonProps={{ 'data-testid': 'internalorder-save' } as ButtonProps}
    >
      <Form form={form} layout="vertical" initialValues={initial} preserve={false}>
        <Form.Item name="title" label="标题" rules={[zodRule(addShape.title, '标题')]}>
          <Input maxLength={60} data-testid="internalorder-title" />
        </Form.Item>
        <Space wrap style={{ width: '100%' }} size={12}>
          <Form.Item name="kind" label="类型" rules={[{ required: true, message: '请选择类型' }]}>
            <Select options={enumOptions(INTERNAL_ORDER_KIND)} style={{ width: 140 }} data-testid="internalorder-kind" />
          </Form.Item>
          <Form.Item name="location" label="位置">
            <Input maxLength={100} style={{ width: 240 }} data-testid="internalorder-location" />
          </Form.Item>
          <Form.Item name="due_hours" label="几小时内完成" rules={[{ required: true, message: '请填写时限' }]}>
            <InputNumber min={1} max={720} precision={0} addonAfter="小时" style={{ width: 150 }} data-testid="internalorder-due" />
          </Form.Item>
        </Space>
        <Form.Item name="handler_ids" label="处理人" rules={[{ required: true, message: '请选择处理人' }]}>
          <Select mode="multiple" options={staff} optionFilterProp="label" data-testid="internalorder-handlers" />
        </Form.Item>
        <Form.Item name="cc_ids" label="抄送人">
          <Select mode="multiple" options={staff} optionFilterProp="label" data-testid="internalorder-cc" />
        </Form.Item>
        <Form.Item name="content" label="内容">
          <Input.TextArea rows={2} maxLength={500} showCount data-testid="internalorder-content" />
        </Form.Item>
        <Form.Item label="检查项" required={false}>
          <Form.List name="items">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f, i) => (
                  <Space key={f.key} style={{ display: 'flex', marginBottom: 6 }} align="baseline">
                    <Form.Item name={f.name} noStyle>
                      <Input
                        maxLength={60}
                        placeholder={`检查项 ${i + 1}`}
                        style={{ width: 420 }}
                        data-testid={`internalorder-item-input-${i}`}
                      />
                    </Form.Item>
                    <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="删除检查项" />
                  </Space>
                ))}
                {fields.length < 30 && (
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add('')} data-testid="internalorder-item-add">
                    添加检查项
                  </Button>
                )}
              </>
            )}
          </Form.List>
        </Form.Item>
        {!editing && (
          <Space wrap size={12}>
            <Form.Item name="recurrence" label="工单标识">
              <Radio.Group options={enumOptions(INTERNAL_ORDER_RECURRENCE)} optionType="button" data-testid="internalorder-recurrence" />
            </Form.Item>
            {recurrence && recurrence !== 'O' && (
              <Form.Item name="start_date" label="开始日期" extra="当天起每个周期由系统生成一张工单">
                <DatePicker disabledDate={(d) => d.isBefore(dayjs(), 'day')} data-testid="internalorder-start" />
              </Form.Item>
            )}
          </Space>
        )}
        <Form.Item name="photos" label="附件（图片，最多 9 张）">
          <PhotosInput max={9} testId="internalorder-photos" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
