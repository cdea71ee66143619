import { Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import {
  BugOutlined,
  EllipsisOutlined,
  FileTextOutlined,
  FontSizeOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  FundProjectionScreenOutlined,
  MobileOutlined,
  PictureOutlined,
  QuestionCircleOutlined,
  SettingOutlined,
  TranslationOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, SIZES, type Language, type Size } from '../stores/app';
import { errorLogEnabled, useErrorLog } from '../stores/errorLog';
import { LANGUAGE_NAMES, useLanguageChoice } from './LangSelect';
import { useFullscreen } from './Screenfull';
import { useSizeChoice } from './SizeSelect';
import type { NavbarVisibility } from './visibility';

/** What the entries of the "more" menu do (the top bar's own handlers). */
export interface MoreActions {
  apps: () => void;
  board: () => void;
  updatelog: () => void;
  floorPlan: () => void;
  help: () => void;
  settings: () => void;
  errorLog: () => void;
}

/** An entry's words, with the test id the top bar's own icon has. */
const entry = (testId: string, text: string) => <span data-testid={testId}>{text}</span>;

/**
 * The top bar's "more" menu: where the window is too narrow for every icon beside every area of
 * the top menu, the icons other than the searches, the to-dos and the user come here, with their
 * words (docs/product.md#shell-top-bar).
 */
export default function NavbarMore({
  show,
  apps,
  settings,
  errorLog,
  actions,
}: {
  show: NavbarVisibility;
  /** an application has its download address set */
  apps: boolean;
  /** the settings drawer may be opened */
  settings: boolean;
  /** the error log is here (a phone: its icon is not in the bar) */
  errorLog: boolean;
  actions: MoreActions;
}) {
  const { t } = useTranslation();
  const fullscreen = useFullscreen();
  const size = useSizeChoice();
  const language = useLanguageChoice();
  const errors = useErrorLog((s) => s.logs.length);
  const items: MenuProps['items'] = [
    ...(errorLog && errorLogEnabled() && errors > 0
      ? [{ key: 'errorLog', icon: <BugOutlined />, label: entry('error-log', `${t('navbar.errorLog')}（${errors}）`) }]
      : []),
    ...(apps ? [{ key: 'apps', icon: <MobileOutlined />, label: entry('app-download', t('navbar.appDownload')) }] : []),
    ...(show.board ? [{ key: 'board', icon: <FundProjectionScreenOutlined />, label: entry('navbar-board', t('navbar.board')) }] : []),
    ...(show.updatelog ? [{ key: 'updatelog', icon: <FileTextOutlined />, label: entry('navbar-updatelog', t('navbar.updatelog')) }] : []),
    ...(show.floorPlan ? [{ key: 'floorPlan', icon: <PictureOutlined />, label: entry('navbar-floorplan', t('navbar.floorPlan')) }] : []),
    ...(show.help ? [{ key: 'help', icon: <QuestionCircleOutlined />, label: entry('navbar-help', t('navbar.help')) }] : []),
    {
      key: 'fullscreen',
      icon: fullscreen.full ? <FullscreenExitOutlined /> : <FullscreenOutlined />,
      label: entry('screenfull', t(fullscreen.full ? 'navbar.exitFullscreen' : 'navbar.fullscreen')),
    },
    {
      key: 'size',
      icon: <FontSizeOutlined />,
      label: entry('size-select', t('navbar.size')),
      children: SIZES.map((s) => ({ key: `size:${s}`, label: entry(`size-option-${s}`, t(`size.${s}`)) })),
    },
    {
      key: 'language',
      icon: <TranslationOutlined />,
      label: entry('lang-select', t('navbar.language')),
      children: LANGUAGES.map((l) => ({ key: `language:${l}`, label: entry(`lang-option-${l}`, LANGUAGE_NAMES[l]) })),
    },
    ...(settings ? [{ key: 'settings', icon: <SettingOutlined />, label: entry('settings-toggle', t('navbar.settings')) }] : []),
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    const [what, value] = key.split(':') as [string, string | undefined];
    if (what === 'size') size.choose(value as Size);
    else if (what === 'language') language.choose(value as Language);
    else if (what === 'fullscreen') fullscreen.toggle();
    else if (what in actions) actions[what as keyof MoreActions]();
  };
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items,
        onClick,
        selectable: true,
        selectedKeys: [`size:${size.size}`, `language:${language.language}`],
        triggerSubMenuAction: 'click',
      }}
    >
      <span className="navbar-icon-wrap" data-testid="navbar-more" title={t('navbar.more')}>
        <EllipsisOutlined className="navbar-icon" />
      </span>
    </Dropdown>
  );
}
