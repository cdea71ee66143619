import type { MethodOutput } from '@wuye/contract';
import { call } from './client';

/** POST /get_system_extendinfo (docs/product.md#calls): data.data.items holds the maps-service key. */
export async function getSystemExtendInfo(): Promise<MethodOutput<'get_system_extendinfo'>['data']['items'] | null> {
  try {
    const data = await call('get_system_extendinfo', {}, { endpoint: '/get_system_extendinfo', silent: true });
    return data.data.items;
  } catch {
    return null;
  }
}
