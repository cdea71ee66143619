import { useState } from 'react';
import { App, Button, DatePicker, Form, Input, InputNumber, Modal, Radio, Rate, Select, Space, Typography, type ButtonProps } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import type { Roles } from '@wuye/contract/kit/resource';
import { allowedTransitions, type TransitionDef } from '@wuye/contract/kit/workflow';
import { repairFlow, type RepairItem } from '@wuye/contract/steward/repairs';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { PhotosInput } from '../../components/PhotosInput';
import { useRoles } from '../../components/resource';

/** The transitions a technician takes only on a ticket handed to them (grab: on a grab type they are bound to). */
const OWN = new Set(['accept', 'pause', 'resume', 'transfer', 'return', 'finish']);

/** The repair steps this user may take on this row: by state and role, a technician's only on their own tickets. */
export function repairSteps(row: RepairItem, can: (roles: Roles) => boolean): Array<[string, TransitionDef]> {
  return allowedTransitions(repairFlow.def, row.status, can).filter(([key]) => {
    if (key === 'grab') return row.mode === 'G' && row.bound;
    if (OWN.has(key)) return row.mine;
    return true;
  });
}

/** A technician to pick: their open tickets and whether they are on duty now. */
export function TechSelect({
  typeId,
  value,
  onChange,
  testId,
}: {
  typeId?: number;
  value?: number;
  onChange?: (v: number) => void;
  testId: string;
}) {
  const techs = useQuery({
    queryKey: ['repair_tech_small_list', typeId ?? 0],
    queryFn: async () => (await request('repair_tech_small_list', typeId ? { type_id: typeId } : {})).data,
  });
  const all = useQuery({
    queryKey: ['repair_tech_small_list', 0],
    queryFn: async () => (await request('repair_tech_small_list', {})).data,
    enabled: !!typeId,
  });
  // the type's bound technicians first; the rest of the community's after them
  const bound = techs.data?.items ?? [];
  const others = (all.data?.items ?? []).filter((t) => !bound.some((b) => b.id === t.id));
  const label = (t: { title: string; open_count: number; on_duty: boolean }) =>
    `${t.title}（未完成 ${t.open_count} 张${t.on_duty ? '，在岗' : ''}）`;
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      placeholder="选择维修师傅"
      value={value}
      onChange={onChange}
      loading={techs.isFetching}
      data-testid={testId}
      options={[
        ...(bound.length
          ? [{ label: typeId ? '该类型的师傅' : '维修师傅', options: bound.map((t) => ({ value: t.id, label: label(t) })) }]
          : []),
        ...(others.length ? [{ label: '其他师傅', options: others.map((t) => ({ value: t.id, label: label(t) })) }] : []),
      ]}
    />
  );
}

const reason = (name: string, label: string, testId: string) => (
  <Form.Item name={name} label={label} rules={[{ required: true, whitespace: true, message: `请填写${label}` }]}>
    <Input.TextArea rows={3} maxLength={200} showCount data-testid={testId} />
  </Form.Item>
);

