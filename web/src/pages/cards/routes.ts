import {
  AppstoreOutlined,
  BarChartOutlined,
  CreditCardOutlined,
  GiftOutlined,
  IdcardOutlined,
  LinkOutlined,
  WalletOutlined,
  ProfileOutlined,
  ShopOutlined,
  ShoppingOutlined,
  TagOutlined,
  TagsOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import { mallOrder } from '@wuye/contract/cards/mall';
import { CARD_ROLES } from '@wuye/contract/cards/roles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const TemplateList = lazyPage(() => import('./TemplateList'));
const CardList = lazyPage(() => import('./CardList'));
const LinkList = lazyPage(() => import('./LinkList'));
const StorageList = lazyPage(() => import('./StorageList'));
const CounterPage = lazyPage(() => import('./CounterPage'));
const OrderInfo = lazyPage(() => import('./OrderInfo'));
const MerchantList = lazyPage(() => import('./MerchantList'));
const WxFansList = lazyPage(() => import('./WxFansList'));
const MallSettings = lazyPage(() => import('./MallSettings'));
const GoodsList = lazyPage(() => import('./GoodsList'));
const CateList = lazyPage(() => import('./CateList'));
const MallOrderList = lazyPage(() => import('./MallOrderList'));
const CouponList = lazyPage(() => import('./CouponList'));
const CouponRules = lazyPage(() => import('./CouponRules'));
const CouponShow = lazyPage(() => import('./CouponShow'));
const CouponGetList = lazyPage(() => import('./CouponGetList'));
const CouponReport = lazyPage(() => import('./CouponReport'));

/** Route titles of the member cards, keyed like 'route.<name>' without the prefix. */
export const cardTitles = {
  'zh-CN': {
    carduslist: '会员列表',
    creatcardus: '开卡',
    editcardus: '编辑会员卡',
    cardslink: '领卡链接',
    storagegl: '储值管理',
    carduscon: '会员收银',
    orderinfo: '会员订单详情',
    cardinfo: '会员卡设置',
    merchantlist: '商户管理',
    wxfanslist: '公众号粉丝',
    shopmall: '积分商城',
    goods: '商品管理',
    catelist: '商品分类',
    mallorderlist: '兑换订单',
    cardslist: '优惠券',
    cardsrule: '赠券规则',
    cardsadd: '新增优惠券',
    cardsedit: '编辑优惠券',
    carshow: '优惠券数据',
    cardgetlists: '领券记录',
    reportcardgenerallist: '卡券概况',
  },
  en: {
    carduslist: 'Members',
    creatcardus: 'Open a card',
    editcardus: 'Edit member card',
    cardslink: 'Claim links',
    storagegl: 'Stored value',
    carduscon: 'Member counter',
    orderinfo: 'Member order',
    cardinfo: 'Member card templates',
    merchantlist: 'Merchants',
    wxfanslist: 'WeChat followers',
    shopmall: 'Points mall',
    goods: 'Mall goods',
    catelist: 'Goods categories',
    mallorderlist: 'Mall orders',
    cardslist: 'Coupons',
    cardsrule: 'Coupon rules',
    cardsadd: 'New coupon',
    cardsedit: 'Edit coupon',
    carshow: 'Coupon figures',
    cardgetlists: 'Coupons given',
    reportcardgenerallist: 'Coupon overview',
  },
};

const roles = [...CARD_ROLES.staff];
const storageRoles = [...new Set([...CARD_ROLES.staff, ...CARD_ROLES.recharge, ...CARD_ROLES.approve])];
const notForSysTypes = ['merchant'];

/** /carpark: the member card system (docs/product.md#member-cards): card templates so far. */
export const cardRoutes: AppRoute[] = [
  {
    path: 'carduslist',
    component: CardList,
    meta: { title: 'route.carduslist', icon: IdcardOutlined, roles, keepAlive: true, notForSysTypes },
  },
  // the card form's own addresses (the spec's route table): the list with the form open
  ...(['creatcardus', 'editcardus'] as const).map((path): AppRoute => ({
    path,
    component: CardList,
    hidden: true,
    meta: { title: `route.${path}`, roles: [...CARD_ROLES.issue], activeMenu: '/carpark/carduslist', noCache: true, notForSysTypes },
  })),
  // claim links: the card staff read them, `cardset` sets them up, those who open cards claim for members; never a merchant account's
  {
    path: 'cardslink',
    component: LinkList,
    meta: { title: 'route.cardslink', icon: LinkOutlined, roles, keepAlive: true, notForSysTypes },
  },
  {
    path: 'storagegl',
    component: StorageList,
    meta: { title: 'route.storagegl', icon: WalletOutlined, roles: storageRoles, keepAlive: true, notForSysTypes },
  },
  // the counter: a merchant account at its own store, the property's staff at any
  { path: 'carduscon', component: CounterPage, meta: { title: 'route.carduscon', icon: ShopOutlined, roles, keepAlive: true } },
  { path: 'orderinfo', component: OrderInfo, meta: { title: 'route.orderinfo', icon: ProfileOutlined, roles } },
  { path: 'cardinfo', component: TemplateList, meta: { title: 'route.cardinfo', icon: CreditCardOutlined, roles, keepAlive: true } },
  // the merchants and the followers: the card staff's, never a merchant account's (spec 2.3)
  {
    path: 'merchantlist',
    component: MerchantList,
    meta: { title: 'route.merchantlist', icon: ShoppingOutlined, roles, keepAlive: true, notForSysTypes },
  },
  {
    path: 'wxfanslist',
    component: WxFansList,
    meta: { title: 'route.wxfanslist', icon: WechatOutlined, roles, keepAlive: true, notForSysTypes },
  },
  // the points mall: settings, goods, categories (the card staff read them) and the members' orders (those who run the mall)
  { path: 'shopmall', component: MallSettings, meta: { title: 'route.shopmall', icon: ShopOutlined, roles, keepAlive: true } },
  { path: 'goods', component: GoodsList, meta: { title: 'route.goods', icon: GiftOutlined, roles, keepAlive: true } },
  { path: 'catelist', component: CateList, meta: { title: 'route.catelist', icon: AppstoreOutlined, roles, keepAlive: true } },
  {
    path: 'mallorderlist',
    component: MallOrderList,
    meta: { title: 'route.mallorderlist', icon: ProfileOutlined, roles: [...mallOrder.def.roles.read], keepAlive: true },
  },
  // members' coupons: the card staff read them, `cardcoupon` sets them up and gives them; never a merchant account's
  {
    path: 'cardslist',
    component: CouponList,
    meta: { title: 'route.cardslist', icon: TagsOutlined, roles, keepAlive: true, notForSysTypes },
  },
  ...(['cardsadd', 'cardsedit'] as const).map((path): AppRoute => ({
    path,
    component: CouponList,
    hidden: true,
    meta: { title: `route.${path}`, roles: [...CARD_ROLES.coupons], activeMenu: '/carpark/cardslist', noCache: true, notForSysTypes },
  })),
  {
    path: 'cardsrule',
    component: CouponRules,
    meta: { title: 'route.cardsrule', icon: GiftOutlined, roles, keepAlive: true, notForSysTypes },
  },
  {
    path: 'carshow',
    component: CouponShow,
    hidden: true,
    meta: { title: 'route.carshow', roles, activeMenu: '/carpark/cardslist', noCache: true, notForSysTypes },
  },
  {
    path: 'cardgetlists',
    component: CouponGetList,
    meta: { title: 'route.cardgetlists', icon: TagOutlined, roles, keepAlive: true, notForSysTypes },
  },
  {
    path: 'reportcardgenerallist',
    component: CouponReport,
    meta: { title: 'route.reportcardgenerallist', icon: BarChartOutlined, roles, keepAlive: true, notForSysTypes },
  },
];
