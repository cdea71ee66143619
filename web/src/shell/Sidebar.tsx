import { useMemo } from 'react';
import { Menu, Tooltip } from 'antd';
import { HomeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { usePreloadPath } from '../router/lazyPage';
import { useAppStore } from '../stores/app';
import { useSettings } from '../stores/settings';
import { useSystem } from '../stores/system';
import { isExternal } from '../utils/validate';
import { sidebarItems, sidebarRoutesOf } from './menuItems';
import { useCurrentRoute } from './useCurrentRoute';

/** Logo and title from system info (docs/product.md#shell-menus), shown when the sidebar-logo setting is on. */
function SidebarLogo({ collapsed }: { collapsed: boolean }) {
  const info = useSystem((s) => s.info);
  const title = info?.sub_title || info?.region_title || '物业管理后台';
  // the title shows whole, on two lines where it must, and in a tooltip beside the sidebar
  return (
    <Tooltip title={title} placement="right">
      <Link to="/dashboard" className="sidebar-logo" data-testid="sidebar-logo">
        {info?.logo_url ? <img src={info.logo_url} alt="" className="sidebar-logo-img" /> : <HomeOutlined className="sidebar-logo-icon" />}
        {!collapsed && (
          <span className="sidebar-title" data-testid="sidebar-title">
            {title}
          </span>
        )}
      </Link>
    </Tooltip>
  );
}

/** Children of the selected top route (docs/product.md#shell-menus). */
export default function Sidebar({ mobile = false }: { mobile?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const current = useCurrentRoute();
  const opened = useAppStore((s) => s.sidebarOpened);
  const showLogo = useSettings((s) => s.sidebarLogo);
  const collapsed = !mobile && !opened;
  const { routes, base } = sidebarRoutesOf(current.top);
  const preload = usePreloadPath();
  const items = useMemo(() => sidebarItems(routes, base, t, preload), [routes, base, t, preload]);
  const openKeys = current.flat ? current.flat.parents.map((p) => p.fullPath) : [];
  return (
    <div className="sidebar-inner" data-testid={mobile ? 'sidebar-mobile' : 'sidebar'}>
      {showLogo && <SidebarLogo collapsed={collapsed} />}
      <div className="sidebar-scroll">
        <Menu
          key={current.top?.path ?? 'none'}
          mode="inline"
          theme="dark"
          inlineCollapsed={collapsed}
          inlineIndent={16}
          items={items}
          selectedKeys={[current.menuPath]}
          defaultOpenKeys={openKeys}
          onClick={({ key }) => {
            // the mobile drawer closes on navigation (and on a click on the current page)
            if (mobile) useAppStore.getState().setMobileSidebarOpen(false);
            if (isExternal(key)) window.open(key, '_blank', 'noopener');
            else void navigate(key);
          }}
        />
      </div>
    </div>
  );
}
