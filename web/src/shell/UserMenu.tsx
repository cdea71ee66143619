import { Avatar, Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { call } from '../api/client';
import { useDialogs } from '../stores/dialogs';
import { useUser } from '../stores/user';
import { loginUrl } from '../utils/auth';

/**
 * User menu (docs/product.md#shell-top-bar): name, home, switch community, back to the group (a head
 * office in a community it entered), change password, log out.
 */
export default function UserMenu({ showSwitch, compact }: { showSwitch: boolean; compact: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const name = useUser((s) => s.name);
  const avatar = useUser((s) => s.avatar);
  const entered = useUser((s) => s.sysUser?.entered === 'Y');
  const items: MenuProps['items'] = [
    { key: 'name', label: <span data-testid="user-menu-name">{name}</span>, disabled: true },
    { type: 'divider' },
    { key: 'home', label: <span data-testid="user-menu-home">{t('navbar.home')}</span> },
    ...(showSwitch ? [{ key: 'switch', label: <span data-testid="user-menu-switch">{t('navbar.switchRegion')}</span> }] : []),
    ...(entered ? [{ key: 'return', label: <span data-testid="user-menu-return">{t('navbar.returnToGroup')}</span> }] : []),
    { key: 'password', label: <span data-testid="user-menu-password">{t('navbar.changePassword')}</span> },
    { key: 'sessions', label: <span data-testid="user-menu-sessions">{t('navbar.sessions')}</span> },
    { type: 'divider' },
    { key: 'logout', label: <span data-testid="user-menu-logout">{t('navbar.logout')}</span> },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'home') void navigate('/dashboard');
    else if (key === 'switch') void navigate('/desktop/regionlist');
    // a hand-over code to the group side: /auth-redirect moves the same account there and ends this session
    else if (key === 'return') void call('leaderreturn').then(({ url }) => window.location.assign(url));
    else if (key === 'password') useDialogs.getState().setChangePasswordOpen(true);
    else if (key === 'sessions') useDialogs.getState().setSessionsOpen(true);
    else if (key === 'logout') {
      const fullPath = location.pathname + location.search;
      void useUser
        .getState()
        .logout()
        .then(() => navigate(loginUrl(fullPath), { replace: true }));
    }
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <span className="user-menu" data-testid="user-menu">
        <Avatar size={28} src={avatar || undefined} icon={avatar ? undefined : <UserOutlined />} />
        {!compact && <span className="user-name">{name}</span>}
        <DownOutlined className="user-caret" />
      </span>
    </Dropdown>
  );
}
