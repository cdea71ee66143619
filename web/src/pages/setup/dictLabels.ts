/**
 * The dictionary's renamed labels on the web (docs/resources.md#dictionary): loaded once a session
 * (dictlabels) and again after a rename; the contract's governed enums read them through the label
 * source set here, so tags, filter and form options and every `E[value].text` show the group's words.
 */
import { useEffect } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { setEnumLabelSource } from '@wuye/contract/kit/resource';
import { call } from '../../api';
import { useUser } from '../../stores/user';

type Labels = Record<string, Record<string, string>>;

interface DictLabelState {
  labels: Labels;
  /** bumped when the labels change: the page area redraws with the new words */
  version: number;
}
export const useDictLabelStore = create<DictLabelState>()(() => ({ labels: {}, version: 0 }));
setEnumLabelSource((dict, value) => useDictLabelStore.getState().labels[dict]?.[value]);

export const DICT_LABELS_KEY = ['dictlabels'] as const;

/** Takes new labels; answers whether they differ from the ones shown. */
export function applyDictLabels(labels: Labels): boolean {
  const { labels: shown, version } = useDictLabelStore.getState();
  if (JSON.stringify(shown) === JSON.stringify(labels)) return false;
  useDictLabelStore.setState({ labels, version: version + 1 });
  return true;
}

/** After a rename: the new labels, then every list again (the server's texts carry them too). */
export async function reloadDictLabels(queryClient: QueryClient): Promise<void> {
  const { labels } = await call('dictlabels');
  applyDictLabels(labels);
  queryClient.setQueryData([...DICT_LABELS_KEY, useUser.getState().token], { labels });
  await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== DICT_LABELS_KEY[0] });
}

/** Loads the signed-in group's labels (once a session); answers the version the page area keys on. */
export function useDictLabels(): number {
  const token = useUser((s) => s.token);
  const { data } = useQuery({
    queryKey: [...DICT_LABELS_KEY, token],
    queryFn: () => call('dictlabels'),
    enabled: !!token,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (data) applyDictLabels(data.labels);
  }, [data]);
  return useDictLabelStore((s) => s.version);
}
