import { Tag } from 'antd';
import { enumEntry, type Tone, type ValueEnum } from '@wuye/contract/kit/resource';

const COLORS: Record<Tone, string> = {
  success: 'success',
  warning: 'warning',
  error: 'error',
  processing: 'processing',
  default: 'default',
};

/** Light fills of the tones, for a surface coloured by a coded value (the room board's cells). */
export const TONE_FILLS: Record<Tone, string> = {
  success: '#d9f7be',
  warning: '#ffe7ba',
  error: '#ffccc7',
  processing: '#bae0ff',
  default: '#f0f0f0',
};
/** The light fill of a coded value's tone. */
export const enumFill = (e: ValueEnum, value: string) => TONE_FILLS[enumEntry(e, value)?.tone ?? 'default'];

/**
 * A coded value as a tag: its text and tone come from the one valueEnum of the contract. An empty
 * value shows nothing, unless the enum names it ('' 待审核).
 */
export default function EnumTag({ enum: e, value }: { enum: ValueEnum; value: string | null | undefined }) {
  if (value === null || value === undefined) return null;
  const entry = enumEntry(e, value);
  if (!entry && value === '') return null;
  return <Tag color={COLORS[entry?.tone ?? 'default']}>{entry?.text ?? value}</Tag>;
}
