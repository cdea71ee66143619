import { AccountBookOutlined, BarChartOutlined, CalculatorOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../router/types';
import type { CommunityModule } from '@wuye/contract/leader/modules';
import { lazyPage } from '../../router/lazyPage';
import { FEE_ROLES } from '@wuye/contract/fees/roles';
import { DISCOUNT_APPLY_ROLES, DISCOUNT_MANAGER_ROLES } from '@wuye/contract/fees/discount';
import { SHIFT_READ_ROLES } from '@wuye/contract/fees/refund';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { INVOICE_ROLES } from '@wuye/contract/invoice/roles';
import { CARD_REPORT_ROLES } from '@wuye/contract/cards/reports';
import { FEECOUNTS_ROLES } from '@wuye/contract/fees/pannel';
import { SALES_REPORT_ROLES } from '@wuye/contract/fees/sales';
import { BUSINESSCOUNT_ROLES } from '@wuye/contract/fees/businesscount';
import { RepairCount } from '../steward/repairRoutes';
import { costCountRoute, costRoutes } from './costs/routes';

const FeeItemCateList = lazyPage(() => import('./FeeItemCateList'));
const FeeItemList = lazyPage(() => import('./FeeItemList'));
const FeeItemForm = lazyPage(() => import('./FeeItemForm'));
const BindFee = lazyPage(() => import('./BindFee'));
const FeeThingList = lazyPage(() => import('./FeeThingList'));
const FeeBillWorkAdd = lazyPage(() => import('./FeeBillWorkAdd'));
const FeeBillList = lazyPage(() => import('./FeeBillList'));
const PaymentList = lazyPage(() => import('./PaymentList'));
const ReceiptPrint = lazyPage(() => import('./ReceiptPrint'));
const Cashier = lazyPage(() => import('./Cashier'));
const RefundList = lazyPage(() => import('./RefundList'));
const DiscountList = lazyPage(() => import('./DiscountList'));
const ShiftPage = lazyPage(() => import('./ShiftPage'));
const ShiftPrint = lazyPage(() => import('./ShiftPrint'));
const FeeBillCall = lazyPage(() => import('./FeeBillCall'));
const BillCallSummary = lazyPage(() => import('./BillCallPrint').then((m) => ({ default: m.BillCallSummary })));
const BillCallDetail = lazyPage(() => import('./BillCallPrint').then((m) => ({ default: m.BillCallDetail })));
const ConBill = lazyPage(() => import('./ConBill'));
const FeeImportList = lazyPage(() => import('./FeeImportList'));
const UploadExcels = lazyPage(() => import('./UploadExcels'));
const MeterReading = lazyPage(() => import('./MeterReading'));
const QuickPay = lazyPage(() => import('./QuickPay'));
const SetFees = lazyPage(() => import('./SetFees'));
const FeesCount = lazyPage(() => import('./reports/FeesCount'));
const FeesCountNopay = lazyPage(() => import('./reports/FeesCountNopay'));
const MonthFees = lazyPage(() => import('./reports/MonthFees'));
const PaymentStatis = lazyPage(() => import('./reports/PaymentStatis'));
const PropertyPayStatis = lazyPage(() => import('./reports/PropertyPayStatis'));
const PropertyPayLog = lazyPage(() => import('./reports/PropertyPayLog'));
const PropertyPayCount = lazyPage(() => import('./reports/PropertyPayCount'));
const ComplaintCount = lazyPage(() => import('../steward/ComplaintCount'));
const PropertyNopayCount = lazyPage(() => import('./reports/PropertyNopayCount'));
const MonthLinting = lazyPage(() => import('./reports/MonthLinting'));
const FinanceReport = lazyPage(() => import('./reports/FinanceReport'));
const SalesReports = lazyPage(() => import('./reports/SalesReports'));
const OrderListReport = lazyPage(() => import('./reports/OrderListReport'));
const Electronic = lazyPage(() => import('./reports/Electronic'));
const CardLog = lazyPage(() => import('../cards/reports/CardLog'));
const CardVerification = lazyPage(() => import('../cards/reports/CardVerification'));
const PannelIndex = lazyPage(() => import('./reports/PannelIndex'));
const FeeBillPayData = lazyPage(() => import('./reports/FeeBillPayData'));
const DiscountLog = lazyPage(() => import('./reports/DiscountLog'));
const BusinessCount = lazyPage(() => import('./reports/BusinessCount'));

const { setup: SETUP, bills: BILLS, payments: PAYMENTS, call: CALL, reports: REPORTS } = FEE_ROLES;

/** The fees area (docs/product.md#route-table, /fees). */
export const feesRoutes: AppRoute[] = [
  {
    path: '/fees',
    redirect: '/fees/feebilllist',
    // feecount reads the costs (成本登记) beside the reports
    meta: { title: 'route.fees', icon: AccountBookOutlined, roles: ['fees', 'setfees', 'payment', 'cashier', 'financecount', 'feecount'] },
    children: [
      {
        path: 'feebilllist',
        component: FeeBillList,
        meta: { title: 'route.feebilllist', roles: ['fees', 'cashier', 'payment'], keepAlive: true },
      },
      { path: 'conbill', component: ConBill, meta: { title: 'route.conbill', roles: FEE_ROLES.conbill } },
      { path: 'feebillworkadd', component: FeeBillWorkAdd, meta: { title: 'route.feebillworkadd', roles: BILLS } },
      { path: 'payment', component: PaymentList, meta: { title: 'route.payment', roles: PAYMENTS, keepAlive: true } },
      { path: 'quickpay', component: QuickPay, meta: { title: 'route.quickpay', roles: ['cashier', 'payment', 'fees'], noCache: true } },
      { path: 'meterreading', component: MeterReading, meta: { title: 'route.meterreading', roles: BILLS, keepAlive: true } },
      { path: 'feeitemlist', component: FeeItemList, meta: { title: 'route.feeitemlist', roles: SETUP, keepAlive: true } },
      {
        path: 'feeitemadd',
        component: FeeItemForm,
        hidden: true,
        meta: { title: 'route.feeitemadd', roles: SETUP, activeMenu: '/fees/feeitemlist', noCache: true },
      },
      {
        path: 'feeitemedit',
        component: FeeItemForm,
        hidden: true,
        meta: { title: 'route.feeitemedit', roles: SETUP, activeMenu: '/fees/feeitemlist', noCache: true },
      },
      { path: 'feeitemcatelist', component: FeeItemCateList, meta: { title: 'route.feeitemcatelist', roles: SETUP } },
      { path: 'bindfee', component: BindFee, meta: { title: 'route.bindfee', roles: SETUP } },
      {
        path: 'feethinglist',
        component: FeeThingList,
        meta: { title: 'route.feethinglist', roles: FEE_ROLES.read, keepAlive: true },
      },
      { path: 'fees_cashier', component: Cashier, meta: { title: 'route.cashier', roles: ['cashier'], noCache: true } },
      {
        path: 'refundlist',
        component: RefundList,
        meta: { title: 'route.refundlist', roles: ['fees', 'payment', 'cashier', 'financecount'] },
      },
      {
        path: 'discountlist',
        component: DiscountList,
        meta: { title: 'route.discountlist', roles: [...DISCOUNT_APPLY_ROLES, ...DISCOUNT_MANAGER_ROLES] },
      },
      { path: 'shift', component: ShiftPage, meta: { title: 'route.shift', roles: SHIFT_READ_ROLES, noCache: true } },
      {
        path: 'print/shift/:id',
        component: ShiftPrint,
        hidden: true,
        meta: { title: 'route.printShift', roles: SHIFT_READ_ROLES, activeMenu: '/fees/shift', noCache: true },
      },
      { path: 'feebillcall', component: FeeBillCall, meta: { title: 'route.feebillcall', roles: CALL } },
      {
        path: 'print_billcall',
        component: BillCallSummary,
        hidden: true,
        meta: { title: 'route.print_billcall', roles: CALL, activeMenu: '/fees/feebillcall', noCache: true },
      },
      {
        path: 'print_billcallmx',
        component: BillCallDetail,
        hidden: true,
        meta: { title: 'route.print_billcallmx', roles: CALL, activeMenu: '/fees/feebillcall', noCache: true },
      },
      { path: 'feeimportlist', component: FeeImportList, meta: { title: 'route.feeimportlist', roles: BILLS } },
      { path: 'upload-excels', component: UploadExcels, meta: { title: 'route.uploadExcels', roles: BILLS, keepAlive: true } },
      {
        path: 'print/receipt/:id',
        component: ReceiptPrint,
        hidden: true,
        meta: { title: 'route.printReceipt', roles: PAYMENTS, activeMenu: '/fees/payment', noCache: true },
      },
      // 成本登记: the costs paid and their items (docs/product.md#costs)
      ...costRoutes,
    ],
  },
];

/** The reports under /feecounts that count another module's data than the fees'. */
const REPORT_MODULES: Partial<Record<string, CommunityModule>> = {
  repaircount: 'steward',
  complaintcount: 'steward',
  cardlog: 'cards',
  card_verification: 'cards',
  electronic: 'invoice',
};
const withReportModules = (routes: AppRoute[]): AppRoute[] =>
  routes.map((r) => ({ ...r, meta: { ...r.meta, module: REPORT_MODULES[r.path] ?? 'fees' } }));

/** Fee reports (docs/product.md#route-table, /feecounts). */
export const feecountsRoutes: AppRoute[] = [
  {
    path: '/feecounts',
    redirect: '/feecounts/pannelindex',
    // the union of its reports' roles (contract/fees/pannel.ts), which the report home's method shares
    meta: { title: 'route.feecounts', icon: BarChartOutlined, roles: [...FEECOUNTS_ROLES] },
    // a report is closed with the module whose data it counts (docs/product.md#community-modules)
    children: withReportModules([
      // 报表首页: the period's figures and tiles to every report (docs/product.md#report-home)
      { path: 'pannelindex', component: PannelIndex, meta: { title: 'route.pannelindex', roles: [...FEECOUNTS_ROLES] } },
      { path: 'fees_count', component: FeesCount, meta: { title: 'route.fees_count', roles: REPORTS } },
      { path: 'fees_count_nopay', component: FeesCountNopay, meta: { title: 'route.fees_count_nopay', roles: REPORTS } },
      { path: 'month_fees', component: MonthFees, meta: { title: 'route.month_fees', roles: REPORTS } },
      { path: 'month_linting', component: MonthLinting, meta: { title: 'route.month_linting', roles: REPORTS } },
      { path: 'paymentstatis', component: PaymentStatis, meta: { title: 'route.paymentstatis', roles: REPORTS } },
      { path: 'propertypaystatis', component: PropertyPayStatis, meta: { title: 'route.propertypaystatis', roles: REPORTS } },
      {
        path: 'propertypaylog',
        component: PropertyPayLog,
        hidden: true,
        meta: { title: 'route.propertypaylog', roles: REPORTS, activeMenu: '/feecounts/propertypaystatis', search: true },
      },
      { path: 'propertypaycount', component: PropertyPayCount, meta: { title: 'route.propertypaycount', roles: REPORTS } },
      { path: 'propertynopaycount', component: PropertyNopayCount, meta: { title: 'route.propertynopaycount', roles: REPORTS } },
      { path: 'repaircount', component: RepairCount, meta: { title: 'route.repaircount', roles: [...STEWARD_ROLES.reports] } },
      { path: 'complaintcount', component: ComplaintCount, meta: { title: 'route.complaintcount', roles: [...STEWARD_ROLES.reports] } },
      // feecountpannel group: the costs registered on /fees by category and item × month (成本统计)
      costCountRoute,
      { path: 'financereport', component: FinanceReport, meta: { title: 'route.financereport', roles: ['financecount', 'feecount'] } },
      // financecount group: money received by business line, and every paid order (docs/product.md#sales-reports)
      { path: 'salesreports', component: SalesReports, meta: { title: 'route.salesreports', roles: [...SALES_REPORT_ROLES] } },
      { path: 'orderlistreport', component: OrderListReport, meta: { title: 'route.orderlistreport', roles: [...SALES_REPORT_ROLES] } },
      // financecount group: every paid bill line, and every discount granted (docs/product.md#pay-data)
      { path: 'feebillpaydata', component: FeeBillPayData, meta: { title: 'route.feebillpaydata', roles: REPORTS } },
      { path: 'discountlog', component: DiscountLog, meta: { title: 'route.discountlog', roles: REPORTS } },
      // financecount group: the members' stored value (会员卡流水) with what they hold (issue 42)
      {
        path: 'cardlog',
        component: CardLog,
        meta: { title: 'route.cardlog', roles: [...CARD_REPORT_ROLES], notForSysTypes: ['merchant'] },
      },
      // businesscount group: the counter's business per cashier and pay method (docs/product.md#businesscount)
      { path: 'businesscount', component: BusinessCount, meta: { title: 'route.businesscount', roles: [...BUSINESSCOUNT_ROLES] } },
      // businesscount group: issued and reversed invoices per month, item and rate (issue 41)
      { path: 'electronic', component: Electronic, meta: { title: 'route.electronic', roles: [...INVOICE_ROLES.report] } },
      // businesscount group: coupon redemptions (issue 42)
      {
        path: 'card_verification',
        component: CardVerification,
        meta: { title: 'route.card_verification', roles: [...CARD_REPORT_ROLES], notForSysTypes: ['merchant'] },
      },
    ]),
  },
];

/** Children of '/setup' (the lead merges them into the shell's '/setup' route). */
export const feesSetupRoutes: AppRoute[] = [{ path: 'setfees', component: SetFees, meta: { title: 'route.setfees', roles: ['setfees'] } }];

/** Children of '/desktop' (the lead merges them into the shell's '/desktop' route). */
export const feesDesktopRoutes: AppRoute[] = [
  { path: 'cashier', component: Cashier, meta: { title: 'route.cashier', icon: CalculatorOutlined, roles: ['cashier'], noCache: true } },
];
