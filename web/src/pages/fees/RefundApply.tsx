import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Form, Input, Modal } from 'antd';
import { useNavigate } from 'react-router';
import type { PaymentInfo } from '@wuye/contract/fees';
import { ApiError, call, request } from '../../api/client';
import { noticeSuccess, toastError } from '../../api/feedback';
import { formatMoney } from '../../components/Money';

/** Refund request for a payment: all or some of its bills, with a reason. */
export default function RefundApply({ paymentId, onClose }: { paymentId: number | null; onClose: () => void }) {
  const [info, setInfo] = useState<PaymentInfo>();
  const [ids, setIds] = useState<number[]>([]);
  const [reason, setReason] = useState('');
  const [saving, setSaving] = useState(false);
  // the server's refusal while invoices still cover the money: it names 红冲, and the page offers the way there
  const [invoiced, setInvoiced] = useState('');
  const navigate = useNavigate();
  useEffect(() => {
    setInvoiced('');
    if (!paymentId) return;
    call('paymentinfo', { id: paymentId })
      .then((p) => {
        setInfo(p);
        setIds(p.items.flatMap((i) => (i.refunded === 'N' && i.bill_id !== null ? [i.bill_id] : [])));
      })
      .catch(() => undefined);
  }, [paymentId]);
  const save = async () => {
    if (!paymentId) return;
    setSaving(true);
    setInvoiced('');
    try {
      const answer = await request('refundapply', { payment_id: paymentId, bill_ids: ids, reason }, { silent: true });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setReason('');
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.message.includes('红冲')) setInvoiced(e.message);
      else if (e instanceof ApiError && !e.shown) toastError(e.message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={!!paymentId}
      title={`申请退款 · 收据 ${info?.receipt_no ?? ''}`}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      okButtonProps={{ disabled: !ids.length || !reason.trim(), 'data-testid': 'refund-apply-save' } as never}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label="退款账单">
          <Checkbox.Group
            value={ids}
            onChange={(v) => setIds(v as number[])}
            data-testid="refund-apply-bills"
            options={(info?.items ?? []).map((i) => ({
              value: i.bill_id,
              label: `${i.title} ${i.period} ${formatMoney(i.fee)}${i.late_fee !== '0.00' ? ` + 滞纳金 ${formatMoney(i.late_fee)}` : ''} 元`,
              disabled: i.refunded === 'Y',
            }))}
          />
        </Form.Item>
        <Form.Item label="退款原因" required>
          <Input.TextArea
            rows={2}
            maxLength={200}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            data-testid="refund-apply-reason"
          />
        </Form.Item>
      </Form>
      {invoiced && (
        <Alert
          type="warning"
          showIcon
          data-testid="refund-apply-invoiced"
          title={invoiced}
          action={
            <Button
              size="small"
              danger
              onClick={() => {
                onClose();
                void navigate(
                  `/invoice/invoicelist?${new URLSearchParams({ payment_id: String(paymentId), receipt_no: info?.receipt_no ?? '' })}`,
                );
              }}
              data-testid="refund-apply-goto-red"
            >
              去红冲
            </Button>
          }
        />
      )}
    </Modal>
  );
}
