import type { MethodDef } from '../../http/registry.js';
import './jobs.js';
import { billMethods } from './bills.js';
import { cashierMethods } from './cashier.js';
import { dunningMethods } from './dunning.js';
import { importMethods } from './feeimport.js';
import { meterMethods } from './meter.js';
import { prepayMethods } from './prepay.js';
import { quickpayMethods } from './quickpay.js';
import { refundMethods } from './refunds.js';
import { reportExportMethods } from './reportExport.js';
import { reportMethods } from './reports.js';
import { settingMethods } from './settings.js';
import { setupMethods } from './setup.js';

/** The fees area: set-up, bills, cashier, prepayment, refunds, reports, dunning, import; parking bills, meter readings, settings, quick payments (docs/product.md#area-fees). */
export const feesModule: MethodDef[] = [
  ...setupMethods,
  ...billMethods,
  ...cashierMethods,
  ...prepayMethods,
  ...refundMethods,
  ...reportMethods,
  ...reportExportMethods,
  ...dunningMethods,
  ...importMethods,
  ...meterMethods,
  ...settingMethods,
  ...quickpayMethods,
];
