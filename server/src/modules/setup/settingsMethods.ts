import type { MethodDef } from '../../http/registry.js';
import { setsysMethods } from './setsys.js';
import { dailyMethods } from './daily.js';

/**
 * Setup's settings (docs/product.md#setup-settings): the system settings page's read (its save is
 * `setsysinfo`, in the system module) and the daily switches.
 */
export const settingsModule: MethodDef[] = [...setsysMethods, ...dailyMethods];
