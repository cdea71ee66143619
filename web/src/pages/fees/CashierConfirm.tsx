import { useEffect } from 'react';
import { Descriptions, Modal, Typography } from 'antd';
import type { CashierBill } from '@wuye/contract/fees';
import { formatMoney, Money } from '../../components/Money';

export interface PaySummary {
  /** the rooms whose bills are paid, in the desk's order */
  rooms: string[];
  bills: Array<CashierBill & { address: string }>;
  receivable: bigint;
  late: bigint;
  discount: bigint;
  /** the approved discount request used, if any */
  discountRequestId?: number | undefined;
  balanceUsed: bigint;
  due: bigint;
  paid: bigint;
  toBalance: bigint;
  payType: string;
  payer: string;
}

/**
 * What 确认收款 is about to record, to be read once more before the money is taken: the rooms, the
 * bills, the amounts, the discount, the method and the payer. Enter confirms (as the OK button,
 * which has the focus), Esc goes back to the desk.
 */
export default function CashierConfirm({
  summary,
  submitting,
  onConfirm,
  onCancel,
}: {
  summary: PaySummary | null;
  submitting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const open = summary !== null;
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || e.isComposing) return;
      // a button of the dialog (OK, 返回修改, ×) answers Enter itself; anywhere else, the desk's own
      // 确认收款 button behind the dialog included, Enter confirms
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest('button') && target.closest('[data-testid="cashier-summary"]')) return;
      e.preventDefault();
      if (!submitting) onConfirm();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, submitting, onConfirm]);
  if (!summary) return null;
  const s = summary;
  const manyRooms = s.rooms.length > 1;
  return (
    <Modal
      open={open}
      title="确认收款"
      onCancel={onCancel}
      onOk={() => !submitting && onConfirm()}
      okText={`确认收款 ${formatMoney(s.paid, { unit: '元' })}`}
      cancelText="返回修改"
      confirmLoading={submitting}
      destroyOnHidden
      width={560}
      okButtonProps={{ autoFocus: true, 'data-testid': 'cashier-summary-ok' } as never}
      cancelButtonProps={{ 'data-testid': 'cashier-summary-cancel' } as never}
      modalRender={(node) => <div data-testid="cashier-summary">{node}</div>}
    >
      <Descriptions size="small" column={1} bordered styles={{ label: { width: 96 } }}>
        <Descriptions.Item label={manyRooms ? `房屋（${s.rooms.length} 户）` : '房屋'}>
          <span data-testid="cashier-summary-rooms">{s.rooms.join('、')}</span>
        </Descriptions.Item>
        <Descriptions.Item label={`账单（${s.bills.length} 张）`}>
          <div style={{ maxHeight: 150, overflowY: 'auto' }} data-testid="cashier-summary-bills">
            {s.bills.map((b) => (
              <div key={b.id}>
                {manyRooms && <Typography.Text type="secondary">{b.address} </Typography.Text>}
                {b.title} {b.period}{' '}
                <Typography.Text strong>
                  <Money value={b.total} />
                </Typography.Text>
              </div>
            ))}
          </div>
        </Descriptions.Item>
        <Descriptions.Item label="应收">
          {formatMoney(s.receivable, { unit: '元' })}
          {s.late > 0n && `（另滞纳金 ${formatMoney(s.late, { unit: '元' })}）`}
        </Descriptions.Item>
        <Descriptions.Item label="优惠">
          <span data-testid="cashier-summary-discount">
            {formatMoney(s.discount, { unit: '元' })}
            {s.discountRequestId ? `（优惠审批 #${s.discountRequestId}）` : ''}
          </span>
        </Descriptions.Item>
        {s.balanceUsed > 0n && <Descriptions.Item label="余额抵扣">{formatMoney(s.balanceUsed, { unit: '元' })}</Descriptions.Item>}
        <Descriptions.Item label="应缴金额">
          <Typography.Text strong type="danger" data-testid="cashier-summary-due">
            {formatMoney(s.due, { unit: '元' })}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="实收">
          <span data-testid="cashier-summary-paid">{formatMoney(s.paid, { unit: '元' })}</span>
          {s.toBalance > 0n && `（${formatMoney(s.toBalance, { unit: '元' })}转入余额）`}
        </Descriptions.Item>
        <Descriptions.Item label="支付方式">
          <span data-testid="cashier-summary-pay-type">{s.payType}</span>
        </Descriptions.Item>
        <Descriptions.Item label="缴费人">
          <span data-testid="cashier-summary-payer">{s.payer || '未登记'}</span>
        </Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
