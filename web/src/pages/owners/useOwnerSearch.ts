import { useState } from 'react';
import type { HouseSearchItem } from '@wuye/contract';
import { LIMITS } from '@wuye/contract/codes';
import { MSG } from '@wuye/contract/messages';
import { call } from '../../api/client';
import { feedback } from '../../api/feedback';

/** Shown when the search answered as many houses as it answers at most: more people may match. */
export const OWNER_SEARCH_MORE_HINT = `仅显示前 ${LIMITS.ownerSearchResults} 条，请输入更完整的手机号或姓名`;

/**
 * The owner search of docs/product.md#owner-search (mobile prefix or any part of a name): an empty keyword is refused
 * with the product's notice, and `onFound` sees each answer; `more` says the answer may be cut at its
 * limit. The owner search dialog and the quick payment share it.
 */
export function useOwnerSearch(onFound: (items: HouseSearchItem[]) => void) {
  const [keywords, setKeywords] = useState('');
  const [items, setItems] = useState<HouseSearchItem[] | null>(null);
  const [loading, setLoading] = useState(false);
  const search = async () => {
    const k = keywords.trim();
    if (!k) {
      feedback()?.notification.error({ title: MSG.errorTitle, description: MSG.ownerKeywordRequired });
      return;
    }
    setLoading(true);
    try {
      const res = await call('getkeywordtohouses', { keywords: k });
      setItems(res.items);
      onFound(res.items);
    } catch {
      /* toasted by the client */
    } finally {
      setLoading(false);
    }
  };
  const more = !!items && items.length >= LIMITS.ownerSearchResults;
  return { keywords, setKeywords, items, more, loading, search };
}
