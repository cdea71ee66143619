import { Tag } from 'antd';
import { enumText, type Tone, type ValueEnum } from '@wuye/contract/kit/resource';

const COLORS: Record<Tone, string> = {
  success: 'success',
  warning: 'warning',
  error: 'error',
  processing: 'processing',
  default: 'default',
};

/** A coded value as a tag: its text and tone come from the one valueEnum of the contract. */
export default function EnumTag({ enum: e, value }: { enum: ValueEnum; value: string | null | undefined }) {
  if (value === null || value === undefined || value === '') return null;
  const tone = (e as Record<string, { tone?: Tone }>)[value]?.tone ?? 'default';
  return <Tag color={COLORS[tone]}>{enumText(e, value)}</Tag>;
}
