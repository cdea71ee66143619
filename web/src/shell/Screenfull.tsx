import { useEffect, useState } from 'react';
import { App, Tooltip } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MSG } from '@wuye/contract/messages';

/** Full-screen toggle (docs/product.md#shell-size): `you browser can not work` when unavailable. */
export default function Screenfull() {
  const { t } = useTranslation();
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
  const Icon = full ? FullscreenExitOutlined : FullscreenOutlined;
  return (
    <Tooltip title={t(full ? 'navbar.exitFullscreen' : 'navbar.fullscreen')}>
      <Icon className="navbar-icon" data-testid="screenfull" onClick={toggle} />
    </Tooltip>
  );
}