/** The inputs a step asks for, in the product's words. */
function StepFields({ step, row }: { step: string; row: RepairItem }) {
  const id = (k: string) => `repair-${step}-${k}`;
  switch (step) {
    case 'dispatch':
      return (
        <>
          <Form.Item name="handler_id" label="维修师傅" rules={[{ required: true, message: '请选择维修师傅' }]}>
            <TechSelect typeId={row.type_id} testId={id('handler')} />
          </Form.Item>
          <Form.Item name="note" label="派单说明">
            <Input maxLength={200} data-testid={id('note')} />
          </Form.Item>
        </>
      );
    case 'transfer':
      return (
        <>
          <Form.Item name="handler_id" label="转给" rules={[{ required: true, message: '请选择维修师傅' }]}>
            <TechSelect typeId={row.type_id} testId={id('handler')} />
          </Form.Item>
          {reason('reason', '转单原因', id('reason'))}
        </>
      );
    case 'pause':
      return (
        <>
          {reason('reason', '暂停原因', id('reason'))}
          <Form.Item name="resume_date" label="预计恢复日期" rules={[{ required: true, message: '请选择预计恢复日期' }]}>
            <DatePicker disabledDate={(d: Dayjs) => d.isBefore(dayjs(), 'day')} data-testid={id('resume-date')} />
          </Form.Item>
        </>
      );
    case 'return':
      return reason('reason', '退单原因', id('reason'));
    case 'reopen':
      return reason('reason', '返修原因', id('reason'));
    case 'close':
      return (
        <>
          <Typography.Paragraph type="secondary">关闭后工单结束；未缴的维修费账单会作废。</Typography.Paragraph>
          {reason('reason', '关闭原因', id('reason'))}
        </>
      );
    case 'finish':
      return (
        <>
          <Form.Item name="note" label="处理说明" rules={[{ required: true, whitespace: true, message: '请填写处理说明' }]}>
            <Input.TextArea rows={3} maxLength={500} showCount data-testid={id('note')} />
          </Form.Item>
          <Form.Item name="materials" label="用料">
            <Input maxLength={200} placeholder="如 水龙头1个、生料带1卷" data-testid={id('materials')} />
          </Form.Item>
          <Form.Item name="before_photos" label="维修前照片">
            <PhotosInput max={9} testId={id('before')} />
          </Form.Item>
          <Form.Item name="after_photos" label="维修后照片">
            <PhotosInput max={9} testId={id('after')} />
          </Form.Item>
          {row.paid === 'Y' && row.hid > 0 && (
            <Form.Item label="收费明细" extra="有收费时生成维修费账单，业主在收银台缴纳后进入待评价">
              <Form.List name="fee_lines">
                {(fields, { add, remove }) => (
                  <>
                    {fields.map((f, i) => (
                      <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
                        <Form.Item name={[f.name, 'name']} rules={[{ required: true, whitespace: true, message: '请填写收费项目' }]}>
                          <Input placeholder="收费项目" maxLength={30} data-testid={`${id('fee-name')}-${i}`} />
                        </Form.Item>
                        <Form.Item name={[f.name, 'amount']} rules={[{ required: true, message: '请填写金额' }]}>
                          <InputNumber
                            min={0.01}
                            max={100000}
                            precision={2}
                            placeholder="金额"
                            addonAfter="元"
                            data-testid={`${id('fee-amount')}-${i}`}
                          />
                        </Form.Item>
                        <MinusCircleOutlined onClick={() => remove(f.name)} />
                      </Space>
                    ))}
                    <Button
                      type="dashed"
                      onClick={() => add({ name: '', amount: null })}
                      icon={<PlusOutlined />}
                      data-testid={id('fee-add')}
                    >
                      添加收费项
                    </Button>
                  </>
                )}
              </Form.List>
            </Form.Item>
          )}
        </>
      );
    case 'rate':
      return (
        <>
          {(
            [
              ['overall', '综合评分'],
              ['speed', '上门速度'],
              ['service', '服务态度'],
            ] as const
          ).map(([k, label]) => (
            <Form.Item key={k} name={k} label={label} rules={[{ required: true, message: `请打${label}` }]}>
              <Rate data-testid={id(k)} />
            </Form.Item>
          ))}
          <Form.Item name="text" label="评价内容">
            <Input.TextArea rows={2} maxLength={300} showCount data-testid={id('text')} />
          </Form.Item>
        </>
      );
    case 'visit':
      return (
        <>
          <Form.Item name="satisfied" label="业主是否满意" rules={[{ required: true, message: '请选择' }]}>
            <Radio.Group
              options={[
                { value: 'Y', label: '满意' },
                { value: 'N', label: '不满意' },
              ]}
              data-testid={id('satisfied')}
            />
          </Form.Item>
          <Form.Item name="note" label="回访记录">
            <Input.TextArea rows={3} maxLength={500} data-testid={id('note')} />
          </Form.Item>
        </>
      );
    default:
      return null;
  }
}

