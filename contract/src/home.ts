/**
 * The cookies the console keeps that the server reads to draw the home page's first screen
 * (server/src/http/first-screen.ts): the session's token, the language, the sidebar's state
 * (docs/product.md#client-state: 1 open, 0 closed) and the layout settings (web/src/stores/settings.ts).
 */
import type { CommunityModule } from './leader/modules.js';
import type { ListAnswer } from './codes.js';
import type { BacklogItem } from './system.js';
import type { RepairDashboard } from './steward/repairReports.js';
import { STEWARD_ROLES } from './steward/roles.js';
import { CARPARK_ROLES } from './carpark/roles.js';
import type { ParkingDashboard } from './carpark/reports.js';
import { PATROL_ROLES } from './patrols/roles.js';
import type { PatrolDashboard } from './patrols/records.js';
import { ACTIVITY_ROLES, type ActivityDashboard } from './activities/activities.js';
import type { AccessDashboard } from './access/devices.js';
import { VISITOR_ROLES } from './visitors/roles.js';
import { METER_ROLES } from './meters/roles.js';
import type { MeterDashboard } from './meters/meters.js';

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
  /** the group side's welcome card names the group, not a community */
  group: string;
  today: string;
  /** Sunday first, as Date.getDay() counts */
  weekdays: readonly [string, string, string, string, string, string, string];
  /** the days-left card's footer: in service, ending within 30 days, ended (both offer renewal) */
  serviceOk: string;
  serviceEnding: string;
  serviceEnded: string;
  /** the figure cards (HOME_CARDS) */
  backlog: string;
  feesMonth: string;
  feesMonthFooter: string;
  topArrears: string;
  noArrears: string;
  rooms: string;
  /** the repair desk's card: open tickets, its footer the overdue and today's ones */
  repairs: string;
  repairsFooter: string;
  /** the parking card: cars inside now of the spaces, its footer today's parking income */
  parking: string;
  parkingValue: string;
  parkingFooter: string;
  /** the patrol card: today's points done of due, its footer the rate and the tasks not complete */
  patrol: string;
  patrolValue: string;
  patrolFooter: string;
  /** the activities card: activities open for sign-up, its footer the people signed up and those to review */
  activities: string;
  activitiesFooter: string;
  /** the access card: door devices offline of the enabled ones, its footer today's visitors expected and arrived */
  access: string;
  accessValue: string;
  accessFooter: string;
  /** the meters card: valves closed now, its footer the meters offline, the rooms low on credit and the charging piles offline */
  meters: string;
  metersFooter: string;
}

/**
 * The words of the home page's welcome card, in each language. The web page and the server's first
 * screen (server/src/http/first-screen.ts) take them from here, so the two cannot drift apart.
 */
