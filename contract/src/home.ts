/**
 * The cookies the console keeps that the server reads to draw the home page's first screen
 * (server/src/http/first-screen.ts): the session's token, the language, the sidebar's state
 * (spec 3: 1 open, 0 closed) and the layout settings (web/src/stores/settings.ts).
 */
export const COOKIES = { token: 'Admin-Token', language: 'language', sidebar: 'sidebarStatus', layout: 'layout' } as const;

/** Languages of the console: cookie `language`, zh-CN by default. */
export const LANGUAGES = ['zh-CN', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

export function parseLanguage(raw: string | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(raw ?? '') ? (raw as Language) : 'zh-CN';
}

export interface HomeWords {
  /** the home page's route title (tab, breadcrumb) */
  title: string;
  welcome: string;
  region: string;
  endTime: string;
  daysLeft: string;
  days: string;
  expired: string;
  noRegion: string;
}

/**
 * The words of the home page's welcome card, in each language. The web page and the server's first
 * screen (server/src/http/first-screen.ts) take them from here, so the two cannot drift apart.
 */
export const HOME_WORDS: Record<Language, HomeWords> = {
  'zh-CN': {
    title: '首页', welcome: '欢迎，{{name}}', region: '当前小区', endTime: '到期时间', daysLeft: '剩余天数',
    days: '{{n}} 天', expired: '已到期', noRegion: '集团总部',
  },
  en: {
    title: 'Dashboard', welcome: 'Welcome, {{name}}', region: 'Community', endTime: 'Service ends', daysLeft: 'Days left',
    days: '{{n}} days', expired: 'Expired', noRegion: 'Group head office',
  },
  es: {
    title: 'Panel', welcome: 'Bienvenido, {{name}}', region: 'Comunidad', endTime: 'Fin del servicio', daysLeft: 'Días restantes',
    days: '{{n}} días', expired: 'Vencido', noRegion: 'Sede del grupo',
  },
};

/** The welcome card's words without the route title, as the i18n files nest them under `dashboard`. */
export function dashboardWords(language: Language): Omit<HomeWords, 'title'> {
  const { title: _title, ...rest } = HOME_WORDS[language];
  return rest;
}
