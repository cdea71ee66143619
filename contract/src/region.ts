import { z } from 'zod';
import { id } from './common.js';

export const regionMethods = {
  /** the communities the signed-in account may work in */
  regionlist: z.object({}),
  /** moves the session to another of the account's communities */
  regionswitch: z.object({ rid: id }),
} as const;

export interface RegionChoice {
  rid: number;
  title: string;
  address: string;
  end_time: string;
  days_left: number;
  current: boolean;
}

export interface RegionOutputs {
  regionlist: { items: RegionChoice[] };
  regionswitch: { rid: number };
}
