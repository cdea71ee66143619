import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Form, Input, Radio } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { PAY_TYPE_CH, payMethodLabel, type PayTypeName } from '@wuye/contract/fees';
import type { PayTypeOption } from '@wuye/contract/leader/paytypes';
import { call } from '../../api/client';

/**
 * The payment method of a counter form (收银台, 临时收费, 预存, 会员卡充值): the group's enabled ways in its
 * order, the system's and its own (paytypeoptions; docs/product.md#paytypelist), and the reference
 * a way may ask for. A way the group disabled is not offered; the first offered one is chosen in
 * its place. A group's own way is sent as its system method and its id.
 */
export function usePayType(testId: string, o: { exclude?: readonly PayTypeName[] } = {}) {
  const [key, setKey] = useState<string>('cash');
  const [payRef, setPayRef] = useState('');
  const list = useQuery({ queryKey: ['paytypeoptions'], queryFn: () => call('paytypeoptions', {}), staleTime: 60_000 });
  const options: PayTypeOption[] = (list.data?.items ?? []).filter((p) => !o.exclude?.includes(p.pay_type));
  const chosen = options.find((p) => p.key === key);
  const first = options[0]?.key;
  useEffect(() => {
    if (!chosen && first) setKey(first);
  }, [chosen, first]);
  const payType: PayTypeName = chosen?.pay_type ?? 'cash';
  const reset = useCallback(() => setPayRef(''), []);
  const refRequired = chosen?.ref_required === 'Y';
  const problem =
    list.isSuccess && options.length === 0
      ? '集团未启用可用的支付方式'
      : refRequired && !payRef.trim()
        ? `请填写${chosen?.pay_type_ch ?? ''}的凭证号`
        : '';

  const fields = (): ReactNode => (
    <>
      <Form.Item label="支付方式">
        <Radio.Group
          value={chosen ? key : undefined}
          onChange={(e) => setKey(e.target.value as string)}
          data-testid={testId}
          options={options.map((p) => ({ value: p.key, label: p.pay_type_ch }))}
        />
      </Form.Item>
      {refRequired && (
        <Form.Item label="凭证号" required>
          <Input
            value={payRef}
            maxLength={40}
            onChange={(e) => setPayRef(e.target.value)}
            placeholder="银行流水号或凭证号"
            data-testid={`${testId}-ref`}
          />
        </Form.Item>
      )}
    </>
  );

  return {
    payType,
    /** the group's own way chosen (its id), undefined for a system way */
    payMethodId: chosen?.method_id || undefined,
    /** the way as the receipt shows it (payMethodLabel) */
    label: chosen ? (chosen.method_id ? payMethodLabel(chosen.pay_type, chosen.pay_type_ch) : chosen.pay_type_ch) : PAY_TYPE_CH[payType],
    /** what is sent: the reference only when the method asks for one */
    payRef: refRequired ? payRef.trim() : '',
    /** the chosen way asks for a reference (its field is among `fields`) */
    refRequired,
    problem,
    fields,
    /** after a payment: the next one starts without the last one's reference */
    reset,
  };
}
