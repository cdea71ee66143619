import { Form, Select } from 'antd';
import { WEEKDAY_TEXT, maintainPlan, type MaintainPlanItem } from '@wuye/contract/assets/maintain';
import { ResourcePage, type Widgets } from '../../components/resource';

const MONTH_DAYS = Array.from({ length: 31 }, (_, i) => ({ value: i + 1, label: `${i + 1} 日` }));
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: WEEKDAY_TEXT[d] ?? '' }));

/** The cycle's days: days of the month or weekdays, as the chosen cycle asks; none for every N days. */
function CycleDays(props: { value?: number[]; onChange?: (v: number[]) => void; 'data-testid'?: string }) {
  const cycle = Form.useWatch('cycle', Form.useFormInstance()) as string | undefined;
  if (cycle === 'N') return <span style={{ color: '#999' }}>每 N 天的计划不用选日期，请填写间隔天数</span>;
  return (
    <Select
      mode="multiple"
      allowClear
      placeholder={cycle === 'W' ? '选择星期几' : '选择每月几号'}
      options={cycle === 'W' ? WEEKDAYS : MONTH_DAYS}
      value={props.value ?? []}
      onChange={props.onChange}
      data-testid={props['data-testid']}
    />
  );
}

const widgets = { cycle_days: CycleDays } as unknown as Widgets;

/**
 * /carpark/maintainplan (维保计划; docs/product.md#equipment-ledger): which assets are checked to
 * which standard, by whom and when (days of the month, weekdays or every N days from the start);
 * the job generates each day's tasks, today's at once when a plan is saved. A plan with tasks is
 * stopped, not deleted.
 */
export default function PlanList() {
  return (
    <ResourcePage<MaintainPlanItem>
      resource={maintainPlan}
      title="维保计划"
      widgets={widgets}
      formOptions={{
        // a change of cycle starts its days again (a weekday is not a day of the month)
        toPayload: (v) => (v.cycle === 'N' ? { ...v, cycle_days: [] } : v),
      }}
      columns={{ asset_names: { ellipsis: true } }}
    />
  );
}
