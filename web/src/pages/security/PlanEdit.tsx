import { useEffect, useState } from 'react';
import { Button, Card, Checkbox, DatePicker, Form, Input, InputNumber, Radio, Select, Space, TimePicker, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, HolderOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { PLAN_CYCLE, WEEKDAY_CH, type PlanCycle } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource, useSmallList } from '../../components/resource';
import { validValues } from '../../utils/forms';

interface PlanForm {
  name: string;
  in_order: 'Y' | 'N';
  cycle: PlanCycle;
  cycle_days: number[];
  range: [Dayjs, Dayjs];
  guard_ids: number[];
  ahead_minutes: number;
  makeup_hours: number;
  abnormal_order: 'Y' | 'N';
  order_handler_id?: number;
  status: 'Y' | 'N';
  remark: string;
}
interface RouteRow {
  point_id: number;
  offset_from: number;
  offset_to: number;
}
interface Shift {
  start: string;
  end: string;
}

const LIST = '/security/patrol_plan';
const FMT = 'HH:mm';

/**
 * /security/patrol_plan_add and /security/patrol_plan_edit?id= (新增/编辑巡更计划): the route of
 * ordered points (drag a row, or the up and down buttons) each with its window after the shift
 * starts, in order or any order, the cycle, validity, shift windows (one may cross midnight), the
 * guards, the minutes ahead, the make-up time and whether an abnormal result opens a work order.
 */
