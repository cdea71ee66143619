import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal, Select, Typography } from 'antd';
import { checkAmount, fenToYuan, toFen } from '@wuye/contract/money';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import MoneyInput from '../../components/MoneyInput';
import { useSmallList } from '../../components/resource';
import { useIdempotentSubmit } from '../fees/useIdempotentSubmit';
import { usePayType } from '../fees/usePayType';

type PackageOption = { id: number; title: string; pay_amount?: string; bonus_amount?: string; bonus_points?: number };

/**
 * 会员卡充值 (docs/product.md#member-cards): a package (its bonus and points) or an amount, the
 * payment method (the group's ways and their rules, as at the fee counter) and its reference; one
 * attempt is one idempotency key, so a retry after a network failure recharges once. The cashier's
 * 预存 and the card list both open it.
 */
export default function RechargeDialog({
  card,
  open,
  onClose,
}: {
  card: { id: number; card_no: string; realname?: string };
  open: boolean;
  onClose: (changed: boolean) => void;
}) {
  const packages = useSmallList('rechargepackage_small_list', open ? {} : null);
  const [packageId, setPackageId] = useState<number | undefined>();
  const [amount, setAmount] = useState('');
  const pay = usePayType('recharge-pay-type', { exclude: ['balance'] });
  const [reference, setReference] = useState('');
  const { submitting, submit, newAttempt } = useIdempotentSubmit();
  const chosen = (packages.items as PackageOption[]).find((p) => p.id === packageId);
  const amountProblem = chosen
    ? ''
    : !amount
      ? '请选择充值套餐或填写充值金额'
      : checkAmount(amount) || (toFen(amount) === 0n ? '充值金额必须大于0' : '');
  const problem = amountProblem || pay.problem;
  const gets = chosen ? fenToYuan(toFen(chosen.pay_amount ?? '0') + toFen(chosen.bonus_amount ?? '0')) : amount && !problem ? amount : '';
  const changed = () => newAttempt();
  // another way, or another reference, is another attempt
  useEffect(() => newAttempt(), [pay.payType, pay.payMethodId, pay.payRef, newAttempt]);

  const save = async () => {
    if (problem) return;
    const answer = await submit((idempotency_key) =>
      request('cardrecharge', {
        card_id: card.id,
        package_id: packageId ?? null,
        amount: chosen ? null : amount,
        pay_type: pay.payType as never,
        pay_method_id: pay.payMethodId ?? null,
        reference: pay.refRequired ? pay.payRef : reference,
        idempotency_key,
      }),
    );
    if (!answer) return;
    noticeSuccess(answer.return_msg);
    setPackageId(undefined);
    setAmount('');
    setReference('');
    pay.reset();
    onClose(true);
  };

  return (
    <Modal
      open={open}
      title={`会员卡充值 · ${card.card_no}${card.realname ? `（${card.realname}）` : ''}`}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      okText="确认收款并充值"
      confirmLoading={submitting}
      okButtonProps={{ disabled: !!problem, 'data-testid': 'recharge-save' } as never}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label="充值套餐" help="选套餐按套餐金额收款并赠送；不选则按填写的金额充值，不赠送">
          <Select
            allowClear
            placeholder="不使用套餐"
            value={packageId}
            loading={packages.loading}
            options={(packages.items as PackageOption[]).map((p) => ({ value: p.id, label: p.title }))}
            onChange={(v?: number) => {
              setPackageId(v);
              changed();
            }}
            data-testid="recharge-package"
          />
        </Form.Item>
        {!chosen && (
          <Form.Item
            label="充值金额（元）"
            validateStatus={amount && amountProblem ? 'error' : undefined}
            help={amount ? amountProblem : undefined}
          >
            <MoneyInput
              value={amount}
              onChange={(v) => {
                setAmount(v);
                changed();
              }}
              data-testid="recharge-amount"
            />
          </Form.Item>
        )}
        {pay.fields()}
        {!pay.refRequired && (
          <Form.Item label="参考号" help="POS 凭条号、转账流水号等，便于对账">
            <Input
              maxLength={64}
              value={reference}
              onChange={(e) => {
                setReference(e.target.value);
                changed();
              }}
              data-testid="recharge-reference"
            />
          </Form.Item>
        )}
      </Form>
      {/* what the payment way still needs (its 凭证号), once the amount is right */}
      {!amountProblem && pay.problem && (
        <Typography.Paragraph type="warning" data-testid="recharge-pay-problem">
          {pay.problem}
        </Typography.Paragraph>
      )}
      {gets && (
        <Alert
          type="info"
          showIcon
          data-testid="recharge-summary"
          title={
            <Typography.Text>
              实收 {chosen ? chosen.pay_amount : amount} 元，到账 {gets} 元
              {chosen && (chosen.bonus_points ?? 0) > 0 ? `，赠送 ${chosen.bonus_points} 积分` : ''}
            </Typography.Text>
          }
        />
      )}
    </Modal>
  );
}
