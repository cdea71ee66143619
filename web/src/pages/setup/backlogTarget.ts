import type { BacklogItem, BacklogKind } from '@wuye/contract/system';
import { isExternal } from '../../utils/validate';

/** The page where a kind of to-do is worked on, when its item names none the user can open. */
export const BACKLOG_KIND_PAGES: Partial<Record<BacklogKind, string>> = {
  refund: '/fees/refundlist',
  fees: '/fees/feebillworkadd',
  repair: '/steward/repairs',
  repairwork: '/steward/myrepairs',
};

/** The to-do list itself: a link back to it leads nowhere. */
export const BACKLOG_PATH = '/setup/backlog';

export type BacklogTarget = { page: string } | { external: string } | null;

/**
 * Where 去处理 leads (docs/product.md#backlog): the item's own link when it is a page the user may
 * open (or an outside address), else the page of its kind, else nowhere: the to-do's details then
 * open in place. Never an address that would answer 404 or 401.
 */
export function backlogTarget(item: Pick<BacklogItem, 'kind' | 'link'>, canOpen: (pathname: string) => boolean): BacklogTarget {
  const link = item.link.trim();
  if (link && isExternal(link)) return { external: link };
  const pathname = link.split(/[?#]/)[0] ?? '';
  if (link.startsWith('/') && pathname !== BACKLOG_PATH && canOpen(pathname)) return { page: link };
  const kindPage = BACKLOG_KIND_PAGES[item.kind as BacklogKind];
  if (kindPage && canOpen(kindPage)) return { page: kindPage };
  return null;
}
