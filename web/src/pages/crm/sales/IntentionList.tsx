import { useState } from 'react';
import { Button, Drawer, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { intention, intentionFlow, type IntentionItem } from '@wuye/contract/crm/sales';
import { ResourcePage, WorkflowActions, WorkflowTimeline } from '../../../components/resource';

/**
 * /crm/intentions (认筹; docs/product.md#crm-sales): deposits with their queue numbers, the room they
 * are billed on and their receipts; 登记认筹 bills the room for the cashier, 取消认筹 an unpaid one,
 * 申请退款 a paid one through the refund workflow (finance approves); each deposit's record.
 */
export default function IntentionList() {
  const navigate = useNavigate();
  const [viewing, setViewing] = useState<IntentionItem | null>(null);
  return (
    <>
      <ResourcePage<IntentionItem>
        resource={intention}
        title="认筹"
        columns={{
          customer_name: {
            render: (v: string, r) => (
              <Typography.Link
                onClick={() => void navigate(`/crm/crm_show?id=${r.customer_id}`)}
                data-testid={`intention-customer-${r.id}`}
              >
                {v}
              </Typography.Link>
            ),
          },
          paid_at: { render: (v: string) => v.slice(0, 16) || '—' },
          receipt_no: { render: (v: string) => v || '—' },
        }}
        rowActions={(r) => (
          <Space size={0} wrap>
            <Button size="small" type="link" onClick={() => setViewing(r)} data-testid={`intention-log-${r.id}`}>
              记录
            </Button>
            <WorkflowActions flow={intentionFlow} row={r as never} resource={intention.def.name} />
          </Space>
        )}
      />
      <Drawer
        open={viewing !== null}
        title={viewing ? `${viewing.queue_text} · ${viewing.customer_name}` : ''}
        onClose={() => setViewing(null)}
        destroyOnHidden
      >
        {viewing && <WorkflowTimeline flow={intentionFlow} id={viewing.id} />}
      </Drawer>
    </>
  );
}
