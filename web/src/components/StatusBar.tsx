import { Badge, Radio } from 'antd';
import { enumText, type ValueEnum } from '@wuye/contract/kit/resource';

/** What a status bar may select: every row (''), one state, or the overdue ones. */
export type StatusBarKey<S extends string> = '' | S | 'overdue';

/**
 * A workflow list's status bar (全部, each state, 超时) with the list's counts: one button each,
 * the states that wait for someone in orange and 超时 in red. Test ids `<testId>-statusbar` and
 * `<testId>-bar-<state | all | overdue>`.
 */
export function StatusBar<S extends string>({
  states,
  labels,
  waiting,
  counts,
  value,
  onChange,
  testId,
}: {
  states: readonly S[];
  labels: ValueEnum<S>;
  /** the states shown in orange: those waiting for someone's action */
  waiting: readonly S[];
  counts: Partial<Record<S | 'all' | 'overdue', number>> | undefined;
  value: StatusBarKey<S>;
  onChange: (key: StatusBarKey<S>) => void;
  testId: string;
}) {
  const items: Array<{ key: StatusBarKey<S>; label: string; n: number | undefined }> = [
    { key: '', label: '全部', n: counts?.all },
    ...states.map((k) => ({ key: k, label: enumText(labels, k), n: counts?.[k] })),
    { key: 'overdue', label: '超时', n: counts?.overdue },
  ];
  return (
    <Radio.Group
      value={value}
      onChange={(e) => onChange(e.target.value as StatusBarKey<S>)}
      optionType="button"
      style={{ marginBottom: 12, display: 'flex', flexWrap: 'wrap' }}
      data-testid={`${testId}-statusbar`}
    >
      {items.map((b) => (
        <Radio.Button key={b.key || 'all'} value={b.key}>
          <span data-testid={`${testId}-bar-${b.key || 'all'}`}>
            {b.label}{' '}
            <Badge
              count={b.n ?? 0}
              showZero
              overflowCount={9999}
              size="small"
              color={b.key === 'overdue' ? 'red' : waiting.includes(b.key as S) ? 'orange' : '#bfbfbf'}
            />
          </span>
        </Radio.Button>
      ))}
    </Radio.Group>
  );
}
