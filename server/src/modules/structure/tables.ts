import type { ColumnType, Generated } from 'kysely';

type Default<T> = ColumnType<T, T | undefined, T>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Numeric = ColumnType<string, string | number | undefined, string | number>;

export interface RoomCategoriesTable {
  rid: number;
  id: Generated<number>;
  title: string;
  kind: Default<string>;
  sort: Default<number>;
}

export interface BuildingsTable {
  rid: number;
  id: Generated<number>;
  title: string;
  floors: Default<number>;
  sort: Default<number>;
  remark: Default<string>;
  created_at: Timestamp;
}

export interface UnitsTable {
  rid: number;
  id: Generated<number>;
  bid: number;
  title: string;
  sort: Default<number>;
  created_at: Timestamp;
}

export interface RoomsTable {
  rid: number;
  id: Generated<number>;
  bid: number;
  tid: number;
  title: string;
  floor: Default<number>;
  category_id: number | null;
  built_area: Numeric;
  indoor_area: Numeric;
  state: Default<'vacant' | 'occupied' | 'rented' | 'renovating'>;
  remark: Default<string>;
  created_at: Timestamp;
  /** 1号楼1单元1101, and its building's and unit's sort: kept by the database (026_room_addresses.sql) */
  address: Generated<string>;
  building_sort: Generated<number>;
  unit_sort: Generated<number>;
}

export interface StructureTables {
  room_categories: RoomCategoriesTable;
  buildings: BuildingsTable;
  units: UnitsTable;
  rooms: RoomsTable;
}
