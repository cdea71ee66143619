import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * A payment provider for renewal orders (and later online fee payments). The sandbox settles
 * through a page of ours; WeChat Pay native would implement the same three calls with its
 * unified order API (code_url), order query and signed notifications.
 */
export interface PaymentProvider {
  readonly name: string;
  /** registers the order with the provider; answers the address to show as a QR code */
  createOrder(order: { orderid: string; totalFee: string; description: string; origin: string }): Promise<{ codeUrl: string }>;
  /** asks the provider whether the order is paid */
  queryOrder(orderid: string): Promise<{ paid: boolean }>;
}

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  constructor(private readonly db: Kysely<DB>) {}

  async createOrder(order: { orderid: string; origin: string }) {
    return { codeUrl: `${order.origin}/sandbox-pay/${encodeURIComponent(order.orderid)}` };
  }

  async queryOrder(orderid: string) {
    const row = await this.db.selectFrom('sandbox_payments').select('orderid').where('orderid', '=', orderid).executeTakeFirst();
    return { paid: Boolean(row) };
  }

  /** What the sandbox pay page does when the payer confirms. Settling twice is harmless. */
  async settle(orderid: string, totalFee: string): Promise<void> {
    await this.db
      .insertInto('sandbox_payments')
      .values({ orderid, total_fee: totalFee })
      .onConflict((oc) => oc.column('orderid').doNothing())
      .execute();
  }
}
