/** What the shell mounts: the global owner search (spec 2.4) and the owner drawer (spec 2.5). */
export { default as OwnerSearchDialog } from './OwnerSearchDialog';
export { default as OwnerDrawer } from './OwnerDrawer';
export type { HouseRef } from './shared';
