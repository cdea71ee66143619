import { useState } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { LIMITS } from '@wuye/contract/codes';
import { MSG } from '@wuye/contract/messages';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useDialogs } from '../../stores/dialogs';
import { useUser } from '../../stores/user';

interface PasswordForm {
  username: string;
  oldpassword: string;
  password: string;
  password2: string;
}

/** Change password (rules and messages of docs/product.md#password-rules; success notice 成功, 2 s). */
export default function ChangePasswordDialog() {
  const open = useDialogs((s) => s.changePasswordOpen);
  return open ? <ChangePasswordModal /> : null;
}

/**
 * The change form. `required`: the account signs in with a password an administrator set, and the
 * console shows nothing else until it is changed (the server answers nothing else either).
 */
export function ChangePasswordModal({ required = false }: { required?: boolean }) {
  const { message } = App.useApp();
  const sysUser = useUser((s) => s.sysUser);
  const [form] = Form.useForm<PasswordForm>();
  const [saving, setSaving] = useState(false);
  // right after an administrator's reset the current password is not asked (once)
  const askOld = sysUser?.password_reset !== 'Y';
  const close = () => useDialogs.getState().setChangePasswordOpen(false);

  const submit = async () => {
    let v: PasswordForm;
    try {
      v = await form.validateFields();
    } catch {
      void message.error(MSG.formIncomplete);
      return;
    }
    setSaving(true);
    try {
      const answer = await request('sysusereditpassword', {
        ...(sysUser?.sysid ? { id: sysUser.sysid } : {}),
        username: v.username.trim(),
        ...(askOld ? { oldpassword: v.oldpassword } : {}),
        password: v.password,
        password2: v.password2,
      });
      noticeSuccess(answer.return_msg || MSG.saved);
      useUser.getState().setPasswordStatus('Y');
      void useUser.getState().loadSysUser();
      form.resetFields();
      close();
    } catch {
      // the client toasted the reason
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={!required ? '修改密码' : sysUser?.password_expired === 'Y' ? '密码已过期，请修改密码' : '首次登录，请修改管理员设置的临时密码'}
      closable={!required}
      maskClosable={!required}
      keyboard={!required}
      // leaving stays possible: the other way out is signing out
      cancelText={required ? '退出登录' : undefined}
      onCancel={required ? () => void useUser.getState().logout() : close}
      onOk={() => void submit()}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'change-password-submit' } as Record<string, string>}
    >
      <div data-testid="change-password-dialog">
        <Form<PasswordForm>
          form={form}
          labelCol={{ flex: '90px' }}
          initialValues={{ username: sysUser?.username ?? '', oldpassword: '', password: '', password2: '' }}
        >
          <Form.Item name="username" label="用户名" rules={[{ required: true, whitespace: true, message: MSG.usernameRequired }]}>
            <Input disabled={!!sysUser?.username} data-testid="change-password-username" />
          </Form.Item>
          {askOld && (
            <Form.Item name="oldpassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
              <Input.Password autoComplete="current-password" data-testid="change-password-old" />
            </Form.Item>
          )}
          <Form.Item
            name="password"
            label="新密码"
            rules={[
              { required: true, message: MSG.enterNewPassword },
              { min: LIMITS.passwordMin, max: LIMITS.passwordMax, message: MSG.passwordLength },
            ]}
          >
            <Input.Password autoComplete="new-password" data-testid="change-password-new" />
          </Form.Item>
          <Form.Item
            name="password2"
            label="确认密码"
            dependencies={['password']}
            rules={[
              { required: true, message: MSG.enterConfirm },
              ({ getFieldValue }) => ({
                validator: (_, value: string) =>
                  !value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(MSG.passwordMismatch)),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" placeholder={MSG.enterAgain} data-testid="change-password-confirm" />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
