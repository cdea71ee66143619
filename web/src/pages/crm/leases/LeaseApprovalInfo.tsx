import { Alert, Button, Card, Space, Spin } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { leaseFlow } from '@wuye/contract/crm/leases';
import { call } from '../../../api/client';
import { WorkflowActions, WorkflowTimeline } from '../../../components/resource';
import { LeaseDescriptions, ScheduleTable, ScheduleTotals } from './parts';

/**
 * /crm/lease_approval_info?id= (租约审批详情; docs/product.md#crm-leases): the lease as drafted, its
 * rent schedule, its audit trail, and the decision (通过 or 退回 with an opinion) for an approver who
 * did not draft or submit it.
 */
export default function LeaseApprovalInfo() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const info = useQuery({ queryKey: ['leaseinfo', id], queryFn: () => call('leaseinfo', { id }), enabled: !!id });
  const schedule = useQuery({ queryKey: ['leaseschedule', id], queryFn: () => call('leaseschedule', { id }), enabled: !!id });
  const log = useQuery({ queryKey: ['leaselog', id], queryFn: () => call('leaselog', { id }), enabled: !!id });
  if (!id) return <Alert type="warning" showIcon title="未指定租约" />;
  if (!info.data) return <Spin />;
  const l = info.data;
  const reload = () => {
    void info.refetch();
    void schedule.refetch();
    void log.refetch();
  };
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="lease-approval-info">
      <Card
        size="small"
        title={`租约 ${l.lease_no}`}
        extra={
          <Space wrap>
            {!l.mine && <WorkflowActions flow={leaseFlow} row={l as never} resource="leaselist" onDone={reload} size="middle" />}
            <Button onClick={() => void navigate('/crm/lease_approval')}>返回</Button>
          </Space>
        }
      >
        {l.mine && l.approval_status === 'P' && (
          <Alert type="info" showIcon style={{ marginBottom: 12 }} title="这是您起草或提交的租约，由其他有审批权限的人员审批" />
        )}
        <LeaseDescriptions lease={l} />
      </Card>
      <Card size="small" title="租金计划">
        {schedule.data && (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <ScheduleTotals schedule={schedule.data} monthly={schedule.data.monthly_rent} />
            <ScheduleTable schedule={schedule.data} testId="lease-approval-schedule" />
          </Space>
        )}
      </Card>
      <Card size="small" title="审批记录">
        <WorkflowTimeline flow={leaseFlow} items={log.data?.items ?? []} />
      </Card>
    </Space>
  );
}
