import { useEffect, useMemo } from 'react';
import { App as AntApp, ConfigProvider, theme as antdTheme } from 'antd';
import type { ThemeConfig } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import esES from 'antd/es/locale/es_ES';
import { BrowserRouter } from 'react-router';
import { setFeedback } from './api/feedback';
import { useAppStore, type Language, type Size } from './stores/app';
import { useSettings } from './stores/settings';
import Root from './router/Root';

const ANTD_LOCALES = { 'zh-CN': zhCN, en: enUS, es: esES } as const satisfies Record<Language, unknown>;

/** Spec sizes onto antd: default = large, medium = medium, small = small, mini = small + compact. */
const ANTD_SIZE: Record<Size, 'large' | 'medium' | 'small'> = { default: 'large', medium: 'medium', small: 'small', mini: 'small' };

/** Menu colours of spec 9. */
export const MENU_COLORS = {
  text: '#bfcbd9',
  activeText: '#409eff',
  bg: '#304156',
  hover: '#263445',
  subBg: '#1f2d3d',
} as const;

export function buildTheme(primary: string, size: Size): ThemeConfig {
  return {
    algorithm: size === 'mini' ? [antdTheme.defaultAlgorithm, antdTheme.compactAlgorithm] : antdTheme.defaultAlgorithm,
    token: { colorPrimary: primary, colorInfo: primary, borderRadius: 4 },
    components: {
      Menu: {
        darkItemBg: MENU_COLORS.bg,
        darkSubMenuItemBg: MENU_COLORS.subBg,
        darkPopupBg: MENU_COLORS.bg,
        darkItemColor: MENU_COLORS.text,
        darkItemHoverColor: '#ffffff',
        darkItemHoverBg: MENU_COLORS.hover,
        darkItemSelectedColor: MENU_COLORS.activeText,
        darkItemSelectedBg: MENU_COLORS.hover,
        itemBorderRadius: 0,
        itemMarginInline: 0,
        itemMarginBlock: 0,
        subMenuItemBorderRadius: 0,
      },
    },
  };
}

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
  const theme = useMemo(() => buildTheme(primary, size), [primary, size]);
  return (
    <ConfigProvider locale={ANTD_LOCALES[language]} theme={theme} componentSize={ANTD_SIZE[size]}>
      <AntApp message={{ maxCount: 3 }}>
        <FeedbackBridge />
        {/* the data-fetching client lives with the signed-in routes (router/SignedIn.tsx) */}
        <BrowserRouter>
          <Root />
        </BrowserRouter>
      </AntApp>
    </ConfigProvider>
  );
}
