import { Input } from 'antd';
import type { InputProps } from 'antd';
import { sanitizeMoneyInput } from '@wuye/contract/money';

export interface MoneyInputProps extends Omit<InputProps, 'value' | 'onChange'> {
  value?: string;
  onChange?: (value: string) => void;
}

/**
 * Money input (docs/product.md#money-input): keeps digits and a single dot, removes a leading dot, at most two
 * decimals. The value stays a decimal string (money is never a float).
 */
export default function MoneyInput({ value, onChange, ...rest }: MoneyInputProps) {
  return <Input inputMode="decimal" {...rest} value={value ?? ''} onChange={(e) => onChange?.(sanitizeMoneyInput(e.target.value))} />;
}

/** Form rule of the amount proof (docs/product.md#money-input): 输入不能为空 / 只能输入阿拉伯数字. */
export { checkAmount } from '@wuye/contract/money';
