/**
 * Parking reports (停车收入报表 /carpark/parkingincome, 车位占用 /carpark/parkingoccupancy;
 * docs/product.md#parking-reports) and the home page's parking card: income per business day and
 * lot (temporary fees, monthly renewals, coupons sold), the cars inside now and at each hour of a
 * day, the monthly cars ending soon.
 */
import { z } from 'zod';
import { optionalId } from '../common.js';
import type { ExportQueued } from '../jobs.js';
import { wireDay } from '../kit/resource.js';
import { CARPARK_ROLES } from './roles.js';

/** Who reads the parking reports: the parking staff, and finance for the income. */
export const PARKING_REPORT_ROLES = {
  income: [...CARPARK_ROLES.staff, 'feecount', 'fees_count', 'financecount'],
  occupancy: [...CARPARK_ROLES.staff, 'security'],
  /** the home page's parking card */
  dashboard: CARPARK_ROLES.staff,
} as const;

/** The longest income range: a year (and a day, for a leap year). */
export const PARKING_INCOME_MAX_DAYS = 366;

const incomeInput = z
  .object({
    /** both absent: this month to today */
    start_date: z.union([z.literal(''), wireDay]).optional(),
    end_date: z.union([z.literal(''), wireDay]).optional(),
    lot_id: optionalId,
  })
  .superRefine((v, c) => {
    if (!v.start_date !== !v.end_date) c.addIssue({ code: 'custom', path: ['end_date'], message: '请同时选择开始和结束日期' });
    else if (v.start_date && v.end_date) {
      if (v.start_date > v.end_date) c.addIssue({ code: 'custom', path: ['end_date'], message: '结束日期不能早于开始日期' });
      else if (Date.parse(v.end_date) - Date.parse(v.start_date) >= PARKING_INCOME_MAX_DAYS * 86_400_000)
        c.addIssue({ code: 'custom', path: ['end_date'], message: '统计区间不能超过一年' });
    }
  });

/** One day and lot's income (the totals row has day '' and lot 合计). Money as decimal text. */
export interface ParkingIncomeRow {
  key: string;
  day: string;
  lot_id: number;
  lot_title: string;
  /** temporary stays' receipts (临时停车费) */
  temp_count: number;
  temp_amount: string;
  /** monthly cars' renewals */
  renew_count: number;
  renew_amount: string;
  /** coupon orders merchants paid, and the coupons in them */
  coupon_orders: number;
  coupon_quantity: number;
  coupon_amount: string;
  total: string;
}

export interface ParkingIncomeAnswer {
  start_date: string;
  end_date: string;
  items: ParkingIncomeRow[];
  totals: ParkingIncomeRow;
}

/** A lot now: the cars inside against its spaces, and its monthly cars ending soon. */
export interface ParkingOccupancyLot {
  lot_id: number;
  lot_title: string;
  /** the lot's total spaces as set on it (its space rows when not set) */
  total_spaces: number;
  /** cars inside now (在场 and 已支付 stays) */
  inside: number;
  /** of them: temporary cars, and the registered ones (monthly, sold, internal, free, white list) */
  inside_temp: number;
  inside_registered: number;
  /** total − inside, never below 0 */
  free: number;
  /** inside ÷ total as a percentage with one decimal ('' without spaces) */
  rate: string;
  /** the space rows by state */
  spaces_idle: number;
  spaces_rented: number;
  spaces_sold: number;
  /** monthly main cars ending within 7, 15, 30 days (today included), and ended already */
  expiring_7: number;
  expiring_15: number;
  expiring_30: number;
  expired: number;
}

export interface ParkingOccupancyAnswer {
  at: string;
  items: ParkingOccupancyLot[];
  totals: ParkingOccupancyLot;
}

/** An hour of a day: the cars inside at its start (h:00), and the entries and exits within it. */
export interface ParkingHour {
  hour: number;
  /** 'HH:00' */
  label: string;
  inside: number;
  entries: number;
  exits: number;
}

export interface ParkingHourlyAnswer {
  day: string;
  lot_id: number;
  /** the hours up to now for today, all 24 for a past day, none for a later one */
  items: ParkingHour[];
  /** the most cars inside at an hour's start, and the first hour it was reached ('' without hours) */
  peak: number;
  peak_hour: string;
  entries: number;
  exits: number;
}

/** The home page's parking card: cars inside now, and today's parking income. */
export interface ParkingDashboard {
  day: string;
  inside: number;
  total_spaces: number;
  temp_amount: string;
  renew_amount: string;
  coupon_amount: string;
  total: string;
}

export const parkingReportSchemas = {
  parkingincome: incomeInput,
  parkingincomeexport: incomeInput,
  parkingoccupancy: z.object({ lot_id: optionalId }),
  parkinghourly: z.object({ day: z.union([z.literal(''), wireDay]).optional(), lot_id: optionalId }),
  parkingdashboard: z.object({}),
} as const;

export type ParkingReportOutputs = {
  parkingincome: ParkingIncomeAnswer;
  parkingincomeexport: ExportQueued;
  parkingoccupancy: ParkingOccupancyAnswer;
  parkinghourly: ParkingHourlyAnswer;
  parkingdashboard: ParkingDashboard;
};
