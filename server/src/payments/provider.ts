import crypto from 'node:crypto';
import { fenToYuan, MONEY_RE, toFen } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { checkMerchantCredentials, type MerchantCredentials, type MerchantTestResult } from './merchant.js';

/** What a provider says of an order when asked (its query API, or its verified notification). */
export interface ProviderPayment {
  paid: boolean;
  /** the amount the provider received, as decimal yuan text; compared with the order before it settles */
  amount?: string;
}

/**
 * A payment provider for renewal orders (and later online fee payments). WeChat Pay native would
 * implement the same calls with its unified order API (code_url) and order query, and verify its
 * signed notifications in a route of its own that settles through the same path as pay_query
 * (modules/renewal/methods.ts, settleRenewal): an order is settled only by what the provider
 * itself says, and only when the amount it received is the order's.
 */
export interface PaymentProvider {
  readonly name: string;
  /**
   * registers the order with the provider; answers the address to show as a QR code. `db` is the
   * transaction the order is written in, for a provider that keeps records of its own there.
   */
  createOrder(
    order: { orderid: string; totalFee: string; description: string; origin: string },
    db?: Kysely<DB>,
  ): Promise<{ codeUrl: string }>;
  /** asks the provider whether the order is paid, and how much it received */
  queryOrder(orderid: string): Promise<ProviderPayment>;
  /**
   * checks a group's payment merchant (支付商户, /setup/setpay: WeChat Pay or Alipay) before money is
   * routed to it; a provider that cannot check merchants leaves it out
   */
  testMerchant?(merchant: MerchantCredentials): Promise<MerchantTestResult>;
}

/**
 * The sandbox provider: a pretend provider for the demo and development, on only when the
 * configuration says so (config.sandbox; never in production unless forced). Like a real one it
 * keeps its own records: an order registered with it gets an unguessable pay key, the QR code
 * opens its pay page by that key (never by our order id), and the page records what the payer
 * confirmed; queryOrder answers from that record.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  constructor(private readonly db: Kysely<DB>) {}

  async createOrder(order: { orderid: string; totalFee: string; origin: string }, db: Kysely<DB> = this.db) {
    const payKey = crypto.randomBytes(24).toString('base64url');
    await db.insertInto('sandbox_orders').values({ orderid: order.orderid, pay_key: payKey, total_fee: order.totalFee }).execute();
    return { codeUrl: `${order.origin}/sandbox-pay/${payKey}` };
  }

  /** the sandbox's check of a merchant: every field present and well formed (payments/merchant.ts) */
  async testMerchant(merchant: MerchantCredentials): Promise<MerchantTestResult> {
    return checkMerchantCredentials(merchant);
  }

  async queryOrder(orderid: string): Promise<ProviderPayment> {
    const row = await this.db
      .selectFrom('sandbox_orders')
      .select(['paid_fee', 'paid_at'])
      .where('orderid', '=', orderid)
      .executeTakeFirst();
    if (!row?.paid_at || row.paid_fee === null) return { paid: false };
    return { paid: true, amount: fenToYuan(toFen(row.paid_fee)) };
  }

  /** The order its pay page shows, by the key in the page's address. */
  findByKey(payKey: string) {
    return this.db
      .selectFrom('sandbox_orders')
      .select(['orderid', 'total_fee', 'paid_fee', 'paid_at'])
      .where('pay_key', '=', payKey)
      .executeTakeFirst();
  }

  /**
   * What the pay page does when the payer confirms: records the amount paid, once. The amount is
   * what the payer's form sent; whether it is the order's is for the settling side to check.
   */
  async pay(payKey: string, amount: string): Promise<boolean> {
    if (!MONEY_RE.test(amount)) return false;
    const res = await this.db
      .updateTable('sandbox_orders')
      .set({ paid_fee: amount, paid_at: new Date() })
      .where('pay_key', '=', payKey)
      .where('paid_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** For tests: the order paid in full, as if its page had been confirmed. */
  async settle(orderid: string, amount?: string): Promise<void> {
    const row = await this.db
      .selectFrom('sandbox_orders')
      .select(['pay_key', 'total_fee'])
      .where('orderid', '=', orderid)
      .executeTakeFirstOrThrow();
    await this.pay(row.pay_key, amount ?? fenToYuan(toFen(row.total_fee)));
  }
}