export const HOME_WORDS: Record<Language, HomeWords> = {
  'zh-CN': {
    title: '首页',
    welcome: '欢迎，{{name}}',
    region: '当前小区',
    endTime: '到期时间',
    daysLeft: '剩余天数',
    days: '{{n}} 天',
    expired: '已到期',
    noRegion: '集团总部',
    group: '所属集团',
    today: '今天',
    weekdays: ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'],
    serviceOk: '服务中',
    serviceEnding: '即将到期，点击续费',
    serviceEnded: '点击续费',
    backlog: '待办事项',
    feesMonth: '本月实收（{{month}}）',
    feesMonthFooter: '应收 ¥{{receivable}}，收缴率 {{rate}}%',
    topArrears: '欠费最多的楼栋',
    noArrears: '暂无欠费',
    rooms: '{{n}} 户',
    repairs: '未完成报修',
    repairsFooter: '超时 {{overdue}} · 今日新增 {{today}}',
    parking: '场内车辆',
    parkingValue: '{{inside}} / {{total}}',
    parkingFooter: '今日停车收入 ¥{{amount}}',
    patrol: '今日巡更',
    patrolValue: '{{done}} / {{due}}',
    patrolFooter: '完成率 {{rate}}% · 未完成任务 {{missed}}',
    activities: '报名中的活动',
    activitiesFooter: '已报名 {{signed}} 人 · 待审核 {{reviewing}}',
    access: '离线门禁设备',
    accessValue: '{{offline}} / {{total}}',
    accessFooter: '今日预约访客 {{expected}} · 已到访 {{arrived}}',
    meters: '关阀中的表计',
    metersFooter: '离线表 {{offline}} · 余额不足 {{low}} 户 · 离线充电桩 {{piles}}',
  },
  en: {
    title: 'Dashboard',
    welcome: 'Welcome, {{name}}',
    region: 'Community',
    endTime: 'Service ends',
    daysLeft: 'Days left',
    days: '{{n}} days',
    expired: 'Expired',
    noRegion: 'Group head office',
    group: 'Group',
    today: 'Today',
    weekdays: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
    serviceOk: 'In service',
    serviceEnding: 'Ends soon: click to renew',
    serviceEnded: 'Click to renew',
    backlog: 'To-do',
    feesMonth: 'Received this month ({{month}})',
    feesMonthFooter: 'Receivable ¥{{receivable}}, collection rate {{rate}}%',
    topArrears: 'Buildings with the most arrears',
    noArrears: 'No arrears',
    rooms: '{{n}} rooms',
    repairs: 'Open repairs',
    repairsFooter: 'Overdue {{overdue}} · New today {{today}}',
    parking: 'Cars parked',
    parkingValue: '{{inside}} / {{total}}',
    parkingFooter: "Today's parking income ¥{{amount}}",
    patrol: "Today's patrols",
    patrolValue: '{{done}} / {{due}}',
    patrolFooter: 'Done {{rate}}% · {{missed}} rounds incomplete',
    activities: 'Activities open for sign-up',
    activitiesFooter: '{{signed}} signed up · {{reviewing}} to review',
    access: 'Door devices offline',
    accessValue: '{{offline}} / {{total}}',
    accessFooter: 'Visitors expected today {{expected}} · arrived {{arrived}}',
    meters: 'Meter valves closed',
    metersFooter: 'Meters offline {{offline}} · low credit {{low}} rooms · piles offline {{piles}}',
  },
  es: {
    title: 'Panel',
    welcome: 'Bienvenido, {{name}}',
    region: 'Comunidad',
    endTime: 'Fin del servicio',
    daysLeft: 'Días restantes',
    days: '{{n}} días',
    expired: 'Vencido',
    noRegion: 'Sede del grupo',
    group: 'Grupo',
    today: 'Hoy',
    weekdays: ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'],
    serviceOk: 'En servicio',
    serviceEnding: 'Vence pronto: pulse para renovar',
    serviceEnded: 'Pulse para renovar',
    backlog: 'Pendientes',
    feesMonth: 'Cobrado este mes ({{month}})',
    feesMonthFooter: 'Por cobrar ¥{{receivable}}, tasa de cobro {{rate}}%',
    topArrears: 'Edificios con más deudas',
    noArrears: 'Sin deudas',
    rooms: '{{n}} viviendas',
    repairs: 'Reparaciones abiertas',
    repairsFooter: 'Vencidas {{overdue}} · Nuevas hoy {{today}}',
    parking: 'Coches dentro',
    parkingValue: '{{inside}} / {{total}}',
    parkingFooter: 'Ingresos de aparcamiento hoy ¥{{amount}}',
    patrol: 'Rondas de hoy',
    patrolValue: '{{done}} / {{due}}',
    patrolFooter: 'Hecho {{rate}}% · {{missed}} rondas incompletas',
    activities: 'Actividades con inscripción abierta',
    activitiesFooter: '{{signed}} inscritos · {{reviewing}} por revisar',
    access: 'Puertas sin conexión',
    accessValue: '{{offline}} / {{total}}',
    accessFooter: 'Visitas esperadas hoy {{expected}} · llegadas {{arrived}}',
    meters: 'Contadores con válvula cerrada',
    metersFooter: 'Contadores sin conexión {{offline}} · saldo bajo {{low}} viviendas · cargadores sin conexión {{piles}}',
  },
};

/** The welcome card's words without the route title, as the i18n files nest them under `dashboard`. */
export function dashboardWords(language: Language): Omit<HomeWords, 'title'> {
  const { title: _title, ...rest } = HOME_WORDS[language];
  return rest;
}

/**
 * "Today" on the welcome card: the business day with its weekday ('2026-11-27 星期五'), counted in
 * the community's time zone as the server counts days (the page and the first screen alike).
 */
export function todayText(words: Pick<HomeWords, 'weekdays'>, day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return `${day} ${words.weekdays[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]}`;
}

/** The days-left card's footer for a number of days left (null: no end date). */
export function serviceText(words: Pick<HomeWords, 'serviceOk' | 'serviceEnding' | 'serviceEnded'>, days: number | null): string {
  if (days === null) return '';
  if (days < 0) return words.serviceEnded;
  return days < 30 ? words.serviceEnding : words.serviceOk;
}

/** The figure cards of the home page, in their order, and who sees each. */
export type HomeCardKey =
  'backlog' | 'feesMonth' | 'feesArrears' | 'repairs' | 'parking' | 'access' | 'meters' | 'patrol' | 'activities' | 'daysLeft';

export interface HomeCardRule {
  key: HomeCardKey;
  /** shown to holders of one of these roles (admin sees all); none = everybody */
  roles?: readonly string[];
  /** sides the card belongs to; none = both */
  sides?: readonly ('community' | 'group')[];
  /** hidden for these roles (e.g. the to-do card for leader_admin) */
  hiddenFor?: readonly string[];
  /** hidden for these account types (e.g. merchant) */
  hiddenForSysTypes?: readonly string[];
  /** hidden where this community module is closed (docs/product.md#community-modules) */
  module?: CommunityModule;
}

/**
 * The web page draws these cards (web/src/pages/dashboard/cards.tsx) and the server's first screen
 * draws the same ones with their figures, so both take the rules from here.
 */
