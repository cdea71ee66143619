import { Drawer, Radio, Switch } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SIZES, useAppStore, type Size } from '../stores/app';
import { THEME_PRESETS, useSettings } from '../stores/settings';

/** Settings drawer (docs/product.md#shell-settings): theme colour (8 presets), tab strip, fixed header, sidebar logo. */
export default function SettingsDrawer() {
  const { t } = useTranslation();
  const s = useSettings();
  const size = useAppStore((a) => a.size);
  const setSize = useAppStore((a) => a.setSize);
  return (
    <Drawer open={s.drawerOpen} onClose={() => s.setDrawerOpen(false)} title={t('settings.title')} placement="right" size={300}>
      <div className="settings-drawer" data-testid="settings-drawer">
        <div className="settings-item settings-item-block">
          <span>{t('settings.theme')}</span>
          <div className="theme-swatches">
            {THEME_PRESETS.map((c) => (
              <span
                key={c}
                className="theme-swatch"
                style={{ background: c }}
                data-testid="theme-swatch"
                data-color={c}
                title={c}
                onClick={() => s.change('theme', c)}
              >
                {s.theme.toLowerCase() === c && <CheckOutlined />}
              </span>
            ))}
          </div>
        </div>
        <div className="settings-item">
          <span>{t('settings.tagsView')}</span>
          <Switch checked={s.tagsView} onChange={(v) => s.change('tagsView', v)} data-testid="settings-tagsview" />
        </div>
        <div className="settings-item">
          <span>{t('settings.fixedHeader')}</span>
          <Switch checked={s.fixedHeader} onChange={(v) => s.change('fixedHeader', v)} data-testid="settings-fixedheader" />
        </div>
        <div className="settings-item">
          <span>{t('settings.sidebarLogo')}</span>
          <Switch checked={s.sidebarLogo} onChange={(v) => s.change('sidebarLogo', v)} data-testid="settings-sidebarlogo" />
        </div>
        <div className="settings-item settings-item-block">
          <span>{t('navbar.size')}</span>
          <Radio.Group
            value={size}
            onChange={(e) => setSize(e.target.value as Size)}
            optionType="button"
            size="small"
            data-testid="settings-size"
            options={SIZES.map((v) => ({ value: v, label: t(`size.${v}`) }))}
          />
        </div>
      </div>
    </Drawer>
  );
}
