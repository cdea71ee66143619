import type { MethodDef } from '../../http/registry.js';
import { couponMethods } from './coupons.js';
import { parkingReportMethods } from './reports.js';
import { tempFeeMethods } from './tempFee.js';

/** 临时车收费与停车劵 (docs/product.md#temporary-car-fees, #parking-coupons): fee standards, the calculator, coupons; the parking reports. */
export const carparkFeesModule: MethodDef[] = [...tempFeeMethods, ...couponMethods, ...parkingReportMethods];
