import type { ColumnType, Generated } from 'kysely';
import type { StructureTables } from '../modules/structure/tables.js';
import type { OwnersTables } from '../modules/owners/tables.js';
import type { FeesTables } from '../modules/fees/tables.js';

/** Kysely row types of the tables; one interface per table, named after it. */
type Default<T> = ColumnType<T, T | undefined, T>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Numeric = ColumnType<string, string | number | undefined, string | number>;

export interface GroupsTable {
  id: Generated<number>;
  title: string;
  website_url: Default<string>;
  created_at: Timestamp;
}

export interface RegionsTable {
  id: Generated<number>;
  group_id: number;
  title: string;
  address: Default<string>;
  phone: Default<string>;
  area: Numeric;
  sub_title: Default<string>;
  logo_url: Default<string>;
  region_img: Default<string>;
  copyright: Default<string>;
  property_app_url: Default<string>;
  wxapp_qrcodes: Default<string>;
  consume_mobile_app_url: Default<string>;
  consume_app_url: Default<string>;
  help_work_url: Default<string>;
  end_time: string;
  price_per_year: Numeric;
  status: Default<string>;
  created_at: Timestamp;
}

export interface AccountsTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  name: string;
  avatar: Default<string>;
  introduction: Default<string>;
  mobile: Default<string>;
  sys_type: 'property' | 'merchant' | 'leader';
  group_id: number;
  roles: string[];
  permissions: Default<string[]>;
  password_status: Default<'Y' | 'N'>;
  single_login: Default<'Y' | 'N'>;
  status: Default<'Y' | 'N'>;
  created_at: Timestamp;
  /** set by an administrator's reset: the next password change alone may skip the current password */
  password_reset_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface AccountRegionsTable {
  account_id: number;
  rid: number;
  sort: Default<number>;
}

export interface SessionsTable {
  token_hash: string;
  account_id: number;
  side: 'community' | 'group';
  rid: number | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** logout | elsewhere | password | revoked */
  end_reason: string | null;
  /** the public id an account lists and ends its sessions by */
  id: Generated<number>;
  /** console: the signed-in console; board: a read-only board window (board methods only) */
  kind: Default<'console' | 'board'>;
  /** the absolute end, however active the session stays */
  max_expires_at: Timestamp;
  ip: Default<string>;
  user_agent: Default<string>;
}

export interface LoginThrottleTable {
  key: string;
  failures: Default<number>;
  last_at: Timestamp;
  blocked_until: Timestamp;
}

export interface LoginCodesTable {
  code_hash: string;
  purpose: 'board' | 'handover';
  account_id: number;
  side: 'community' | 'group';
  rid: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface AuditLogTable {
  id: Generated<number>;
  rid: number | null;
  account_id: number | null;
  username: Default<string>;
  side: Default<string>;
  method: string;
  payload: ColumnType<unknown, string, string>;
  outcome: string;
  message: Default<string>;
  ip: Default<string>;
  created_at: Timestamp;
}

export interface BacklogTable {
  rid: number;
  id: Generated<number>;
  title: string;
  content: Default<string>;
  kind: Default<string>;
  link: Default<string>;
  status: Default<'E' | 'Y'>;
  done_by: number | null;
  done_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

export interface CommonLinksTable {
  rid: number;
  id: Generated<number>;
  title: string;
  url: string;
  sort: Default<number>;
}

export interface ResourcesTable {
  id: Generated<number>;
  group_id: number;
  title: string;
  url: string;
  kind: Default<string>;
  remark: Default<string>;
  sort: Default<number>;
}

export interface RenewalOrdersTable {
  rid: number;
  orderid: string;
  years: number;
  total_fee: Numeric;
  status: Default<'E' | 'Y' | 'C'>;
  provider: string;
  code_url: string;
  created_by: number | null;
  created_at: Timestamp;
  paid_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface ActivationCodesTable {
  code: string;
  group_id: number | null;
  months: number;
  used_rid: number | null;
  used_by: number | null;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  remark: Default<string>;
}

export interface RegionDelayLogTable {
  rid: number;
  id: Generated<number>;
  kind: 'pay' | 'code' | 'manual';
  ref: Default<string>;
  old_end: string;
  new_end: string;
  amount: Numeric;
  operator: Default<string>;
  created_at: Timestamp;
}

export interface JobsTable {
  id: Generated<number>;
  rid: number | null;
  kind: string;
  status: Default<'queued' | 'running' | 'done' | 'failed' | 'cancelled'>;
  payload: ColumnType<unknown, string | undefined, string>;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  error: Default<string>;
  progress: Default<number>;
  total: Default<number>;
  attempts: Default<number>;
  created_by: number | null;
  locked_by: string | null;
  heartbeat_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  started_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface ExportFilesTable {
  rid: number;
  job_id: number;
  filename: string;
  content: Buffer;
  rows: number;
  created_at: Timestamp;
}

export interface SandboxOrdersTable {
  orderid: string;
  pay_key: string;
  total_fee: Numeric;
  paid_fee: ColumnType<string | null, string | null | undefined, string | null>;
  paid_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

/** Foundation tables; each area adds its own interface in modules/<area>/tables.ts and joins it to DB below. */
export interface FoundationTables {
  groups: GroupsTable;
  regions: RegionsTable;
  accounts: AccountsTable;
  account_regions: AccountRegionsTable;
  sessions: SessionsTable;
  login_throttle: LoginThrottleTable;
  login_codes: LoginCodesTable;
  audit_log: AuditLogTable;
  backlog: BacklogTable;
  common_links: CommonLinksTable;
  resources: ResourcesTable;
  renewal_orders: RenewalOrdersTable;
  activation_codes: ActivationCodesTable;
  region_delay_log: RegionDelayLogTable;
  jobs: JobsTable;
  export_files: ExportFilesTable;
  sandbox_orders: SandboxOrdersTable;
}

export type DB = FoundationTables & StructureTables & OwnersTables & FeesTables;
