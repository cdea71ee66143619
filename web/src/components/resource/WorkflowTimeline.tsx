import { Empty, Spin, Timeline, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { enumText, type Tone } from '@wuye/contract/kit/resource';
import type { WorkflowDef, WorkflowLogItem } from '@wuye/contract/kit/workflow';
import { call } from '../../api/client';
import { resourceKey } from './keys';

const COLORS: Record<Tone, string> = { success: 'green', warning: 'orange', error: 'red', processing: 'blue', default: 'gray' };

const callLog = call as unknown as (method: string, payload: { id: number }) => Promise<{ items: WorkflowLogItem[] }>;

/** What the user gave with a transition (a reason, an amount), as `label：value` lines. */
function inputText(def: WorkflowDef, item: WorkflowLogItem): string[] {
  const transition = def.transitions[item.transition];
  const labels = transition?.inputLabels ?? {};
  const enums = transition?.inputEnums ?? {};
  return Object.entries(item.input ?? {})
    .filter(([, v]) => v !== '' && v !== null && v !== undefined)
    .map(([k, v]) => `${labels[k] ?? def.fieldLabels?.[k] ?? k}：${enums[k] ? enumText(enums[k], String(v)) : String(v)}`);
}

/**
 * A row's workflow log as a timeline: each step's transition, from and to states, who and when,
 * and what was given with it. Takes the items, or loads them by the workflow's log method.
 */
export default function WorkflowTimeline({ flow, id, items }: { flow: { def: WorkflowDef }; id?: number; items?: WorkflowLogItem[] }) {
  const { def } = flow;
  const method = def.logMethod;
  const query = useQuery({
    queryKey: [...resourceKey(def.name), 'log', id],
    queryFn: () => callLog(method!, { id: id! }),
    enabled: !items && !!method && id !== undefined,
  });
  const log = items ?? query.data?.items ?? [];
  if (!items && query.isLoading) return <Spin />;
  if (log.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />;
  return (
    <Timeline
      data-testid={`${def.name}-timeline`}
      items={log.map((item) => ({
        key: item.id,
        color: COLORS[(def.states as Record<string, { tone?: Tone }>)[item.to_state]?.tone ?? 'default'],
        content: (
          <div>
            <div>
              <Typography.Text strong>{item.transition_ch}</Typography.Text>{' '}
              <Typography.Text type="secondary">
                {item.from_state_ch} → {item.to_state_ch}
              </Typography.Text>
            </div>
            {inputText(def, item).map((line) => (
              <div key={line}>{line}</div>
            ))}
            <Typography.Text type="secondary">
              {item.operator} · {item.create_time}
            </Typography.Text>
          </div>
        ),
      }))}
    />
  );
}
