import { App } from 'antd';
import { MSG } from '@wuye/contract/messages';

/** Delete after the confirmation of docs/product.md#delete-confirmation (此操作将永久删除该数据, 是否继续?); cancel says 已取消删除. */
export function useConfirmDelete() {
  const { modal, message } = App.useApp();
  return (run: () => Promise<unknown>) => {
    void modal.confirm({
      title: '提示',
      content: MSG.deleteConfirm,
      okText: '确定',
      cancelText: MSG.cancel,
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete-ok' } as never,
      onOk: () => run().catch(() => undefined),
      onCancel: () => void message.info(MSG.deleteCancelled),
    });
  };
}
