import { z } from 'zod';
import { MSG } from './messages.js';
import { int, noControlChars } from './common.js';

export const renewalMethods = {
  /** creates a renewal order for `years` years at the server's price per year */
  get_region_delay_pay: z.object({ years: int(1, 5).default(1) }),
  pay_query: z.object({
    orderid: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .regex(/^[A-Za-z0-9_-]+$/, '订单号格式不正确'),
    pay_type: z.literal('1').default('1'),
  }),
  regiondelay_foractcode: z.object({
    act_code: noControlChars(z.string({ error: MSG.actCodeRequired }).trim().min(1, MSG.actCodeRequired).max(64)),
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
