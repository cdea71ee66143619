import { useEffect, useState } from 'react';
import { Form, Modal } from 'antd';
import { checkAmount } from '@wuye/contract/money';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import MoneyInput from '../../components/MoneyInput';
import { useIdempotentSubmit } from './useIdempotentSubmit';
import { usePayType } from './usePayType';

/** Prepayment: tops up the room owner's balance (once per attempt, thanks to the idempotency key). */
export default function TopUp({ hid, open, onClose }: { hid: number; open: boolean; onClose: (changed: boolean) => void }) {
  const [amount, setAmount] = useState('');
  // the balance is not a way to top up the balance
  const pay = usePayType('topup-pay-type', { exclude: ['balance'] });
  const { payType, payRef } = pay;
  const { submitting: saving, submit, newAttempt } = useIdempotentSubmit();
  useEffect(() => newAttempt(), [newAttempt, payType, pay.payMethodId, payRef]);
  const problem = checkAmount(amount) || (amount && Number(amount) === 0 ? '充值金额必须大于0' : '') || (amount ? pay.problem : '');
  const save = async () => {
    // (never the balance: it is not offered here)
    if (problem || payType === 'balance') return;
    const answer = await submit((idempotency_key) =>
      request('balancetopup', { hid, amount, pay_type: payType, pay_method_id: pay.payMethodId, pay_ref: payRef, idempotency_key }),
    );
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
        {pay.fields()}
      </Form>
    </Modal>
  );
}
