import { useState } from 'react';
import type { HouseSearchItem } from '@wuye/contract';
import { MSG } from '@wuye/contract/messages';
import { call } from '../../api/client';
import { feedback } from '../../api/feedback';

/**
 * The owner search of spec 2.4 (mobile prefix or any part of a name): an empty keyword is refused
 * with the spec's notice, and `onFound` sees each answer. The owner search dialog and the quick
 * payment share it.
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
    } catch { /* toasted by the client */ } finally {
      setLoading(false);
    }
  };
  return { keywords, setKeywords, items, loading, search };
}
