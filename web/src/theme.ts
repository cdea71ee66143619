import { theme as antdTheme } from 'antd';
import type { ThemeConfig } from 'antd';
import type { Size } from './stores/app';

/** Theme colour presets (docs/product.md#shell-settings, #theme): eight, default #1890ff. */
export const THEME_PRESETS = ['#1890ff', '#409eff', '#13c2c2', '#52c41a', '#faad14', '#f5222d', '#722ed1', '#eb2f96'] as const;
export const DEFAULT_THEME = THEME_PRESETS[0];

/** Menu colours (docs/product.md#theme). */
export const MENU_COLORS = {
  text: '#bfcbd9',
  activeText: '#409eff',
  bg: '#304156',
  hover: '#263445',
  subBg: '#1f2d3d',
} as const;

/** The system's "reduce motion" setting, which the console honours (docs/product.md#theme). */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** The antd theme: `motion` false draws dialogs, drawers and menus at once, without their animations. */
export function buildTheme(primary: string, size: Size, motion = true): ThemeConfig {
  return {
    algorithm: size === 'mini' ? [antdTheme.defaultAlgorithm, antdTheme.compactAlgorithm] : antdTheme.defaultAlgorithm,
    token: { colorPrimary: primary, colorInfo: primary, borderRadius: 4, motion },
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
