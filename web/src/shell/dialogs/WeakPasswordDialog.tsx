import { Button, Modal, Space } from 'antd';
import { useDialogs } from '../../stores/dialogs';

/** Password risk reminder (docs/product.md#weak-password): password_status N offers the change-password form. */
export default function WeakPasswordDialog() {
  const open = useDialogs((s) => s.weakPasswordOpen);
  const close = () => useDialogs.getState().setWeakPasswordOpen(false);
  return (
    <Modal
      open={open}
      title="密码风险提醒"
      onCancel={close}
      footer={
        <Space>
          <Button onClick={close} data-testid="weak-password-later">
            暂不修改
          </Button>
          <Button
            type="primary"
            data-testid="weak-password-change"
            onClick={() => {
              close();
              useDialogs.getState().setChangePasswordOpen(true);
            }}
          >
            立即修改
          </Button>
        </Space>
      }
    >
      <div data-testid="weak-password-dialog">您当前的登录密码过于简单，存在安全风险，建议立即修改密码。</div>
    </Modal>
  );
}
