import { useState } from 'react';
import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { DISCOUNT_STATUS, type DiscountRequestRow } from '@wuye/contract/fees';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { EnumTag } from '../../components/resource';
import { formatMoney } from '../../components/Money';

/** The desk's discount requests of this room: the cashier's own, waiting or approved and not yet used. */
export function useDeskDiscounts(hid: number | undefined, enabled: boolean) {
  const q = useQuery({
    queryKey: ['discount_request_list', 'desk', hid],
    queryFn: () => call('discount_request_list', { hid: hid!, mine: true, limit: 20 }),
    enabled: enabled && !!hid,
    retry: false,
    // a manager decides meanwhile: look again now and then while one waits
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === 'E') ? 10_000 : false),
  });
  const open = (q.data?.items ?? []).filter((d) => d.status === 'E' || d.status === 'Y');
  return { open, refetch: () => void q.refetch() };
}

/**
 * The cashier's open discount requests on the desk: a waiting one says so, an approved one is used
 * with a click (its bills ticked and its amount as the discount; the payment uses it once).
 */
export function DeskDiscounts({
  requests,
  using,
  onUse,
  onRefresh,
}: {
  requests: DiscountRequestRow[];
  using: number | undefined;
  onUse: (d: DiscountRequestRow) => void;
  onRefresh: () => void;
}) {
  if (requests.length === 0) return null;
  return (
    <div data-testid="cashier-discounts" style={{ marginBottom: 12 }}>
      <Space style={{ marginBottom: 4 }}>
        <Typography.Text strong>优惠审批</Typography.Text>
        <Button size="small" type="link" onClick={onRefresh} data-testid="cashier-discounts-refresh">
          刷新
        </Button>
      </Space>
      {requests.map((d) => (
        <div key={d.id} data-testid={`cashier-discount-${d.id}`} style={{ marginBottom: 4 }}>
          <Space wrap size={4}>
            <EnumTag enum={DISCOUNT_STATUS} value={d.status} />
            <span>
              #{d.id} 优惠 {formatMoney(d.amount, { unit: '元' })}（{d.bill_ids.length} 张账单）
            </span>
            {d.status === 'Y' &&
              (using === d.id ? (
                <Typography.Text type="success">使用中</Typography.Text>
              ) : (
                <Button size="small" type="primary" ghost onClick={() => onUse(d)} data-testid={`cashier-discount-use-${d.id}`}>
                  使用
                </Button>
              ))}
          </Space>
        </div>
      ))}
    </div>
  );
}

/** Asks a manager for a discount above the cap on the chosen bills, with a reason. */
export function DiscountApply({
  open,
  hid,
  billIds,
  amount,
  onClose,
}: {
  open: boolean;
  hid: number | undefined;
  billIds: number[];
  amount: string;
  onClose: (sent: boolean) => void;
}) {
  const [reason, setReason] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!hid || !reason.trim()) return;
    setSaving(true);
    try {
      const answer = await request('discountapply', { hid, bill_ids: billIds, amount, reason: reason.trim() });
      noticeSuccess(answer.return_msg ?? '已提交');
      setReason('');
      onClose(true);
    } catch {
      // shown by the client
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title="申请优惠审批"
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      okText="提交审批"
      confirmLoading={saving}
      okButtonProps={{ disabled: !reason.trim(), 'data-testid': 'discount-apply-save' } as never}
      destroyOnHidden
    >
      <Typography.Paragraph>
        对所选 {billIds.length} 张账单申请优惠 <Typography.Text strong>{formatMoney(amount, { unit: '元' })}</Typography.Text>
        。收费主管或管理员批准后，您收取这些账单时可使用一次。
      </Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label="申请原因" required>
          <Input.TextArea
            rows={3}
            maxLength={200}
            showCount
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            data-testid="discount-apply-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
