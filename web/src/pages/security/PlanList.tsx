import { patrolPlan, type PatrolPlanItem } from '@wuye/contract';
import { ResourcePage } from '../../components/resource';

/**
 * /security/patrol_plan (巡更计划; docs/product.md#patrols): the plans with their cycle, validity,
 * shift windows, route and guards; add and edit on /security/patrol_plan_add and patrol_plan_edit.
 */
export default function PlanList() {
  return <ResourcePage<PatrolPlanItem> resource={patrolPlan} title="巡更计划" />;
}
