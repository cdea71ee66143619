import { useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Form, Image, Input, Modal, Radio, Select, Space, Typography, type ButtonProps } from 'antd';
import type { TableColumnsType } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import {
  MAINTAIN_TASK_STATUS,
  type MaintainTaskDetail,
  type MaintainTaskRow,
  type MaintainTaskStatus,
} from '@wuye/contract/assets/maintain';
import { ASSET_ROLES } from '@wuye/contract/assets/roles';
import { call } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { StatusBar, type StatusBarKey } from '../../components/StatusBar';
import { PhotosInput } from '../../components/PhotosInput';
import { EnumTag, useCanWrite, useSmallList } from '../../components/resource';

interface Filters {
  keyword?: string;
  plan_id?: number;
  mine?: '' | 'Y';
}

type Bar = StatusBarKey<'P' | 'Y' | 'F'>;

interface DoneForm {
  results: Array<{ passed?: boolean; note?: string }>;
  notes?: string;
  photos?: string[];
}

/** 执行: each check passed or failed (a failed one needs a note), notes and photos; a failure opens a work order. */
function DoneModal({
  task,
  onClose,
  onDone,
}: {
  task: MaintainTaskDetail | null;
  onClose: () => void;
  onDone: (d: MaintainTaskDetail) => void;
}) {
  const [form] = Form.useForm<DoneForm>();
  const [saving, setSaving] = useState(false);
  const results = (Form.useWatch('results', form) ?? []) as DoneForm['results'];
  const failing = results.filter((r) => r?.passed === false).length;
  const save = async () => {
    if (!task) return;
    const v = await form.validateFields();
    setSaving(true);
    try {
      const answer = await call('maintaintaskdone', {
        id: task.id,
        results: v.results.map((r) => ({ passed: r.passed === true, note: r.note ?? '' })),
        notes: v.notes ?? '',
        photos: v.photos ?? [],
      });
      noticeSuccess(answer.order_no ? `维保任务已完成，已生成内部工单 ${answer.order_no}` : '维保任务已完成');
      onDone(answer);
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={!!task}
      width={640}
      title={task ? `执行维保：${task.asset_name}（${task.due_on}）` : ''}
      onCancel={onClose}
      onOk={() => void save()}
      okText="完成任务"
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'maintaintask-done-save' } as ButtonProps}
    >
      {task && (
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ results: task.items.map(() => ({ passed: true, note: '' })) }}
        >
          {task.items.map((item, i) => (
            <Space key={item.title} align="start" style={{ display: 'flex' }}>
              <Form.Item label={`${i + 1}. ${item.title}`} name={['results', i, 'passed']} style={{ minWidth: 240 }}>
                <Radio.Group
                  options={[
                    { value: true, label: '合格' },
                    { value: false, label: '不合格' },
                  ]}
                  data-testid={`maintaintask-check-${i}`}
                />
              </Form.Item>
              <Form.Item
                label="说明"
                name={['results', i, 'note']}
                rules={[
                  {
                    validator: async (_, v: string | undefined) => {
                      if (results[i]?.passed === false && !v?.trim()) throw new Error('不合格的检查项请填写说明');
                    },
                  },
                ]}
              >
                <Input maxLength={200} style={{ width: 260 }} data-testid={`maintaintask-note-${i}`} />
              </Form.Item>
            </Space>
          ))}
          {failing > 0 && (
            <Alert
              type="warning"
              showIcon
              message={`${failing} 项不合格：完成后将自动生成内部工单（设备维护）`}
              style={{ marginBottom: 12 }}
            />
          )}
          <Form.Item name="notes" label="处理说明">
            <Input.TextArea maxLength={500} rows={2} data-testid="maintaintask-notes" />
          </Form.Item>
          <Form.Item name="photos" label="现场照片">
            <PhotosInput max={9} testId="maintaintask-photos" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** 详情: the checks and their results, notes, photos, who did it, and the work order a failure opened. */
function TaskDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: ['maintaintaskinfo', id],
    queryFn: () => call('maintaintaskinfo', { id: id! }),
    enabled: !!id,
    retry: false,
  });
  const t = q.data;
  return (
    <Drawer open={!!id} onClose={onClose} width={560} title="维保任务详情" destroyOnHidden data-testid="maintaintask-drawer">
      {t && (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="设备">{`${t.asset_code} ${t.asset_name}（${t.location}）`}</Descriptions.Item>
            <Descriptions.Item label="计划 / 标准">{`${t.plan_name} / ${t.standard_name}`}</Descriptions.Item>
            <Descriptions.Item label="计划日期">{t.due_on}</Descriptions.Item>
            <Descriptions.Item label="责任人">{t.staff_names}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <EnumTag enum={MAINTAIN_TASK_STATUS} value={t.status} />
            </Descriptions.Item>
            <Descriptions.Item label="检查项">
              {t.items.map((c, i) => (
                <div key={c.title}>
                  {i + 1}. {c.title}：
                  {c.passed === null ? (
                    <Typography.Text type="secondary">未检查</Typography.Text>
                  ) : c.passed ? (
                    <Typography.Text type="success">合格</Typography.Text>
                  ) : (
                    <Typography.Text type="danger">不合格{c.note ? `（${c.note}）` : ''}</Typography.Text>
                  )}
                </div>
              ))}
            </Descriptions.Item>
            {t.done_time && <Descriptions.Item label="完成">{`${t.done_name} ${t.done_time}`}</Descriptions.Item>}
            {t.notes && <Descriptions.Item label="处理说明">{t.notes}</Descriptions.Item>}
            {t.order_id && (
              <Descriptions.Item label="内部工单">
                <a onClick={() => void navigate(`/steward/internalorder?id=${t.order_id}`)} data-testid="maintaintask-order">
                  {t.order_no}
                </a>
              </Descriptions.Item>
            )}
          </Descriptions>
          {t.photos.length > 0 && (
            <Image.PreviewGroup>
              <Space wrap style={{ marginTop: 12 }}>
                {t.photos.map((p) => (
                  <Image key={p} src={p} width={96} />
                ))}
              </Space>
            </Image.PreviewGroup>
          )}
        </>
      )}
    </Drawer>
  );
}

