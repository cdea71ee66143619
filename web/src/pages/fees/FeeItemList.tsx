import { Button, Select } from 'antd';
import { Link } from 'react-router';
import type { FeeItemRow } from '@wuye/contract/fees';
import { feeItem } from '@wuye/contract/fees/setup';
import { ResourcePage, useSmallList, type Widgets } from '../../components/resource';
import { moneyColumn } from '../../components/Money';

const lateText = (r: FeeItemRow) =>
  r.late_fee_rule === 'none'
    ? '不收'
    : `每日 ${r.late_fee_rate}‰，宽限 ${r.late_fee_grace_days} 天${r.late_fee_cap_percent ? `，封顶 ${r.late_fee_cap_percent}%` : ''}`;

/** The cost-type filter: the community's cost types by their code. */
function CostTypeFilter(props: { value?: string; onChange?: (v: string | undefined) => void; 'data-testid'?: string }) {
  const costTypes = useSmallList('feebill_cate_small_list', {}).options;
  return <Select allowClear placeholder="全部费用类型" style={{ width: '100%' }} options={costTypes} {...props} />;
}
const filterWidgets = { cost_type: CostTypeFilter } as unknown as Widgets;

/** Fee items (/fees/feeitemlist): pricing, unit price, cycle, due day, late-fee rule; add and edit on their own pages. */
export default function FeeItemList() {
  return (
    <ResourcePage
      resource={feeItem}
      title="收费项目"
      filterWidgets={filterWidgets}
      columns={{
        unit_price: moneyColumn<FeeItemRow>('单价', 'unit_price', { width: 110 }),
        due_day: { width: 100, render: (d: number) => `每期 ${d} 日` },
        late_fee_rule: { title: '滞纳金', width: 220, render: (_: unknown, r: FeeItemRow) => lateText(r) },
      }}
      rowActions={(row) => (
        <Link to={`/fees/bindfee?item_id=${row.id}`}>
          <Button size="small">绑定</Button>
        </Link>
      )}
    />
  );
}