const ASKS = new Set(['dispatch', 'transfer', 'pause', 'return', 'reopen', 'close', 'finish', 'rate', 'visit']);

/**
 * The steps a user may take on a ticket (docs/product.md#repairs): by its state, the user's roles and
 * whether it is theirs; each asks for what it needs, calls its method, tells the answer and refreshes.
 * Test ids `repair-<step>-<id>`, the dialog's ok `repair-<step>-ok`; 催单 `repair-urge-<id>`.
 */
export default function RepairActions({
  row,
  onDone,
  size = 'small',
}: {
  row: RepairItem;
  onDone: () => void;
  size?: ButtonProps['size'];
}) {
  const can = useRoles();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [asking, setAsking] = useState<[string, TransitionDef] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const steps = repairSteps(row, can);
  const urge = can(STEWARD_ROLES.desk) && ['W', 'A', 'P', 'S'].includes(row.status);

  const run = async (key: string, method: string, input: Record<string, unknown> = {}) => {
    setBusy(key);
    try {
      const answer = await request(method as 'repairaccept', { id: row.id, ...input } as { id: number });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setAsking(null);
      void queryClient.invalidateQueries({ queryKey: ['repair'] });
      onDone();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(null);
    }
  };
  const start = (key: string, t: TransitionDef) => {
    if (ASKS.has(key)) {
      form.resetFields();
      setAsking([key, t]);
    } else {
      void modal.confirm({
        title: t.label,
        content: t.confirm ?? `确定${t.label}？`,
        okText: '确定',
        cancelText: '取消',
        okButtonProps: { 'data-testid': `repair-${key}-confirm` } as ButtonProps,
        onOk: () => run(key, t.method),
      });
    }
  };
  const submit = async () => {
    if (!asking) return;
    let values: Record<string, unknown>;
    try {
      values = (await form.validateFields()) as Record<string, unknown>;
    } catch {
      return;
    }
    const [key, t] = asking;
    const input: Record<string, unknown> = { ...values };
    if (key === 'pause') input.resume_date = (values.resume_date as Dayjs).format('YYYY-MM-DD');
    if (key === 'finish') {
      input.fee_lines = ((values.fee_lines as Array<{ name: string; amount: number }> | undefined) ?? []).map((l) => ({
        name: l.name,
        amount: Number(l.amount).toFixed(2),
      }));
    }
    for (const [k, v] of Object.entries(input)) if (v === undefined || v === null) delete input[k];
    await run(key, t.method, input);
  };

  if (steps.length === 0 && !urge) return null;
  return (
    <>
      <Space size={4} wrap>
        {steps.map(([key, t]) => (
          <Button
            key={key}
            size={size}
            type={key === 'dispatch' || key === 'accept' || key === 'finish' ? 'primary' : 'default'}
            danger={t.danger}
            loading={busy === key}
            onClick={() => start(key, t)}
            data-testid={`repair-${key}-${row.id}`}
          >
            {t.label}
          </Button>
        ))}
        {urge && (
          <Button
            size={size}
            loading={busy === 'urge'}
            onClick={() => void run('urge', 'repairurge')}
            data-testid={`repair-urge-${row.id}`}
          >
            催单
          </Button>
        )}
      </Space>
      <Modal
        title={asking ? `${asking[1].label} · ${row.no}` : ''}
        open={asking !== null}
        onOk={() => void submit()}
        onCancel={() => setAsking(null)}
        confirmLoading={busy !== null}
        destroyOnHidden
        width={asking?.[0] === 'finish' ? 640 : 480}
        okButtonProps={{ danger: asking?.[1].danger, 'data-testid': asking ? `repair-${asking[0]}-ok` : undefined } as ButtonProps}
      >
        {asking && (
          <Form form={form} layout="vertical" preserve={false}>
            <StepFields step={asking[0]} row={row} />
          </Form>
        )}
      </Modal>
    </>
  );
}
