import type { MethodDef } from '../../http/registry.js';
import { cardMethods } from './cards.js';
import { couponMethods } from './coupons.js';
import { couponRuleMethods } from './couponRules.js';
import { counterMethods } from './counter.js';
import { cardLinkMethods } from './links.js';
import { mallMethods } from './mall.js';
import { merchantMethods } from './merchants.js';
import { rechargeMethods } from './recharge.js';
import { cardReportMethods } from './reports.js';
import { templateMethods } from './templates.js';
import { wxfansMethods } from './wxfans.js';

/** 会员卡 (docs/product.md#member-cards): templates, members' cards, stored value, the counter, the mall, merchants, followers. */
export const cardsModule: MethodDef[] = [
  ...templateMethods,
  ...cardMethods,
  ...rechargeMethods,
  ...counterMethods,
  ...mallMethods,
  ...merchantMethods,
  ...wxfansMethods,
  ...couponMethods,
  ...couponRuleMethods,
  ...cardLinkMethods,
  ...cardReportMethods,
];
