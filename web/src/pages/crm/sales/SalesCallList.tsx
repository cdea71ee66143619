import { Typography } from 'antd';
import { useNavigate } from 'react-router';
import { salesCall, type SalesCallItem } from '@wuye/contract/crm/sales';
import { ResourcePage } from '../../../components/resource';
import { minuteWidgets } from './parts';

/**
 * /crm/salescall (跟进记录; docs/product.md#crm-sales): every follow-up the reader may see (their
 * customers', the pool's and their own), by customer, way, author and day; 写跟进 for one of their
 * customers, edit and delete by the author within 24 hours (a manager any time), export.
 */
export default function SalesCallList() {
  const navigate = useNavigate();
  return (
    <ResourcePage<SalesCallItem>
      resource={salesCall}
      title="跟进记录"
      widgets={minuteWidgets}
      // the author within 24 hours, a manager any time (the server's rule, answered per row)
      rowWritable={(r) => r.editable}
      columns={{
        customer_name: {
          render: (v: string, r) => (
            <Typography.Link onClick={() => void navigate(`/crm/crm_show?id=${r.customer_id}`)} data-testid={`salescall-customer-${r.id}`}>
              {v}
            </Typography.Link>
          ),
        },
        content: { ellipsis: true },
        next_contact_at: { render: (v: string) => v.slice(0, 16) || '—' },
      }}
    />
  );
}
