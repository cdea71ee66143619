import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/es';
import zhCN from './zh-CN';
import en from './en';
import es from './es';
import type { Language } from '../stores/app';

/** dayjs locale names of the three languages. */
export const DAYJS_LOCALES: Record<Language, string> = { 'zh-CN': 'zh-cn', en: 'en', es: 'es' };

export function initI18n(language: Language): typeof i18n {
  void i18n.use(initReactI18next).init({
    resources: { 'zh-CN': { translation: zhCN }, en: { translation: en }, es: { translation: es } },
    lng: language,
    fallbackLng: 'zh-CN',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  dayjs.locale(DAYJS_LOCALES[language]);
  return i18n;
}

export function changeLanguage(language: Language): void {
  void i18n.changeLanguage(language);
  dayjs.locale(DAYJS_LOCALES[language]);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

export default i18n;
