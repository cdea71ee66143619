import type { SystemInfo } from '@wuye/contract/system';

export interface NavbarVisibility {
  board: boolean;
  backlog: boolean;
  updatelog: boolean;
  floorPlan: boolean;
  help: boolean;
  switchRegion: boolean;
  /** the global owner search (docs/product.md#owner-search): community side, not merchants */
  ownerSearch: boolean;
  appDownload: { propertyApp: boolean; wxapp: boolean; consumeMobileApp: boolean; consumeApp: boolean };
}

/**
 * Top bar visibility (docs/product.md#shell-top-bar): merchants see no board, to-do, update log, floor plan, help
 * or switch-community; the to-do icon is also hidden for leader_admin; the update log needs admin
 * or the updatelog permission; app download entries, floor plan and help need their address.
 */
export function navbarVisibility(input: {
  sysType: string | undefined;
  /** the group side has no community to switch */
  side?: 'community' | 'group';
  roles: readonly string[];
  permissions: readonly string[];
  info: Partial<SystemInfo> | null;
}): NavbarVisibility {
  const merchant = input.sysType === 'merchant';
  const info = input.info ?? {};
  const set = (v: string | undefined) => typeof v === 'string' && v.trim() !== '';
  return {
    board: !merchant,
    backlog: !merchant && !input.roles.includes('leader_admin'),
    updatelog: !merchant && (input.roles.includes('admin') || input.permissions.includes('updatelog')),
    floorPlan: !merchant && set(info.region_img),
    help: !merchant && set(info.help_work_url),
    switchRegion: !merchant && input.side !== 'group',
    ownerSearch: !merchant && input.side !== 'group',
    appDownload: {
      propertyApp: set(info.property_app_url),
      wxapp: set(info.wxapp_qrcodes),
      consumeMobileApp: set(info.consume_mobile_app_url),
      consumeApp: set(info.consume_app_url),
    },
  };
}