/**
 * /carpark/maintaintask (维保任务; docs/product.md#equipment-ledger): the tasks the plans generate,
 * by state (待执行, 已逾期, 已完成, 完成有异常), filtered by device, plan or mine; 执行 records the
 * checks, notes and photos (a failed check opens an internal work order); 立即生成 runs the job
 * for the community now. ?id= opens a task, as the to-do list links it.
 */
export default function TaskList() {
  const list = useList('maintaintasklist', { sort: 'desc' });
  const [form] = Form.useForm<Filters>();
  const [bar, setBar] = useState<Bar>('');
  const [params, setParams] = useSearchParams();
  const viewing = Number(params.get('id')) || null;
  const [doing, setDoing] = useState<MaintainTaskDetail | null>(null);
  const [generating, setGenerating] = useState(false);
  const actionFixed = useActionFixed();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(ASSET_ROLES.staff);
  const plans = useSmallList('maintainplan_small_list', {});

  const open = (id: number | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('id', String(id));
    else next.delete('id');
    setParams(next, { replace: true });
  };
  const apply = (b: Bar, v: Filters = form.getFieldsValue(true) as Filters) =>
    list.setFilters({
      sort: 'desc',
      keyword: v.keyword ?? '',
      plan_id: v.plan_id,
      mine: v.mine ?? '',
      // 超时 is the overdue state (O: pending past its day)
      status: (b === 'overdue' ? 'O' : b) as '' | MaintainTaskStatus,
    });
  const start = async (row: MaintainTaskRow) => {
    try {
      setDoing(await call('maintaintaskinfo', { id: row.id }));
    } catch {
      /* shown by the client */
    }
  };
  const generate = async () => {
    setGenerating(true);
    try {
      const answer = await call('maintaintaskgenerate', {});
      noticeSuccess(answer.tasks > 0 ? `已生成 ${answer.tasks} 个维保任务` : '没有需要生成的维保任务');
      list.reload();
    } catch {
      /* shown by the client */
    } finally {
      setGenerating(false);
    }
  };

  const columns: TableColumnsType<MaintainTaskRow> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    {
      title: '设备',
      key: 'asset',
      width: 200,
      render: (_, r) => (
        <a onClick={() => open(r.id)} data-testid={`maintaintask-view-${r.id}`}>
          {`${r.asset_code} ${r.asset_name}`}
        </a>
      ),
    },
    { title: '位置', dataIndex: 'location', width: 120, ellipsis: true },
    { title: '维保计划', dataIndex: 'plan_name', width: 140 },
    { title: '计划日期', dataIndex: 'due_on', width: 110 },
    { title: '责任人', dataIndex: 'staff_names', width: 110 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 110,
      render: (s: string, r) => <EnumTag enum={MAINTAIN_TASK_STATUS} value={s} data-testid={`maintaintask-status-${r.id}`} />,
    },
    {
      title: '检查结果',
      key: 'result',
      width: 110,
      render: (_, r) =>
        r.status === 'Y' || r.status === 'F' ? (
          r.failed_count ? (
            <Typography.Text type="danger">{`${r.failed_count}/${r.item_count} 不合格`}</Typography.Text>
          ) : (
            <Typography.Text type="success">{`${r.item_count} 项合格`}</Typography.Text>
          )
        ) : (
          `${r.item_count} 项`
        ),
    },
    { title: '内部工单', dataIndex: 'order_no', width: 100 },
    { title: '完成人', dataIndex: 'done_name', width: 90 },
    { title: '完成时间', dataIndex: 'done_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 150,
      fixed: actionFixed,
      render: (_, r) => (
        <Space size={4}>
          <Button size="small" onClick={() => open(r.id)} data-testid={`maintaintask-detail-${r.id}`}>
            详情
          </Button>
          {canWrite && (r.status === 'P' || r.status === 'O') && (
            <Button size="small" type="primary" onClick={() => void start(r)} data-testid={`maintaintask-do-${r.id}`}>
              执行
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <StatusBar
        states={['P', 'Y', 'F'] as const}
        labels={MAINTAIN_TASK_STATUS}
        waiting={['P'] as const}
        counts={list.answer ? { ...list.answer.counts, overdue: list.answer.counts.O } : undefined}
        value={bar}
        onChange={(b) => {
          setBar(b);
          apply(b);
        }}
        testId="maintaintask"
      />
      <TablePage<MaintainTaskRow, Filters>
        testId="maintaintask-page"
        list={list}
        form={form}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 1500 } }}
        onSearch={(v) => apply(bar, v)}
        toolbar={
          canWrite && (
            <Button icon={<ThunderboltOutlined />} loading={generating} onClick={() => void generate()} data-testid="maintaintask-generate">
              立即生成到期任务
            </Button>
          )
        }
        filters={
          <>
            <Form.Item name="keyword" label="设备">
              <Input allowClear placeholder="名称或编码" style={{ width: 150 }} data-testid="maintaintask-filter-keyword" />
            </Form.Item>
            <Form.Item name="plan_id" label="计划">
              <Select allowClear options={plans.options} style={{ width: 160 }} data-testid="maintaintask-filter-plan" />
            </Form.Item>
            <Form.Item name="mine" label="我的">
              <Select
                allowClear
                style={{ width: 110 }}
                options={[{ value: 'Y', label: '我负责的' }]}
                data-testid="maintaintask-filter-mine"
              />
            </Form.Item>
          </>
        }
      />
      <TaskDrawer id={viewing} onClose={() => open(null)} />
      <DoneModal
        task={doing}
        onClose={() => setDoing(null)}
        onDone={(d) => {
          setDoing(null);
          queryClient.setQueryData(['maintaintaskinfo', d.id], d);
          list.reload();
        }}
      />
    </>
  );
}
