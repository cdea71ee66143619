import { inModule, type MethodDef } from '../http/registry.js';
import { authModule } from './auth/methods.js';
import { regionModule } from './region/methods.js';
import { renewalModule } from './renewal/methods.js';
import { systemModule } from './system/methods.js';
import { jobsModule } from '../jobs/methods.js';
import { structureModule } from './structure/methods.js';
import { ownersModule } from './owners/methods.js';
import { feesModule } from './fees/methods.js';
import { teamModule } from './team/methods.js';
import { settingsModule } from './setup/settingsMethods.js';
import { dictModule } from './setup/dictMethods.js';
import { smsModule } from './setup/smsMethods.js';
import { notifyModule } from './setup/notifyMethods.js';
import { rosterModule } from './setup/rosterMethods.js';
import { profilesModule } from './steward/profilesMethods.js';
import { noticeModule } from './steward/noticesMethods.js';
import { complaintsModule } from './steward/complaintsMethods.js';
import { internalOrdersModule } from './steward/internalOrdersMethods.js';
import { repairsModule } from './steward/repairsModule.js';
import { carparkModule } from './carpark/methods.js';
import { carparkFeesModule } from './carpark/feesModule.js';
import { mobilesysModule } from './mobilesys/methods.js';
import { assetsModule } from './assets/methods.js';
import { accessModule } from './access/methods.js';
import { visitorsModule } from './visitors/methods.js';
import { patrolsModule } from './patrols/methods.js';
import { activitiesModule } from './activities/methods.js';
import { invoiceModule } from './invoice/methods.js';
import { cardsModule } from './cards/methods.js';
import { crmModule } from './crm/methods.js';
import { chargingModule } from './charging/methods.js';
import { metersModule } from './meters/methods.js';
import { boardModule } from './board/methods.js';
import { setpayModule } from './leader/setpayMethods.js';
import { wxsysModule } from './leader/wxsysMethods.js';
import { payTypeCounterMethods } from './leader/paytypes.js';
import { smsQuotaModule } from './leader/smsQuotaMethods.js';
import { leaderModule } from './leader/methods.js';
import { bannerAppModule, bannersModule } from './leader/banners.js';
import { leaderGraphicAppModule, leaderGraphicsModule } from './leader/graphics.js';
import { applysModule } from './leader/applys.js';
import { setdiyModule } from './setdiy/methods.js';

/**
 * Every area's methods; adding an area = one line here. An area a group may close per community is
 * wrapped in `inModule` (docs/product.md#community-modules).
 */
export const modules: MethodDef[][] = [
  authModule,
  systemModule,
  renewalModule,
  regionModule,
  jobsModule,
  structureModule,
  ownersModule,
  inModule('fees', feesModule),
  // what the counter offers of the group's payment methods (paytypelist)
  inModule('fees', payTypeCounterMethods),
  teamModule,
  settingsModule,
  dictModule,
  smsModule,
  notifyModule,
  rosterModule,
  inModule('steward', profilesModule),
  inModule('steward', noticeModule),
  inModule('steward', complaintsModule),
  inModule('steward', internalOrdersModule),
  inModule('steward', repairsModule),
  inModule('parking', carparkModule),
  inModule('parking', carparkFeesModule),
  inModule('mobile', mobilesysModule),
  inModule('assets', assetsModule),
  inModule('access', accessModule),
  inModule('visitors', visitorsModule),
  inModule('patrols', patrolsModule),
  inModule('activities', activitiesModule),
  inModule('invoice', invoiceModule),
  inModule('cards', cardsModule),
  inModule('contracts', crmModule),
  inModule('charging', chargingModule),
  inModule('meters', metersModule),
  boardModule,
  setpayModule,
  wxsysModule,
  // the group's SMS quota package and its ledger (issue 45); every send pays through smsProviderFor
  smsQuotaModule,
  leaderModule,
  // the group's owner-app banners and app catalogue (issue 45); a banner's tap is the owner app's, in its module
  bannersModule,
  applysModule,
  inModule('mobile', bannerAppModule),
  // the group's owner-app articles (/mobile/graphiclist on the group side); an owner's read is the owner app's
  leaderGraphicsModule,
  inModule('mobile', leaderGraphicAppModule),
  setdiyModule,
];
