/** What the shell mounts: the global owner search (docs/product.md#owner-search) and the owner drawer (docs/product.md#owner-drawer). */
export { default as OwnerSearchDialog } from './OwnerSearchDialog';
export { default as OwnerDrawer } from './OwnerDrawer';
export type { HouseRef } from './shared';
