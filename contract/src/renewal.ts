import { z } from 'zod';
import { MSG } from './messages.js';

export const renewalMethods = {
  /** creates a renewal order for `years` years at the server's price per year */
  get_region_delay_pay: z.object({ years: z.coerce.number().int().min(1).max(5).default(1) }),
  pay_query: z.object({
    orderid: z.string().trim().min(1).max(40),
    pay_type: z.literal('1').default('1'),
  }),
  regiondelay_foractcode: z.object({
    act_code: z.string({ error: MSG.actCodeRequired }).trim().min(1, MSG.actCodeRequired).max(64),
  }),
} as const;

export interface RenewalOrder {
  orderid: string;
  total_fee: string;
  years: number;
  price_per_year: string;
  payparam: { code_url: string };
}

export interface RenewalOutputs {
  get_region_delay_pay: { items: RenewalOrder };
  pay_query: { paid: boolean; end_time: string };
  regiondelay_foractcode: { end_time: string };
}
