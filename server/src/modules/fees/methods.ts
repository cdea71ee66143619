import type { MethodDef } from '../../http/registry.js';
import './jobs.js';
import './paymentNotify.js';
import { billMethods } from './bills.js';
import { cashierMethods } from './cashier.js';
import { desktopMethods } from './desktop.js';
import { discountMethods } from './discounts.js';
import { dunningMethods } from './dunning.js';
import { importMethods } from './feeimport.js';
import { meterMethods } from './meter.js';
import { conbillMethods } from './conbill.js';
import { monthLintingMethods } from './monthLinting.js';
import { panelMethods } from './panels.js';
import { prepayMethods } from './prepay.js';
import { quickpayMethods } from './quickpay.js';
import { refundMethods } from './refunds.js';
import { reportExportMethods } from './reportExport.js';
import { reportMethods } from './reports.js';
import { settingMethods } from './settings.js';
import { shiftMethods } from './shifts.js';
import { voidMethods } from './void.js';
import { setupMethods } from './setup.js';
import { thingMethods } from './things.js';
import { costMethods } from './costs.js';
import { pannelMethods } from './pannel.js';
import { businessCountMethods } from './businesscount.js';
import { salesMethods } from './sales.js';
import { paydataMethods } from './paydata.js';

/** The fees area: set-up, bills, cashier, prepayment, refunds, discount approvals, reports, dunning, import; parking bills, meter readings, settings, quick payments (docs/product.md#area-fees). */
export const feesModule: MethodDef[] = [
  ...setupMethods,
  ...thingMethods,
  ...billMethods,
  ...cashierMethods,
  ...prepayMethods,
  ...refundMethods,
  ...voidMethods,
  ...shiftMethods,
  ...discountMethods,
  ...reportMethods,
  ...panelMethods,
  ...monthLintingMethods,
  ...conbillMethods,
  ...desktopMethods,
  ...reportExportMethods,
  ...dunningMethods,
  ...importMethods,
  ...meterMethods,
  ...settingMethods,
  ...quickpayMethods,
  // 成本登记 and 成本统计 (docs/product.md#costs)
  ...costMethods,
  // 报表首页 (docs/product.md#report-home)
  ...pannelMethods,
  // 营业统计 (docs/product.md#businesscount)
  ...businessCountMethods,
  // 缴费明细 and 优惠记录 (docs/product.md#pay-data)
  ...paydataMethods,
  // 营收报表 and 订单报表 (docs/product.md#sales-reports)
  ...salesMethods,
];
