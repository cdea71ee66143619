import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, DatePicker, Form, Input, InputNumber, Radio, Select, Space } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { ROSTER_KIND, rosterSlots, WEEKDAY_CH, type RosterKind } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource, useSmallList } from '../../components/resource';
import { validValues } from '../../utils/forms';
import './roster.css';

interface RosterForm {
  name: string;
  kind: RosterKind;
  cycle: number;
  start_date: Dayjs;
  staff_ids: number[];
  status: 'Y' | 'N';
  remark: string;
}

const LIST = '/setup/schedulelist';
/** a day slot's value in the pickers: a shift's id, or 0 for rest */
const REST = 0;

/** The label of day slot `i`: 第N天 (by day), 第N周 周X (by week), N日 (by month). */
function slotLabel(kind: RosterKind, cycle: number, i: number): string {
  if (kind === 'D') return `第${i + 1}天`;
  if (kind === 'W') return `${cycle > 1 ? `第${Math.floor(i / 7) + 1}周 ` : ''}周${WEEKDAY_CH[i % 7]}`;
  return `${i + 1}日`;
}

/**
 * /setup/scheduleedit (新增/编辑排班): name, kind and cycle, effective date, a shift or rest for
 * each day of the cycle, and the staff; ?id= edits a roster.
 */
export default function ScheduleEdit() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RosterForm>();
  const [saving, setSaving] = useState(false);
  const [days, setDays] = useState<number[]>([]);
  const kind = (Form.useWatch('kind', form) ?? 'W') as RosterKind;
  const cycle = Number(Form.useWatch('cycle', form) ?? 1) || 1;
  const shifts = useSmallList('dutyshift_small_list', {});
  const staff = useQuery({ queryKey: ['schedule_staff_small_list'], queryFn: () => call('schedule_staff_small_list', {}) });
  const slots = rosterSlots(kind, kind === 'M' ? 1 : Math.min(Math.max(cycle, 1), kind === 'W' ? 4 : 31));

  // the day slots follow the kind and cycle: the first `slots` show and are saved; those beyond are
  // kept (a shorter cycle chosen by mistake loses nothing), new ones start as rest
  useEffect(() => {
    setDays((d) => (d.length >= slots ? d : [...d, ...Array.from({ length: slots - d.length }, () => REST)]));
  }, [slots]);
  const shown = days.slice(0, slots);

  useEffect(() => {
    if (!id) return;
    call('scheduleinfo', { id })
      .then((r) => {
        form.setFieldsValue({ ...r, start_date: dayjs(r.start_date) });
        setDays(r.days.map((d) => d ?? REST));
      })
      .catch(() => void navigate(LIST, { replace: true }));
  }, [id, form, navigate]);

  const shiftOptions = useMemo(
    () => [{ value: REST, label: '休息' }, ...shifts.items.map((s) => ({ value: s.id, label: s.title }))],
    [shifts.items],
  );
  const setAll = (value: number, only?: (i: number) => boolean) =>
    setDays((d) => d.map((v, i) => (i >= slots || (only && !only(i)) ? v : value)));
  const firstShift = shifts.items[0]?.id;

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    const payload = {
      ...v,
      cycle: kind === 'M' ? 1 : v.cycle,
      start_date: v.start_date.format('YYYY-MM-DD'),
      days: shown.map((d) => (d === REST ? null : d)),
    };
    setSaving(true);
    try {
      const answer = id ? await request('scheduleedit', { ...payload, id }) : await request('scheduleadd', payload);
      noticeSuccess(answer.return_msg ?? '操作成功');
      void invalidateResource(queryClient, 'schedule');
      void invalidateResource(queryClient, 'dutyshift');
      void navigate(LIST);
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={id ? '编辑排班' : '新增排班'} data-testid="schedule-form" className="roster-edit">
      {shifts.items.length === 0 && !shifts.loading && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} message="还没有启用的班次：请先在“排班管理 → 班次”中新增班次" />
      )}
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ xs: { span: 24 }, sm: { span: 4 } }}
        wrapperCol={{ xs: { span: 24 }, sm: { span: 18 } }}
        initialValues={{ kind: 'W', cycle: 1, status: 'Y', remark: '', start_date: dayjs().add(1, 'day'), staff_ids: [] }}
      >
        <Form.Item name="name" label="排班名称" rules={[{ required: true, max: 100, message: '请输入排班名称（最多100字）' }]}>
          <Input data-testid="schedule-name" placeholder="如 保安周排班" />
        </Form.Item>
        <Form.Item name="kind" label="排班类型">
          <Radio.Group options={enumOptions(ROSTER_KIND)} data-testid="schedule-kind" />
        </Form.Item>
        {kind !== 'M' && (
          <Form.Item
            name="cycle"
            label={kind === 'D' ? '周期（天）' : '周期（周）'}
            extra={kind === 'D' ? '几天一循环，如上一休一为 2 天' : '几周一循环，如单双周轮换为 2 周'}
            rules={[{ required: true, message: '请输入周期' }]}
          >
            <InputNumber min={1} max={kind === 'W' ? 4 : 31} data-testid="schedule-cycle" />
          </Form.Item>
        )}
        <Form.Item
          name="start_date"
          label="生效日期"
          extra={kind === 'D' ? '第 1 天从生效日期算起' : kind === 'W' ? '从生效日期所在的周算起' : '每月按日期取对应的班次'}
          rules={[{ required: true, message: '请选择生效日期' }]}
        >
          <DatePicker data-testid="schedule-start" />
        </Form.Item>
        <Form.Item label="每日班次" required>
          <Space wrap style={{ marginBottom: 8 }}>
            <Button size="small" disabled={!firstShift} onClick={() => firstShift && setAll(firstShift)} data-testid="days-all-work">
              全部设为{shifts.items[0]?.title ?? '班次'}
            </Button>
            {kind === 'W' && (
              <Button size="small" onClick={() => setAll(REST, (i) => i % 7 === 6)} data-testid="days-sunday-rest">
                周日休息
              </Button>
            )}
            <Button size="small" onClick={() => setAll(REST)}>
              全部休息
            </Button>
          </Space>
          <div className="roster-days">
            {shown.map((d, i) => (
              <div key={i} className="roster-day">
                <span className="roster-day-label">{slotLabel(kind, cycle, i)}</span>
                <Select
                  size="small"
                  value={d}
                  options={shiftOptions}
                  onChange={(v: number) => setDays((all) => all.map((x, j) => (j === i ? v : x)))}
                  popupMatchSelectWidth={false}
                  style={{ width: '100%' }}
                  data-testid={`day-${i}`}
                />
              </div>
            ))}
          </div>
        </Form.Item>
        <Form.Item name="staff_ids" label="排班人员" rules={[{ required: true, type: 'array', min: 1, message: '请选择排班人员' }]}>
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            loading={staff.isLoading}
            options={(staff.data?.items ?? []).map((s) => ({ value: s.id, label: s.dept_title ? `${s.name}（${s.dept_title}）` : s.name }))}
            placeholder="本小区的员工"
            data-testid="schedule-staff"
          />
        </Form.Item>
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
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="schedule-save">
              保存
            </Button>
            <Button onClick={() => void navigate(LIST)}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
