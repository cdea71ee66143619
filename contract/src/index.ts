import type { z } from 'zod';
import './zh.js';
import { authMethods, type AuthOutputs } from './auth.js';
import { systemMethods, type SystemOutputs } from './system.js';
import { renewalMethods, type RenewalOutputs } from './renewal.js';
import { regionMethods, type RegionOutputs } from './region.js';
import { jobsMethods, type JobsOutputs } from './jobs.js';
import { structureMethods, type StructureOutputs } from './structure.js';
import { ownersMethods, type OwnersOutputs } from './owners.js';
import { feesMethods, type FeesOutputs } from './fees.js';
import { staffSchemas, type StaffOutputs } from './team/staff.js';
import { operationLogMethods, type OperationLogOutputs } from './operationlog.js';
import { teamMethods, type TeamOutputs } from './team.js';
import { fileSchemas, type FileOutputs } from './files.js';
import { settingsMethods, type SettingsOutputs } from './setup/settings.js';
import { linkMethods, type LinkOutputs } from './setup/links.js';
import { securityMethods, type SecurityOutputs } from './setup/security.js';
import { categorySchemas, type CategoryOutputs } from './setup/category.js';
import { dictSchemas, type DictOutputs } from './setup/dict.js';
import { smsSchemas, type SmsOutputs } from './setup/sms.js';
import { notifySchemas, type NotifyOutputs } from './setup/notify.js';
import { rosterSchemas, type RosterOutputs } from './setup/roster.js';
import { profileSchemas, type ProfileOutputs } from './steward/profiles.js';
import { scoreSchemas, type ScoreOutputs } from './steward/scores.js';
import { noticeSchemas, type NoticeOutputs } from './steward/notices.js';
import { complaintSchemas, type ComplaintOutputs } from './steward/complaints.js';
import { internalOrderSchemas, type InternalOrderOutputs } from './steward/internalOrders.js';
import { repairTypeSchemas, type RepairTypeOutputs } from './steward/repairTypes.js';
import { repairSchemas, type RepairOutputs } from './steward/repairs.js';
import { repairCountSchemas, type RepairCountOutputs } from './steward/repairReports.js';
import { lotSchemas, type LotOutputs } from './carpark/lots.js';
import { spaceSchemas, type SpaceOutputs } from './carpark/spaces.js';
import { carSchemas, type CarOutputs } from './carpark/cars.js';
import { tempFeeSchemas, type TempFeeOutputs } from './carpark/tempFeeConfig.js';
import { couponSchemas, type CouponOutputs } from './carpark/coupons.js';
import { gateSchemas, type GateOutputs } from './carpark/gate.js';
import { parkingReportSchemas, type ParkingReportOutputs } from './carpark/reports.js';
import { contentSchemas, type ContentOutputs } from './mobilesys/content.js';
import { applySchemas, type ApplyOutputs } from './mobilesys/apply.js';
import { assetSchemas, type AssetOutputs } from './assets/ledger.js';
import { maintainSchemas, type MaintainOutputs } from './assets/maintain.js';
import { deviceSchemas, type DeviceOutputs } from './access/devices.js';
import { grantSchemas, type GrantOutputs } from './access/grants.js';
import { roomCodeSchemas, type RoomCodeOutputs } from './access/roomcodes.js';
import { visitorSchemas, type VisitorOutputs } from './visitors/visitors.js';
import { pointSchemas, type PointOutputs } from './patrols/points.js';
import { planSchemas, type PlanOutputs } from './patrols/plans.js';
import { recordSchemas, type RecordOutputs } from './patrols/records.js';
import { activitySchemas, type ActivityOutputs } from './activities/activities.js';
import { invoiceSchemas, type InvoiceOutputs } from './invoice/invoices.js';
import { cardTemplateSchemas, type CardTemplateOutputs } from './cards/templates.js';
import { merchantSchemas, type MerchantOutputs } from './cards/merchants.js';
import { wxFanSchemas, type WxFanOutputs } from './cards/wxfans.js';
import { mallSchemas, type MallOutputs } from './cards/mall.js';
import { cardSchemas, type CardOutputs } from './cards/cards.js';
import { rechargeSchemas, type RechargeOutputs } from './cards/recharge.js';
import { counterSchemas, type CounterOutputs } from './cards/counter.js';
import { memberCouponSchemas, type MemberCouponOutputs } from './cards/coupons.js';
import { couponRuleSchemas, type CouponRuleOutputs } from './cards/couponRules.js';
import { cardLinkSchemas, type CardLinkOutputs } from './cards/links.js';
import { cardReportSchemas, type CardReportOutputs } from './cards/reports.js';
import { crmSchemas, type CrmOutputs } from './crm/index.js';
import { meterSchemas, type MeterOutputs } from './meters/meters.js';
import { chargingSchemas, type ChargingOutputs } from './charging/charging.js';
import { boardSchemas, type BoardOutputs } from './board/board.js';
import { setpaySchemas, type SetpayOutputs } from './leader/setpay.js';
import { setchannelSchemas, setwxsysSchemas, type WxsysOutputs } from './leader/wxsys.js';
import { payTypeSchemas, type PayTypeOutputs } from './leader/paytypes.js';
import { smsquotaSchemas, type SmsQuotaOutputs } from './leader/smsquota.js';
import { bannerSchemas, type BannerOutputs } from './leader/banners.js';
import { leaderGraphicSchemas, type LeaderGraphicOutputs } from './leader/graphics.js';
import { applysSchemas, type ApplysOutputs } from './leader/applys.js';
import { moduleSchemas, type ModuleOutputs } from './leader/modules.js';
import { feeSummarySchemas, type FeeSummaryOutputs } from './leader/feeSummary.js';
import { pannelSchemas, type PannelOutputs } from './fees/pannel.js';
import { businessCountSchemas, type BusinessCountOutputs } from './fees/businesscount.js';
import { salesReportSchemas, type SalesReportOutputs } from './fees/sales.js';
import { paydataSchemas, type PaydataOutputs } from './fees/paydata.js';
import { setdiySchemas, type SetdiyOutputs } from './setdiy/pages.js';

