/**
 * Who keeps the owner app (docs/product.md#owner-app): its articles, banners and menus are written
 * by those who publish the community's notices (`notices`); which services it offers, by `apply`
 * (the spec's role of /apply). Admin always passes.
 */
export const MOBILESYS_ROLES = {
  content: ['notices'],
  apply: ['apply'],
} as const;
