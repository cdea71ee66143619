import type { ColumnType, Generated } from 'kysely';

/** Tables of the owners area (members, cars, ledgers, visitors, parking, access, activities). */
type Default<T> = ColumnType<T, T | undefined, T>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type NullableDate = ColumnType<string | null, string | null | undefined, string | null>;
type Numeric = ColumnType<string, string | number | undefined, string | number>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type Relation = 'owner' | 'family' | 'tenant';

export interface MembersTable {
  rid: number;
  id: Generated<number>;
  realname: string;
  mobile: string;
  id_card: Default<string>;
  gender: Default<'' | 'M' | 'F'>;
  avatar: Default<string>;
  wx_isbind: Default<'Y' | 'N'>;
  app_isbind: Default<'Y' | 'N'>;
  /** owner_balance; the cashier writes it together with balance_ledger */
  balance: Numeric;
  /** owner_bonus (points) */
  bonus: Default<number>;
  remark: Default<string>;
  last_login_time: NullableTimestamp;
  create_time: Timestamp;
}

export interface RoomMembersTable {
  rid: number;
  id: Generated<number>;
  hid: number;
  member_id: number;
  relation: Relation;
  move_in_date: NullableDate;
  move_out_date: NullableDate;
  status: Default<'Y' | 'N'>;
  create_time: Timestamp;
}

export type CarType = 'small' | 'large' | 'new_energy';

export interface CarsTable {
  rid: number;
  id: Generated<number>;
  hid: number;
  member_id: Nullable<number>;
  carlicense: string;
  car_type: Default<CarType>;
  color: Default<string>;
  brand: Default<string>;
  status: Default<'Y' | 'N'>;
  remark: Default<string>;
  create_time: Timestamp;
}

export interface ParkingLotsTable {
  rid: number;
  id: Generated<number>;
  title: string;
  address: Default<string>;
  create_time: Timestamp;
}

export interface ParkingSpacesTable {
  rid: number;
  id: Generated<number>;
  lot_id: number;
  title: string;
  hid: Nullable<number>;
  member_id: Nullable<number>;
  carlicense: Default<string>;
  status: Default<'idle' | 'sold' | 'rented'>;
  start_date: NullableDate;
  end_date: NullableDate;
  create_time: Timestamp;
}

export interface ParkingRecordsTable {
  rid: number;
  id: Generated<number>;
  lot_id: number;
  carno: string;
  inlane: Default<string>;
  intime: Timestamp;
  outlane: Default<string>;
  outtime: NullableTimestamp;
  total_fee: Numeric;
  pay_fee: Numeric;
  car_type: Default<string>;
  reason: Default<string>;
}

export interface MerchantsTable {
  rid: number;
  id: Generated<number>;
  merchant: string;
  mobile: Default<string>;
  status: Default<'Y' | 'N'>;
  create_time: Timestamp;
}

export interface BonusLedgerTable {
  rid: number;
  id: Generated<number>;
  member_id: number;
  merchant_id: Nullable<number>;
  orderid: Default<string>;
  name: Default<string>;
  code: Default<string>;
  user_code: Default<string>;
  num: number;
  pay_cate: Default<string>;
  cate: Default<string>;
  source: Default<string>;
  action_user: Default<string>;
  create_time: Timestamp;
}

/** io_type 1 income (top-up), 2 consumption (LIMITS.ioTypeBalanceConsume). */
export interface BalanceLedgerTable {
  rid: number;
  id: Generated<number>;
  member_id: number;
  hid: Nullable<number>;
  merchant_id: Nullable<number>;
  orderid: Default<string>;
  io_type: 1 | 2;
  feetype: Default<string>;
  paytype: Default<string>;
  total_fee: Numeric;
  status: Default<'Y' | 'N'>;
  remark: Default<string>;
  create_user: Default<string>;
  create_time: Timestamp;
}

export type VisitorStatus = '' | 'Y' | 'D' | 'C' | '3';

export interface VisitorsTable {
  rid: number;
  id: Generated<number>;
  hid: number;
  member_id: Nullable<number>;
  realname: string;
  mobile: Default<string>;
  visit_cause: Default<string>;
  status: Default<VisitorStatus>;
  visit_time: Timestamp;
  create_time: Timestamp;
}

export interface ActivitiesTable {
  rid: number;
  id: Generated<number>;
  title: string;
  limit_num: Default<number>;
  join_type: Default<'all' | 'owner' | 'member'>;
  is_pay: Default<'Y' | 'N'>;
  status: Default<'Y' | 'N' | 'E'>;
  start_time: NullableTimestamp;
  end_time: NullableTimestamp;
  event_start_time: NullableTimestamp;
  event_end_time: NullableTimestamp;
  create_user: Default<string>;
  create_time: Timestamp;
}

export interface ActivitySignupsTable {
  rid: number;
  id: Generated<number>;
  activity_id: number;
  member_id: number;
  hid: number;
  create_time: Timestamp;
}

export interface AccessDevicesTable {
  rid: number;
  id: Generated<number>;
  title: string;
  address: Default<string>;
  create_time: Timestamp;
}

export interface AccessRecordsTable {
  rid: number;
  id: Generated<number>;
  device_id: number;
  member_id: Nullable<number>;
  hid: Nullable<number>;
  rec_time: Timestamp;
}

export type FaceStatus = '' | 'Y' | 'N' | 'P' | 'W';

export interface FacePermissionsTable {
  rid: number;
  id: Generated<number>;
  member_id: number;
  hid: number;
  area_title: Default<string>;
  door_start_time: NullableTimestamp;
  door_end_time: NullableTimestamp;
  status: Default<FaceStatus>;
  create_user: Default<string>;
  create_time: Timestamp;
}

export interface OwnersTables {
  members: MembersTable;
  room_members: RoomMembersTable;
  cars: CarsTable;
  parking_lots: ParkingLotsTable;
  parking_spaces: ParkingSpacesTable;
  parking_records: ParkingRecordsTable;
  merchants: MerchantsTable;
  bonus_ledger: BonusLedgerTable;
  balance_ledger: BalanceLedgerTable;
  visitors: VisitorsTable;
  activities: ActivitiesTable;
  activity_signups: ActivitySignupsTable;
  access_devices: AccessDevicesTable;
  access_records: AccessRecordsTable;
  face_permissions: FacePermissionsTable;
}
