/**
 * The dictionary's renamed labels on the web (docs/resources.md#dictionary): loaded once a session
 * (dictlabels) and again after a rename; the contract's governed enums read them through the label
 * source set here, so tags, filter and form options and every `E[value].text` show the group's words.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { setEnumLabelSource } from '@wuye/contract/kit/resource';
import { call, type CallOptions } from '../../api';
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
  await queryClient.fetchQuery({ ...dictLabelsQuery(useUser.getState().token), staleTime: 0 });
  await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== DICT_LABELS_KEY[0] });
}

/** The labels of the signed-in group, taken in as they answer (the page area's key changes with them). */
function dictLabelsQuery(token: string, options: CallOptions = {}) {
  return {
    queryKey: [...DICT_LABELS_KEY, token],
    queryFn: async () => {
      const answer = await call('dictlabels', {}, options);
      applyDictLabels(answer.labels);
      return answer;
    },
    staleTime: Infinity,
  };
}

/**
 * Asks for the labels while the console's code and the user info load (SignedIn.tsx), so that the
 * page area, which waits for them, is not held up by one more call.
 */
export function prefetchDictLabels(queryClient: QueryClient): void {
  const { token } = useUser.getState();
  // before the user info has answered for the token: a refusal is the guard's to tell
  if (token) void queryClient.prefetchQuery(dictLabelsQuery(token, { silent: true, noRelogin: true }));
}

/**
 * Loads the signed-in group's labels (once a session). Answers the version the page area keys on,
 * and whether the first answer is in: the page area is drawn only then, since a change of the
 * version redraws it from scratch, and a page drawn before the group's words came would lose what
 * the user had begun (an open form) when they came. A failed call draws the page with the words of
 * the code.
 */
export function useDictLabels(): { version: number; ready: boolean } {
  const token = useUser((s) => s.token);
  const { data, isError } = useQuery({ ...dictLabelsQuery(token), enabled: !!token });
  const version = useDictLabelStore((s) => s.version);
  return { version, ready: data !== undefined || isError || !token };
}
