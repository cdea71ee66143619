import { useRef, useState } from 'react';
import { Form, Modal, Radio } from 'antd';
import { checkAmount } from '@wuye/contract/money';
import { PAY_TYPE_CH, type PayTypeName } from '@wuye/contract/fees';
import { ApiError, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import MoneyInput from '../../components/MoneyInput';
import { newIdempotencyKey } from './money';

const TYPES = ['cash', 'wechat', 'alipay', 'bankcard', 'transfer'] as const;

/** Prepayment: tops up the room owner's balance (once per attempt, thanks to the idempotency key). */
export default function TopUp({ hid, open, onClose }: { hid: number; open: boolean; onClose: (changed: boolean) => void }) {
  const [amount, setAmount] = useState('');
  const [payType, setPayType] = useState<Exclude<PayTypeName, 'balance'>>('cash');
  const [saving, setSaving] = useState(false);
  const keyRef = useRef<string | null>(null);
  const problem = checkAmount(amount) || (amount && Number(amount) === 0 ? '充值金额必须大于0' : '');
  const save = async () => {
    if (problem) return;
    keyRef.current ??= newIdempotencyKey();
    setSaving(true);
    try {
      const answer = await request('balancetopup', { hid, amount, pay_type: payType, idempotency_key: keyRef.current });
      keyRef.current = null;
      noticeSuccess(answer.return_msg ?? '预存成功');
      setAmount('');
      onClose(true);
    } catch (err) {
      if (err instanceof ApiError && err.code !== 'NETWORK') keyRef.current = null;
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={open} title="预存（充值业主余额）" onCancel={() => onClose(false)} onOk={() => void save()} confirmLoading={saving}
      okButtonProps={{ disabled: !!problem, 'data-testid': 'topup-save' } as never} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label="金额(元)" validateStatus={amount && problem ? 'error' : undefined} help={amount ? problem : undefined}>
          <MoneyInput value={amount} onChange={(v) => { setAmount(v); keyRef.current = null; }} data-testid="topup-amount" />
        </Form.Item>
        <Form.Item label="支付方式">
          <Radio.Group value={payType} onChange={(e) => { setPayType(e.target.value as typeof payType); keyRef.current = null; }}
            options={TYPES.map((p) => ({ value: p, label: PAY_TYPE_CH[p] }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
