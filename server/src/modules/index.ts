import type { MethodDef } from '../http/registry.js';
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

/** Every area's methods; adding an area = one line here. */
export const modules: MethodDef[][] = [
  authModule,
  systemModule,
  renewalModule,
  regionModule,
  jobsModule,
  structureModule,
  ownersModule,
  feesModule,
  teamModule,
  settingsModule,
  dictModule,
  smsModule,
  rosterModule,
  profilesModule,
  noticeModule,
  complaintsModule,
  internalOrdersModule,
  repairsModule,
  carparkModule,
  carparkFeesModule,
  mobilesysModule,
  assetsModule,
  accessModule,
  visitorsModule,
  patrolsModule,
  activitiesModule,
  invoiceModule,
  cardsModule,
  crmModule,
  chargingModule,
  metersModule,
  boardModule,
];