export * from './codes.js';
export * from './kit/index.js';
export * from './messages.js';
export * from './money.js';
export * from './dates.js';
export * from './roles.js';
export * from './common.js';
export * from './zh.js';
export * from './home.js';
export * from './auth.js';
export * from './system.js';
export * from './renewal.js';
export * from './region.js';
export * from './jobs.js';
export * from './files.js';
export * from './structure.js';
export * from './owners.js';
export * from './fees.js';
export * from './team/staff.js';
export * from './team/permissions.js';
export * from './operationlog.js';
export * from './team.js';
export * from './setup/settings.js';
export * from './setup/links.js';
export * from './setup/security.js';
export * from './setup/category.js';
export * from './setup/dict.js';
export * from './setup/sms.js';
export * from './setup/notify.js';
export * from './setup/duty.js';
export * from './setup/roster.js';
export * from './steward/profiles.js';
export * from './steward/scores.js';
export * from './steward/notices.js';
export * from './steward/complaints.js';
export * from './steward/internalOrders.js';
export * from './steward/repairTypes.js';
export * from './steward/repairs.js';
export * from './steward/repairReports.js';
export * from './carpark/lots.js';
export * from './access/devices.js';
export * from './access/grants.js';
export * from './access/roomcodes.js';
export * from './access/roles.js';
export * from './carpark/spaces.js';
export * from './carpark/tempFee.js';
export * from './carpark/tempFeeConfig.js';
export * from './carpark/coupons.js';
export * from './carpark/gate.js';
export * from './carpark/reports.js';
export * from './mobilesys/roles.js';
export * from './mobilesys/apply.js';
export * from './mobilesys/content.js';
export * from './assets/ledger.js';
export * from './assets/maintain.js';
export * from './visitors/visitors.js';
export * from './visitors/roles.js';
export * from './patrols/roles.js';
export * from './patrols/points.js';
export * from './patrols/plans.js';
export * from './patrols/records.js';
export * from './activities/activities.js';
export * from './invoice/invoices.js';
export * from './cards/templates.js';
export * from './cards/merchants.js';
export * from './cards/wxfans.js';
export * from './cards/mall.js';
export * from './cards/roles.js';
export * from './cards/cards.js';
export * from './cards/recharge.js';
export * from './cards/counter.js';
export * from './cards/coupons.js';
export * from './cards/couponRules.js';
export * from './cards/links.js';
export * from './cards/reports.js';
export * from './crm/index.js';
export * from './meters/index.js';
export * from './charging/index.js';
export * from './board/board.js';
export * from './leader/setpay.js';
export * from './leader/wxsys.js';
export * from './leader/paytypes.js';
export * from './leader/smsquota.js';
export * from './leader/banners.js';
export * from './leader/graphics.js';
export * from './leader/applys.js';
export * from './setdiy/pages.js';
export * from './leader/modules.js';
export * from './leader/feeSummary.js';
export * from './fees/pannel.js';
export * from './fees/businesscount.js';
export * from './fees/sales.js';
export * from './fees/paydata.js';

/**
 * Every method's input schema by name. The server registers a handler per name and the
 * web client is typed by it, so the name in the network tab leads to schema, handler and test.
 */
