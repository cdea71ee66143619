import { useState } from 'react';
import { Form, Modal, Radio } from 'antd';
import { checkAmount } from '@wuye/contract/money';
import { PAY_TYPE_CH, type PayTypeName } from '@wuye/contract/fees';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import MoneyInput from '../../components/MoneyInput';
import { useIdempotentSubmit } from './useIdempotentSubmit';

const TYPES = ['cash', 'wechat', 'alipay', 'bankcard', 'transfer'] as const;

/** Prepayment: tops up the room owner's balance (once per attempt, thanks to the idempotency key). */
export default function TopUp({ hid, open, onClose }: { hid: number; open: boolean; onClose: (changed: boolean) => void }) {
  const [amount, setAmount] = useState('');
  const [payType, setPayType] = useState<Exclude<PayTypeName, 'balance'>>('cash');
  const { submitting: saving, submit, newAttempt } = useIdempotentSubmit();
  const problem = checkAmount(amount) || (amount && Number(amount) === 0 ? '充值金额必须大于0' : '');
  const save = async () => {
    if (problem) return;
    const answer = await submit((idempotency_key) => request('balancetopup', { hid, amount, pay_type: payType, idempotency_key }));
    if (!answer) return;
    noticeSuccess(answer.return_msg ?? '预存成功');
    setAmount('');
    onClose(true);
  };
  return (
    <Modal
      open={open}
      title="预存（充值业主余额）"
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={saving}
      okButtonProps={{ disabled: !!problem, 'data-testid': 'topup-save' } as never}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label="金额（元）" validateStatus={amount && problem ? 'error' : undefined} help={amount ? problem : undefined}>
          <MoneyInput
            value={amount}
            onChange={(v) => {
              setAmount(v);
              newAttempt();
            }}
            data-testid="topup-amount"
          />
        </Form.Item>
        <Form.Item label="支付方式">
          <Radio.Group
            value={payType}
            onChange={(e) => {
              setPayType(e.target.value as typeof payType);
              newAttempt();
            }}
            options={TYPES.map((p) => ({ value: p, label: PAY_TYPE_CH[p] }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
