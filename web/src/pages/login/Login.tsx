import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../shell/useDocumentTitle';
import { useNavigate, useSearchParams } from 'react-router';
import { MSG } from '@wuye/contract/messages';
import { useUser } from '../../stores/user';
import { readText, writeText } from '../../stores/storage';
import { safeRedirect } from '../../utils/auth';
import './login.css';

const USERNAME_KEY = 'lastUsername';

interface LoginForm {
  username: string;
  password: string;
}

/** Sign-in (docs/product.md#public-routes, #validation): the username is trimmed; only the username is remembered. */
export default function Login() {
  const { t } = useTranslation();
  useDocumentTitle(t('login.signIn'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [loading, setLoading] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  const login = useUser((s) => s.login);

  const onFinish = async (values: LoginForm) => {
    const username = values.username.trim();
    const rid = Number(params.get('rid')) || undefined;
    setLoading(true);
    try {
      await login(username, values.password, rid);
      writeText('local', USERNAME_KEY, username);
      void navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch {
      // the client has shown the message
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="login-container">
      <Form<LoginForm>
        className="login-form"
        data-testid="login-form"
        size="large"
        initialValues={{ username: readText('local', USERNAME_KEY), password: '' }}
        onFinish={(v) => void onFinish(v)}
        autoComplete="on"
      >
        <h1 className="login-title">{t('login.title')}</h1>
        <Form.Item name="username" rules={[{ required: true, whitespace: true, message: MSG.usernameRequired }]}>
          <Input prefix={<UserOutlined />} placeholder={t('login.username')} autoComplete="username" data-testid="login-username" />
        </Form.Item>
        <Form.Item
          name="password"
          rules={[{ required: true, message: MSG.enterPassword }]}
          extra={capsLock ? <span className="login-caps">{t('login.capsLock')}</span> : undefined}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('login.password')}
            autoComplete="current-password"
            data-testid="login-password"
            onKeyUp={(e) => setCapsLock(e.getModifierState('CapsLock'))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </Form>
    </div>
  );
}
