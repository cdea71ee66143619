import { Dropdown } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { changeLanguage } from '../i18n';
import { LANGUAGES, useAppStore, type Language } from '../stores/app';

/** Each language in its own words. */
export const LANGUAGE_NAMES: Record<Language, string> = { 'zh-CN': '中文', en: 'English', es: 'Español' };

/** The language now and the choice of another (antd and dayjs locales follow). */
export function useLanguageChoice(): { language: Language; choose: (language: Language) => void } {
  const language = useAppStore((s) => s.language);
  const setLanguage = useAppStore((s) => s.setLanguage);
  return {
    language,
    choose: (next) => {
      setLanguage(next);
      changeLanguage(next);
    },
  };
}

/** Language switch: zh-CN, en, es. */
export default function LangSelect() {
  const { language, choose } = useLanguageChoice();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((l) => ({ key: l, label: <span data-testid={`lang-option-${l}`}>{LANGUAGE_NAMES[l]}</span> })),
        onClick: ({ key }) => choose(key as Language),
      }}
    >
      <span className="navbar-icon-wrap" data-testid="lang-select" data-lang={language} title={LANGUAGE_NAMES[language]}>
        <TranslationOutlined className="navbar-icon" />
      </span>
    </Dropdown>
  );
}
