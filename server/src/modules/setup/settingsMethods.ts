import type { MethodDef } from '../../http/registry.js';
import { setsysMethods } from './setsys.js';
import { dailyMethods } from './daily.js';
import { getCommonLinks, groupLinkMethods, linkMethods } from './links.js';
import { securityMethods } from './security.js';

/**
 * Setup's settings (docs/product.md#setup-settings): the system settings page's read (its save is
 * `setsysinfo`, in the system module), the daily switches, the common links and the security policy.
 */
export const settingsModule: MethodDef[] = [
  ...setsysMethods,
  ...dailyMethods,
  getCommonLinks,
  ...linkMethods,
  ...groupLinkMethods,
  ...securityMethods,
];
