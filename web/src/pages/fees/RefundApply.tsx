import { useEffect, useState } from 'react';
import { Checkbox, Form, Input, Modal } from 'antd';
import type { PaymentInfo } from '@wuye/contract/fees';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { formatMoney } from '../../components/Money';

/** Refund request for a payment: all or some of its bills, with a reason. */
export default function RefundApply({ paymentId, onClose }: { paymentId: number | null; onClose: () => void }) {
  const [info, setInfo] = useState<PaymentInfo>();
  const [ids, setIds] = useState<number[]>([]);
  const [reason, setReason] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
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
    try {
      const answer = await request('refundapply', { payment_id: paymentId, bill_ids: ids, reason });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setReason('');
      onClose();
    } catch {
      // toasted by the client
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
    </Modal>
  );
}
