import { useState, type ReactNode } from 'react';
import { Button, Drawer, Space, Typography } from 'antd';
import type { WorkflowDef } from '@wuye/contract/kit/workflow';
import WorkflowActions from './WorkflowActions';
import WorkflowTimeline from './WorkflowTimeline';

type AnyFlow = { def: WorkflowDef };
type RequestRow = { id: number; status: string; mine?: boolean };

/**
 * A request list's actions (refunds, discounts: docs/resources.md): the transitions the user may
 * take, or 本人申请 on one's own pending request (nobody decides their own; the server refuses it
 * too), and 记录, which opens the request's timeline. Test ids `${flow}-mine-${id}`, `${flow}-log-${id}`.
 */
export function RequestActions({ flow, row, onDone, onLog }: { flow: AnyFlow; row: RequestRow; onDone: () => void; onLog: () => void }) {
  return (
    <Space size={4}>
      {row.mine ? (
        row.status === 'E' && (
          <Typography.Text type="secondary" data-testid={`${flow.def.name}-mine-${row.id}`}>
            本人申请
          </Typography.Text>
        )
      ) : (
        <WorkflowActions flow={flow} row={row as unknown as { id: number } & Record<string, unknown>} onDone={onDone} />
      )}
      <Button size="small" type="link" onClick={onLog} data-testid={`${flow.def.name}-log-${row.id}`}>
        记录
      </Button>
    </Space>
  );
}

/** The request whose timeline is open, and the drawer that shows it (titled by `title`). */
export function useRequestLog<R extends { id: number }>(flow: AnyFlow, title: (row: R) => ReactNode) {
  const [viewing, setViewing] = useState<R | null>(null);
  const drawer = (
    <Drawer open={viewing !== null} onClose={() => setViewing(null)} title={viewing ? title(viewing) : ''} size="default" destroyOnHidden>
      {viewing && <WorkflowTimeline flow={flow} id={viewing.id} />}
    </Drawer>
  );
  return { open: setViewing, drawer };
}
