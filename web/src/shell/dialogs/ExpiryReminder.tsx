import { Button, Modal } from 'antd';
import { useDialogs } from '../../stores/dialogs';
import { daysLeftOf, useSystem } from '../../stores/system';

/** Expiry reminder (docs/product.md#community-expiry): 0-29 days left, once per session; dismissing it opens renewal. */
export default function ExpiryReminder() {
  const open = useDialogs((s) => s.expiryOpen);
  const info = useSystem((s) => s.info);
  const daysLeft = daysLeftOf(info);
  const dismiss = () => {
    const d = useDialogs.getState();
    d.setExpiryOpen(false);
    d.openRenewal(false);
  };
  return (
    <Modal
      open={open}
      title="续费提醒"
      onCancel={dismiss}
      footer={
        <Button type="primary" onClick={dismiss} data-testid="expiry-renew">
          立即续费
        </Button>
      }
    >
      <div data-testid="expiry-reminder">
        您的小区「{info?.region_title ?? ''}」服务将于 <b>{info?.end_time?.slice(0, 10) ?? ''}</b> 到期，剩余{' '}
        <b style={{ color: '#f5222d' }} data-testid="expiry-days">
          {daysLeft ?? ''}
        </b>{' '}
        天。为避免影响正常使用，请及时续费。
      </div>
    </Modal>
  );
}
