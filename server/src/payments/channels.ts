import { enumText, PAY_CHANNEL_PROVIDER, PAY_SCENE, type PayScene } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { fail } from '../http/errors.js';
import type { Services } from '../http/services.js';
import type { PaymentProvider } from './provider.js';

/**
 * The provider a way of paying goes through (支付渠道, /setup/setchannel;
 * docs/product.md#setwxsys-and-setchannel). Where the group chose one for the scene: turned off, the
 * scene takes no online payment; a provider this server does not run, it is refused; else that
 * provider. Where the group chose nothing, the server's provider (services.payments).
 * An order already made settles through the provider that took it (providerNamed), whatever the
 * choice is since.
 */
/** the provider, or null with why (reason null: neither the group nor the server has one) */
export type SceneProvider = { provider: PaymentProvider; reason?: undefined } | { provider: null; reason: string | null };

/** The running provider of that name (the server's, or the sandbox when it is on), or null. */
export function providerNamed(services: Pick<Services, 'payments' | 'sandbox'>, name: string): PaymentProvider | null {
  return [services.payments, services.sandbox].find((p) => p?.name === name) ?? null;
}

export async function resolveScene(
  db: Kysely<DB>,
  services: Pick<Services, 'payments' | 'sandbox'>,
  groupId: number,
  scene: PayScene,
): Promise<SceneProvider> {
  const chosen = await db
    .selectFrom('pay_channels')
    .select(['provider', 'enabled'])
    .where('group_id', '=', groupId)
    .where('scene', '=', scene)
    .executeTakeFirst();
  const sceneCh = enumText(PAY_SCENE, scene);
  if (!chosen) return services.payments ? { provider: services.payments } : { provider: null, reason: null };
  if (chosen.enabled !== 'Y') return { provider: null, reason: `集团已停用“${sceneCh}”的在线支付` };
  const provider = providerNamed(services, chosen.provider);
  if (!provider) return { provider: null, reason: `“${sceneCh}”选用的${enumText(PAY_CHANNEL_PROVIDER, chosen.provider)}渠道尚未开通` };
  return { provider };
}

/**
 * The provider to make a new order of the scene with; refused with the reason and what to do
 * instead (`otherwise`, e.g. 请收取现金), or `none` when neither the group nor the server has one.
 */
export async function sceneProviderOrFail(
  ctx: { db: Kysely<DB>; services: Services; session: { groupId: number } },
  scene: PayScene,
  texts: { none: string; otherwise: string },
): Promise<PaymentProvider> {
  const r = await resolveScene(ctx.db, ctx.services, ctx.session.groupId, scene);
  if (r.provider) return r.provider;
  return r.reason === null ? fail(texts.none) : fail(`${r.reason}，${texts.otherwise}`);
}