export const HOME_CARDS: readonly HomeCardRule[] = [
  { key: 'backlog', sides: ['community'], hiddenFor: ['leader_admin'], hiddenForSysTypes: ['merchant'] },
  {
    key: 'feesMonth',
    sides: ['community'],
    module: 'fees',
    roles: ['fees', 'cashier', 'payment', 'feecount', 'fees_count', 'financecount'],
  },
  { key: 'feesArrears', sides: ['community'], module: 'fees', roles: ['fees', 'feecount', 'fees_count', 'financecount'] },
  { key: 'repairs', sides: ['community'], module: 'steward', roles: STEWARD_ROLES.repairRead },
  { key: 'parking', sides: ['community'], module: 'parking', roles: CARPARK_ROLES.staff },
  { key: 'access', sides: ['community'], module: 'access', roles: VISITOR_ROLES.staff },
  { key: 'meters', sides: ['community'], module: 'meters', roles: METER_ROLES.staff },
  { key: 'patrol', sides: ['community'], module: 'patrols', roles: PATROL_ROLES.staff },
  { key: 'activities', sides: ['community'], module: 'activities', roles: ACTIVITY_ROLES },
  { key: 'daysLeft', sides: ['community'] },
];

export function visibleHomeCards(ctx: {
  side: 'community' | 'group';
  roles: readonly string[];
  sysType?: string | undefined;
  /** the community's closed modules */
  modulesOff?: readonly string[] | undefined;
}): HomeCardKey[] {
  const admin = ctx.roles.includes('admin');
  return HOME_CARDS.filter(
    (c) =>
      (!c.sides || c.sides.includes(ctx.side)) &&
      (!c.roles || admin || c.roles.some((r) => ctx.roles.includes(r))) &&
      !c.hiddenFor?.some((r) => ctx.roles.includes(r)) &&
      !(ctx.sysType && c.hiddenForSysTypes?.includes(ctx.sysType)) &&
      !(c.module && ctx.modulesOff?.includes(c.module)),
  ).map((c) => c.key);
}

/** This month's collection figures of the home page's cards (the answer of feedashboard). */
export interface FeeDashboard {
  month: string;
  receivable: string;
  received: string;
  rate: string;
  top_arrears: Array<{ bid: number; building_title: string; arrears: string; rooms: number }>;
}

/**
 * The figures the first screen drew, handed to the console in a JSON script of this id so that
 * its cards draw the same figures at once instead of asking again.
 */
export const FIRST_SCREEN_DATA_ID = 'first-screen-data';

export interface FirstScreenData {
  backlog?: number;
  /** the latest pending to-dos of the home page's panel: backlog_list's answer (PENDING_ON_HOME, newest first) */
  backlogPending?: ListAnswer<BacklogItem>;
  feedashboard?: FeeDashboard;
  repairdashboard?: RepairDashboard;
  parkingdashboard?: ParkingDashboard;
  patroldashboard?: PatrolDashboard;
  activitydashboard?: ActivityDashboard;
  accessdashboard?: AccessDashboard;
  meterdashboard?: MeterDashboard;
}

/** The access card's colour: red while a door device is offline (the guards go and look), else calm. */
export const accessCardColor = (a: AccessDashboard | undefined): string => (a && a.offline > 0 ? '#f4516c' : '#40c9c6');

/** The meters card's colour: red while a valve is closed or a meter or a pile is offline (someone goes and looks), else calm. */
export const metersCardColor = (m: MeterDashboard | undefined): string =>
  m && m.closed + m.offline_meters + m.offline_piles > 0 ? '#f4516c' : '#36a3f7';

/** Where the meters card leads: the valves closed now. */
export const METERS_CARD_LINK = '/carpark/metervalve?valve=closed';

/**
 * The methods of the areas' figure cards, whose answers the first screen hands over under the
 * method's name (FirstScreenData) and the console caches under [method].
 */
export const AREA_CARD_METHODS = [
  'repairdashboard',
  'parkingdashboard',
  'accessdashboard',
  'meterdashboard',
  'patroldashboard',
  'activitydashboard',
] as const;

/** How many pending to-dos the home page lists. */
export const PENDING_ON_HOME = 5;

/** How many of the buildings owed most the home page's card lists (the report has them all). */
export const HOME_TOP_ARREARS = 3;

/**
 * The cards twice as wide as a figure on the home page (a list, not one number), so that the
 * cards of a full home share one row on an office screen (docs/product.md#home-page).
 */
export const HOME_WIDE_CARDS: readonly HomeCardKey[] = ['feesArrears'];

/**
 * A decimal amount as the server sends it ("39827.5", "-1234567.05") written as people read a
 * large sum: "39,827.50". For display only (the dashboard's cards, here and in the first screen);
 * what is sent back stays the plain decimal. Here rather than in ./money.js, which would bring zod
 * onto the dashboard's first load.
 */
/** A whole number with thousands separators, as antd's Statistic writes one ("1,234"): the cards' "x / y" values. */
export const groupedInt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export function groupedAmount(value: string): string {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) return value;
  const whole = m[2]!.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+$)/g, ',');
  return `${m[1]}${whole}.${(m[3] ?? '').padEnd(2, '0')}`;
}
