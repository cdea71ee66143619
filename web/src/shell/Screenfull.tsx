import { useEffect, useState } from 'react';
import { App, Tooltip } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MSG } from '@wuye/contract/messages';

/** Whether the page is full screen, and the toggle: `you browser can not work` when unavailable (docs/product.md#shell-size). */
export function useFullscreen(): { full: boolean; toggle: () => void } {
  const { message } = App.useApp();
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const onChange = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (!document.fullscreenEnabled) {
      void message.warning(MSG.fullscreenUnsupported);
      return;
    }
    const p = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    p.catch(() => void message.warning(MSG.fullscreenUnsupported));
  };
  return { full, toggle };
}

/** Full-screen toggle (docs/product.md#shell-size). */
export default function Screenfull() {
  const { t } = useTranslation();
  const { full, toggle } = useFullscreen();
  const Icon = full ? FullscreenExitOutlined : FullscreenOutlined;
  return (
    <Tooltip title={t(full ? 'navbar.exitFullscreen' : 'navbar.fullscreen')}>
      <Icon className="navbar-icon" data-testid="screenfull" onClick={toggle} />
    </Tooltip>
  );
}
