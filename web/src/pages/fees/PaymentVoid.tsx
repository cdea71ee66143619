import { useState } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import type { PaymentRow } from '@wuye/contract/fees';
import { PAYMENT_VOID_ANY_ROLES, PAYMENT_VOID_ROLES } from '@wuye/contract/fees/refund';
import { hasAnyRole } from '@wuye/contract/roles';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useUser } from '../../stores/user';
import { formatWireDate } from '@wuye/contract/dates';
import { useSystem } from '../../stores/system';
import { formatMoney } from '../../components/Money';

/**
 * Whether 作废 is offered for a receipt: made today, paid and not refunded nor in refund, and the
 * user's roles may void (the server also checks the cashier voids only their own).
 */
export function useMayVoid(): (p: Pick<PaymentRow, 'status' | 'refunding' | 'create_time' | 'cashier_id'>) => boolean {
  const roles = useUser((s) => s.roles);
  const me = useUser((s) => s.sysUser?.sysid);
  const zone = useSystem((s) => s.info?.time_zone);
  const may = hasAnyRole(roles, PAYMENT_VOID_ROLES);
  // a cashier voids their own receipts; finance (and admin) any
  const any = hasAnyRole(roles, PAYMENT_VOID_ANY_ROLES);
  // today in the community's time zone, as the server counts the receipt's day
  const today = formatWireDate(new Date(), zone || undefined);
  return (p) => may && (any || p.cashier_id === me) && p.status === 'Y' && !p.refunding && p.create_time.slice(0, 10) === today;
}

/** 作废 a receipt: a reason, then a confirmation that the bills go back to unpaid. */
export default function PaymentVoid({
  payment,
  onClose,
}: {
  payment: Pick<PaymentRow, 'id' | 'receipt_no' | 'paid_amount'> | null;
  onClose: (voided: boolean) => void;
}) {
  const [reason, setReason] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!payment) return;
    setSaving(true);
    try {
      const answer = await request('paymentvoid', { id: payment.id, reason });
      noticeSuccess(answer.return_msg ?? '已作废');
      setReason('');
      onClose(true);
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={!!payment}
      title={`作废收据 · ${payment?.receipt_no ?? ''}`}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      okText="确定作废"
      okButtonProps={{ danger: true, disabled: !reason.trim(), 'data-testid': 'payment-void-save' } as never}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 12 }}
        message={`作废后收据所收的账单恢复为未缴，实收 ${formatMoney(payment?.paid_amount, { unit: '元' })}应退还缴费人；余额抵扣退回业主余额。作废不能撤销。`}
      />
      <Form layout="vertical">
        <Form.Item label="作废原因" required>
          <Input.TextArea
            rows={2}
            maxLength={200}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            data-testid="payment-void-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
