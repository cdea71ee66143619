import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';

/** A yearly report's year: always one, picked, never typed (the keyboard would cover the report on a phone). */
export default function YearPicker({ value, onChange, testId }: { value: Dayjs; onChange: (year: Dayjs) => void; testId?: string }) {
  return (
    <DatePicker picker="year" value={value} allowClear={false} inputReadOnly data-testid={testId} onChange={(v) => v && onChange(v)} />
  );
}