export default function PlanEdit() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PlanForm>();
  const [route, setRoute] = useState<RouteRow[]>([]);
  const [shifts, setShifts] = useState<Shift[]>([{ start: '20:00', end: '22:00' }]);
  const [drag, setDrag] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const cycle = (Form.useWatch('cycle', form) ?? 'D') as PlanCycle;
  const abnormal = Form.useWatch('abnormal_order', form);
  const points = useSmallList('patrolpoint_small_list', {});
  const guards = useSmallList('patrol_guard_small_list', {});
  const handlers = useQuery({ queryKey: ['internal_order_staff_small_list'], queryFn: () => call('internal_order_staff_small_list', {}) });
  const [adding, setAdding] = useState<number | undefined>();

  useEffect(() => {
    if (!id) return;
    call('patrolplaninfo', { id })
      .then((r) => {
        form.setFieldsValue({
          ...r,
          range: [dayjs(r.start_date), dayjs(r.end_date)],
          order_handler_id: r.order_handler_id ?? undefined,
        });
        setRoute(r.points.map((p) => ({ point_id: p.point_id, offset_from: p.offset_from, offset_to: p.offset_to })));
        setShifts(r.shifts);
      })
      .catch(() => void navigate(LIST, { replace: true }));
  }, [id, form, navigate]);

  const pointName = (pid: number) => points.items.find((p) => p.id === pid)?.title ?? `#${pid}`;
  const move = (from: number, to: number) =>
    setRoute((r) => {
      if (to < 0 || to >= r.length) return r;
      const next = [...r];
      const [x] = next.splice(from, 1);
      next.splice(to, 0, x!);
      return next;
    });
  const setRow = (i: number, patch: Partial<RouteRow>) => setRoute((r) => r.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  const setShift = (i: number, patch: Partial<Shift>) => setShifts((r) => r.map((x, j) => (j === i ? { ...x, ...patch } : x)));

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    const { range, ...rest } = v;
    const payload = {
      ...rest,
      cycle_days: cycle === 'W' || cycle === 'M' ? (v.cycle_days ?? []) : [],
      start_date: range[0].format('YYYY-MM-DD'),
      end_date: range[1].format('YYYY-MM-DD'),
      points: route,
      shifts,
      order_handler_id: v.abnormal_order === 'Y' ? (v.order_handler_id ?? '') : '',
    };
    setSaving(true);
    try {
      const answer = id ? await request('patrolplanedit', { ...payload, id }) : await request('patrolplanadd', payload);
      noticeSuccess(answer.return_msg ?? '操作成功');
      void invalidateResource(queryClient, 'patrolplan');
      void invalidateResource(queryClient, 'patrolpoint');
      void navigate(LIST);
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  const chosen = new Set(route.map((r) => r.point_id));
  return (
    <Card title={id ? '编辑巡更计划' : '新增巡更计划'} data-testid="patrolplan-form">
      <Form
        form={form}
        labelCol={{ xs: { span: 24 }, sm: { span: 4 } }}
        wrapperCol={{ xs: { span: 24 }, sm: { span: 18 } }}
        initialValues={{
          in_order: 'N',
          cycle: 'D',
          cycle_days: [],
          range: [dayjs(), dayjs().add(1, 'year')],
          guard_ids: [],
          ahead_minutes: 30,
          makeup_hours: 0,
          abnormal_order: 'N',
          status: 'Y',
          remark: '',
        }}
      >
        <Form.Item name="name" label="计划名称" rules={[{ required: true, max: 30, message: '请输入计划名称（最多30字）' }]}>
          <Input data-testid="plan-name" placeholder="如 夜间巡逻" />
        </Form.Item>
        <Form.Item label="巡更路线" required extra="拖动行或用上下箭头调整顺序；时段为班次开始后的分钟数，都为 0 表示整个班次">
          <Space direction="vertical" style={{ width: '100%' }}>
            {route.map((r, i) => (
              <div
                key={r.point_id}
                draggable
                onDragStart={() => setDrag(i)}
                onDragOver={(e) => e.preventDefault()}
                onDrop={() => {
                  if (drag !== null) move(drag, i);
                  setDrag(null);
                }}
                style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', cursor: 'move' }}
                data-testid={`route-row-${i}`}
              >
                <HolderOutlined />
                <Typography.Text strong style={{ minWidth: 24 }}>
                  {i + 1}
                </Typography.Text>
                <span style={{ minWidth: 160 }}>{pointName(r.point_id)}</span>
                <InputNumber
                  size="small"
                  min={0}
                  max={1440}
                  value={r.offset_from}
                  onChange={(x) => setRow(i, { offset_from: Number(x ?? 0) })}
                  addonBefore="+"
                  style={{ width: 100 }}
                />
                <span>至</span>
                <InputNumber
                  size="small"
                  min={0}
                  max={1440}
                  value={r.offset_to}
                  onChange={(x) => setRow(i, { offset_to: Number(x ?? 0) })}
                  addonAfter="分"
                  style={{ width: 100 }}
                />
                <Button
                  size="small"
                  icon={<ArrowUpOutlined />}
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                  aria-label="上移"
                  data-testid={`route-up-${i}`}
                />
                <Button
                  size="small"
                  icon={<ArrowDownOutlined />}
                  disabled={i === route.length - 1}
                  onClick={() => move(i, i + 1)}
                  aria-label="下移"
                />
                <Button
                  size="small"
                  icon={<DeleteOutlined />}
                  onClick={() => setRoute((x) => x.filter((_, j) => j !== i))}
                  aria-label="移除"
                />
              </div>
            ))}
            <Space wrap>
              <Select
                showSearch
                optionFilterProp="label"
                placeholder="选择巡更点"
                style={{ width: 240, maxWidth: '100%' }}
                value={adding}
                onChange={(v: number) => setAdding(v)}
                options={points.items.filter((p) => !chosen.has(p.id)).map((p) => ({ value: p.id, label: p.title }))}
                data-testid="route-point"
              />
              <Button
                icon={<PlusOutlined />}
                disabled={!adding}
                onClick={() => {
                  if (adding) setRoute((r) => [...r, { point_id: adding, offset_from: 0, offset_to: 0 }]);
                  setAdding(undefined);
                }}
                data-testid="route-add"
              >
                加入路线
              </Button>
            </Space>
          </Space>
        </Form.Item>
        <Form.Item name="in_order" label="顺序要求">
          <Radio.Group
            options={[
              { value: 'N', label: '不限顺序' },
              { value: 'Y', label: '按顺序（跳序会标记）' },
            ]}
          />
        </Form.Item>
        <Form.Item name="cycle" label="周期" rules={[{ required: true, message: '请选择周期' }]}>
          <Radio.Group options={enumOptions(PLAN_CYCLE)} data-testid="plan-cycle" />
        </Form.Item>
        {cycle === 'W' && (
          <Form.Item name="cycle_days" label="星期" rules={[{ required: true, type: 'array', min: 1, message: '请选择星期' }]}>
            <Checkbox.Group options={WEEKDAY_CH.map((d, i) => ({ value: i + 1, label: `周${d}` }))} />
          </Form.Item>
        )}
        {cycle === 'M' && (
          <Form.Item name="cycle_days" label="日期" rules={[{ required: true, type: 'array', min: 1, message: '请选择日期' }]}>
            <Select mode="multiple" options={Array.from({ length: 31 }, (_, i) => ({ value: i + 1, label: `${i + 1}日` }))} />
          </Form.Item>
        )}
        <Form.Item name="range" label="有效期" rules={[{ required: true, message: '请选择有效期' }]}>
          <DatePicker.RangePicker data-testid="plan-range" />
        </Form.Item>
        <Form.Item label="班次时段" required extra="结束早于开始表示到次日，如 22:00 至 06:00">
          <Space direction="vertical">
            {shifts.map((s, i) => (
              <Space key={i} data-testid={`shift-${i}`}>
                <TimePicker
                  format={FMT}
                  value={dayjs(s.start, FMT)}
                  allowClear={false}
                  onChange={(t) => t && setShift(i, { start: t.format(FMT) })}
                  data-testid={`shift-start-${i}`}
                />
                <span>至</span>
                <TimePicker
                  format={FMT}
                  value={dayjs(s.end, FMT)}
                  allowClear={false}
                  onChange={(t) => t && setShift(i, { end: t.format(FMT) })}
                  data-testid={`shift-end-${i}`}
                />
                <Button
                  icon={<DeleteOutlined />}
                  disabled={shifts.length === 1}
                  onClick={() => setShifts((x) => x.filter((_, j) => j !== i))}
                  aria-label="删除时段"
                />
              </Space>
            ))}
            <Button
              icon={<PlusOutlined />}
              disabled={shifts.length >= 6}
              onClick={() => setShifts((x) => [...x, { start: '08:00', end: '10:00' }])}
            >
              添加时段
            </Button>
          </Space>
        </Form.Item>
        <Form.Item name="guard_ids" label="巡更人员" rules={[{ required: true, type: 'array', min: 1, message: '请选择巡更人员' }]}>
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            options={guards.items.map((g) => ({ value: g.id, label: g.title }))}
            placeholder="有安保巡更权限的员工"
            data-testid="plan-guards"
          />
        </Form.Item>
        <Form.Item name="ahead_minutes" label="提前生成" extra="班次开始前多少分钟生成任务">
          <InputNumber min={0} max={1440} addonAfter="分钟" />
        </Form.Item>
        <Form.Item name="makeup_hours" label="补检时限" extra="班次结束后还可补签、补检的小时数，之后任务关闭">
          <InputNumber min={0} max={72} addonAfter="小时" />
        </Form.Item>
        <Form.Item name="abnormal_order" label="异常转工单">
          <Radio.Group
            options={[
              { value: 'N', label: '不转' },
              { value: 'Y', label: '自动生成内部工单' },
            ]}
            data-testid="plan-abnormal"
          />
        </Form.Item>
        {abnormal === 'Y' && (
          <Form.Item name="order_handler_id" label="工单处理人" rules={[{ required: true, message: '请选择工单处理人' }]}>
            <Select
              showSearch
              optionFilterProp="label"
              options={(handlers.data?.items ?? []).map((h) => ({ value: h.id, label: h.name }))}
              data-testid="plan-handler"
            />
          </Form.Item>
        )}
        <Form.Item name="status" label="状态">
          <Radio.Group
            options={[
              { value: 'Y', label: '启用' },
              { value: 'N', label: '停用' },
            ]}
          />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注最多200字' }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item wrapperCol={{ xs: { span: 24 }, sm: { offset: 4, span: 18 } }}>
          <Space>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="patrolplan-save">
              保存
            </Button>
            <Button onClick={() => void navigate(LIST)}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
