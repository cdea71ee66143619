/**
 * The Kysely types of the tables, generated from the migrated database (types.generated.ts,
 * `npm run db:types`). The code imports them from here; a named row type some code needs is
 * re-exported below (write `Selectable<XxxTable>`).
 */
export type {
  DB,
  DeviceCommandsTable,
  DevicesTable,
  FeeRefundsTable,
  InvoicesTable,
  JobsTable,
  JobWritesTable,
  MetersTable,
  RegionsTable,
} from './types.generated.js';
