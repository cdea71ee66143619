import { Dropdown } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { changeLanguage } from '../i18n';
import { LANGUAGES, useAppStore, type Language } from '../stores/app';

const NAMES: Record<Language, string> = { 'zh-CN': '中文', en: 'English', es: 'Español' };

/** Language switch: zh-CN, en, es (antd and dayjs locales follow). */
export default function LangSelect() {
  const language = useAppStore((s) => s.language);
  const setLanguage = useAppStore((s) => s.setLanguage);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((l) => ({ key: l, label: <span data-testid={`lang-option-${l}`}>{NAMES[l]}</span> })),
        onClick: ({ key }) => {
          setLanguage(key as Language);
          changeLanguage(key as Language);
        },
      }}
    >
      <span className="navbar-icon-wrap" data-testid="lang-select" data-lang={language} title={NAMES[language]}>
        <TranslationOutlined className="navbar-icon" />
      </span>
    </Dropdown>
  );
}
