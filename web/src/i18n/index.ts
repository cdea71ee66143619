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

type TitleBundle = Partial<Record<Language, Record<string, string>>>;
const pendingTitles: TitleBundle[] = [];

/**
 * Adds a feature area's route titles under `route.` (e.g. { 'zh-CN': { fees: '收费管理' } } gives
 * 'route.fees'). Call it at module level next to the area's routes; en/es fall back to zh-CN.
 */
export function registerRouteTitles(bundle: TitleBundle): void {
  if (!i18n.isInitialized) {
    pendingTitles.push(bundle);
    return;
  }
  for (const [lng, titles] of Object.entries(bundle)) {
    if (titles) i18n.addResourceBundle(lng, 'translation', { route: titles }, true, false);
  }
}

function mergedResources() {
  const base: Record<Language, { route: Record<string, string> } & Record<string, unknown>> = {
    'zh-CN': structuredClone(zhCN),
    en: structuredClone(en) as never,
    es: structuredClone(es) as never,
  };
  for (const bundle of pendingTitles.splice(0)) {
    for (const [lng, titles] of Object.entries(bundle) as [Language, Record<string, string> | undefined][]) {
      if (titles) base[lng].route = { ...titles, ...base[lng].route };
    }
  }
  return { 'zh-CN': { translation: base['zh-CN'] }, en: { translation: base.en }, es: { translation: base.es } };
}

export function initI18n(language: Language): typeof i18n {
  void i18n.use(initReactI18next).init({
    resources: mergedResources(),
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