export const methodSchemas = {
  ...authMethods,
  ...systemMethods,
  ...renewalMethods,
  ...regionMethods,
  ...jobsMethods,
  ...structureMethods,
  ...ownersMethods,
  ...feesMethods,
  ...staffSchemas,
  ...operationLogMethods,
  ...teamMethods,
  ...fileSchemas,
  ...settingsMethods,
  ...linkMethods,
  ...securityMethods,
  ...categorySchemas,
  ...dictSchemas,
  ...smsSchemas,
  ...notifySchemas,
  ...rosterSchemas,
  ...profileSchemas,
  ...scoreSchemas,
  ...noticeSchemas,
  ...complaintSchemas,
  ...internalOrderSchemas,
  ...repairTypeSchemas,
  ...repairSchemas,
  ...repairCountSchemas,
  ...lotSchemas,
  ...spaceSchemas,
  ...carSchemas,
  ...tempFeeSchemas,
  ...couponSchemas,
  ...gateSchemas,
  ...parkingReportSchemas,
  ...contentSchemas,
  ...applySchemas,
  ...assetSchemas,
  ...maintainSchemas,
  ...deviceSchemas,
  ...grantSchemas,
  ...roomCodeSchemas,
  ...visitorSchemas,
  ...pointSchemas,
  ...planSchemas,
  ...recordSchemas,
  ...activitySchemas,
  ...invoiceSchemas,
  ...cardTemplateSchemas,
  ...merchantSchemas,
  ...wxFanSchemas,
  ...mallSchemas,
  ...cardSchemas,
  ...rechargeSchemas,
  ...counterSchemas,
  ...memberCouponSchemas,
  ...couponRuleSchemas,
  ...cardLinkSchemas,
  ...cardReportSchemas,
  ...crmSchemas,
  ...meterSchemas,
  ...chargingSchemas,
  ...boardSchemas,
  ...setpaySchemas,
  ...setwxsysSchemas,
  ...smsquotaSchemas,
  ...bannerSchemas,
  ...leaderGraphicSchemas,
  ...applysSchemas,
  ...setchannelSchemas,
  ...payTypeSchemas,
  ...moduleSchemas,
  ...feeSummarySchemas,
  ...pannelSchemas,
  ...businessCountSchemas,
  ...salesReportSchemas,
  ...paydataSchemas,
  ...setdiySchemas,
} as const;

export type MethodName = keyof typeof methodSchemas;
export type MethodInput<M extends MethodName> = z.input<(typeof methodSchemas)[M]>;
export type MethodOutputs = AuthOutputs &
  SystemOutputs &
  RenewalOutputs &
  RegionOutputs &
  JobsOutputs &
  StructureOutputs &
  OwnersOutputs &
  FeesOutputs &
  StaffOutputs &
  OperationLogOutputs &
  TeamOutputs &
  FileOutputs &
  SettingsOutputs &
  LinkOutputs &
  SecurityOutputs &
  CategoryOutputs &
  DictOutputs &
  SmsOutputs &
  NotifyOutputs &
  RosterOutputs &
  ProfileOutputs &
  ScoreOutputs &
  NoticeOutputs &
  ComplaintOutputs &
  InternalOrderOutputs &
  RepairTypeOutputs &
  RepairOutputs &
  RepairCountOutputs &
  LotOutputs &
  SpaceOutputs &
  CarOutputs &
  TempFeeOutputs &
  CouponOutputs &
  GateOutputs &
  ParkingReportOutputs &
  ContentOutputs &
  ApplyOutputs &
  AssetOutputs &
  MaintainOutputs &
  DeviceOutputs &
  GrantOutputs &
  RoomCodeOutputs &
  VisitorOutputs &
  PointOutputs &
  PlanOutputs &
  RecordOutputs &
  ActivityOutputs &
  InvoiceOutputs &
  CardTemplateOutputs &
  MerchantOutputs &
  WxFanOutputs &
  MallOutputs &
  CardOutputs &
  RechargeOutputs &
  CounterOutputs &
  MemberCouponOutputs &
  CouponRuleOutputs &
  CardLinkOutputs &
  CardReportOutputs &
  CrmOutputs &
  MeterOutputs &
  ChargingOutputs &
  BoardOutputs &
  SetpayOutputs &
  WxsysOutputs &
  PayTypeOutputs &
  SmsQuotaOutputs &
  BannerOutputs &
  LeaderGraphicOutputs &
  ApplysOutputs &
  ModuleOutputs &
  FeeSummaryOutputs &
  PannelOutputs &
  BusinessCountOutputs &
  SalesReportOutputs &
  PaydataOutputs &
  SetdiyOutputs;
export type MethodOutput<M extends MethodName> = M extends keyof MethodOutputs ? MethodOutputs[M] : unknown;
