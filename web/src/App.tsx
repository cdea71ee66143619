import { useEffect, useMemo } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import esES from 'antd/es/locale/es_ES';
import { BrowserRouter } from 'react-router';
import { setFeedback } from './api/feedback';
import { useAppStore, type Language, type Size } from './stores/app';
import { useSettings } from './stores/settings';
import Root from './router/Root';
import { buildTheme, REDUCED_MOTION_QUERY } from './theme';
import { useMediaQuery } from './shell/useMediaQuery';

const ANTD_LOCALES = { 'zh-CN': zhCN, en: enUS, es: esES } as const satisfies Record<Language, unknown>;

/** The size options (docs/product.md#shell-size) onto antd: default = large, medium = medium, small = small, mini = small + compact. */
const ANTD_SIZE: Record<Size, 'large' | 'medium' | 'small'> = { default: 'large', medium: 'medium', small: 'small', mini: 'small' };

/** Registers the context-bound message/modal/notification for code outside React. */
function FeedbackBridge() {
  const api = AntApp.useApp();
  useEffect(() => {
    setFeedback(api);
    return () => setFeedback(null);
  }, [api]);
  return null;
}

export default function App() {
  const language = useAppStore((s) => s.language);
  const size = useAppStore((s) => s.size);
  const primary = useSettings((s) => s.theme);
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY);
  const theme = useMemo(() => buildTheme(primary, size, !reducedMotion), [primary, size, reducedMotion]);
  // the router is outermost so that notifications and modals opened through the feedback bridge
  // (rendered by AntApp's holder) can link to a page, as an export's notification does
  return (
    <BrowserRouter>
      <ConfigProvider locale={ANTD_LOCALES[language]} theme={theme} componentSize={ANTD_SIZE[size]}>
        <AntApp message={{ maxCount: 3 }}>
          <FeedbackBridge />
          {/* the data-fetching client lives with the signed-in routes (router/SignedIn.tsx) */}
          <Root />
        </AntApp>
      </ConfigProvider>
    </BrowserRouter>
  );
}
