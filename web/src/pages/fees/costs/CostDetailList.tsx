import { Button, Space, Statistic, Typography } from 'antd';
import { Link, useNavigate } from 'react-router';
import { costRecord, costVoidFlow, type CostRecordRow, type CostSums } from '@wuye/contract/fees/costs';
import { MoneyStatistic } from '../../../components/Money';
import { ResourcePage, WorkflowActions, type ResourceList, type Widgets } from '../../../components/resource';
import { CostItemSelect } from './widgets';

export const COST_LIST = '/fees/costdetaillist';
export const costInfoPath = (id: number) => `/fees/costinfo?id=${id}`;

const filterWidgets = { item_id: CostItemSelect } as unknown as Widgets;

/** The sums of everything the filters find (not only this page), the voided left out. */
function Sums({ list }: { list: ResourceList<CostRecordRow> }) {
  const sums = (list.answer as { sums?: CostSums } | undefined)?.sums;
  if (!sums) return null;
  return (
    <Space size="large" wrap className="cost-sums" style={{ marginBottom: 12 }} data-testid="cost-sums">
      <MoneyStatistic title="金额合计" value={sums.amount} data-testid="cost-sum-amount" />
      <Statistic title="笔数" value={sums.count} />
      {sums.voided > 0 && <Typography.Text type="secondary">另有 {sums.voided} 笔已作废，不计入合计</Typography.Text>}
    </Space>
  );
}

/**
 * /fees/costdetaillist (成本登记; docs/product.md#costs): the costs paid, newest payment first, with
 * the filters' sums above the table; 登记成本 opens /fees/costadd, a row's 详情 /fees/costinfo?id=,
 * 作废 asks for a reason (a voided cost stays listed and counts in no sum). Export as a job.
 */
export default function CostDetailList() {
  const navigate = useNavigate();
  return (
    <ResourcePage<CostRecordRow>
      resource={costRecord}
      title="成本登记"
      filterWidgets={filterWidgets}
      summary={(list) => <Sums list={list} />}
      rowWritable={(row) => row.status === 'Y'}
      columns={{
        item_name: {
          render: (name: string, row: CostRecordRow) => (
            <Link to={costInfoPath(row.id)} data-testid={`cost-view-${row.id}`}>
              {name}
            </Link>
          ),
        },
      }}
      rowActions={(row) => (
        <>
          <Button size="small" onClick={() => void navigate(costInfoPath(row.id))} data-testid={`cost-info-${row.id}`}>
            详情
          </Button>
          <WorkflowActions flow={costVoidFlow} row={row as unknown as { id: number } & Record<string, unknown>} />
        </>
      )}
    />
  );
}
