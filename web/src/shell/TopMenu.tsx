import { useMemo } from 'react';
import { Button, Dropdown, Menu } from 'antd';
import type { MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRoutesInfo } from '../router/context';
import { firstPagePath, topMenuRoutes } from '../router/helpers';
import { usePreloadPath } from '../router/lazyPage';
import { useCurrentRoute } from './useCurrentRoute';
import { useMediaQuery, WIDE_NAVBAR_QUERY } from './useMediaQuery';

/**
 * Top horizontal menu of the permitted top routes; a dropdown on mobile (docs/product.md#shell-menus).
 * Below the wide navbar's width the areas show their words without icons, so every area fits an
 * office's 1280–1440 px screen.
 */
export default function TopMenu({ mobile }: { mobile: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { permitted } = useRoutesInfo();
  const current = useCurrentRoute();
  const tops = useMemo(() => topMenuRoutes(permitted), [permitted]);
  const preload = usePreloadPath();
  const wide = useMediaQuery(WIDE_NAVBAR_QUERY);
  const items: MenuProps['items'] = tops.map((r) => {
    const Icon = r.meta?.icon;
    return {
      key: r.path,
      onMouseEnter: () => preload(firstPagePath(r)),
      icon: Icon && (wide || mobile) ? <Icon /> : undefined,
      label: (
        <span data-testid={`top-menu-item-${r.path.replace(/^\//, '').replace(/\//g, '-')}`}>
          {r.meta?.title ? t(r.meta.title) : r.path}
        </span>
      ),
    };
  });
  const onClick: MenuProps['onClick'] = ({ key }) => {
    const route = tops.find((r) => r.path === key);
    const target = route && firstPagePath(route);
    if (target) void navigate(target);
  };
  const selected = current.top ? [current.top.path] : [];
  if (mobile) {
    const title = current.top?.meta?.title ? t(current.top.meta.title) : t('navbar.menu');
    return (
      <Dropdown menu={{ items, onClick, selectable: true, selectedKeys: selected }} trigger={['click']}>
        <Button type="text" className="top-menu-dropdown" data-testid="top-menu">
          {title} <DownOutlined />
        </Button>
      </Dropdown>
    );
  }
  return (
    <Menu
      className="top-menu"
      data-testid="top-menu"
      mode="horizontal"
      theme="dark"
      items={items}
      selectedKeys={selected}
      onClick={onClick}
    />
  );
}
