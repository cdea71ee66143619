import { Typography } from 'antd';
import { useNavigate } from 'react-router';
import { invite, type InviteItem } from '@wuye/contract/crm/sales';
import { ResourcePage } from '../../../components/resource';
import { minuteWidgets } from './parts';

/**
 * /crm/invitelist (邀约到访; docs/product.md#crm-sales): visits booked and received, by outcome,
 * consultant and day; recording one 已到访 counts the visit and moves the customer to 来访; a walk-in
 * is an invitation recorded 已到访 at once.
 */
export default function InviteList() {
  const navigate = useNavigate();
  return (
    <ResourcePage<InviteItem>
      resource={invite}
      title="邀约到访"
      widgets={minuteWidgets}
      // a visit received is counted on the customer: it stays
      rowDeletable={(r) => r.outcome !== 'V'}
      columns={{
        customer_name: {
          render: (v: string, r) => (
            <Typography.Link onClick={() => void navigate(`/crm/crm_show?id=${r.customer_id}`)} data-testid={`invite-customer-${r.id}`}>
              {v}
            </Typography.Link>
          ),
        },
        result: { ellipsis: true },
        arrived_at: { render: (v: string) => v.slice(0, 16) || '—' },
      }}
    />
  );
}
