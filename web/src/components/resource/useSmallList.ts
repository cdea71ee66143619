import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { MethodInput, MethodName, MethodOutput } from '@wuye/contract';
import { call } from '../../api/client';
import { resourceKey, resourceOfSmall } from './keys';

/** Methods answering the options of a dropdown: `{ items }` without paging. */
export type SmallMethod = {
  [M in MethodName]: M extends `${string}_small_list` | 'feethinglist' ? M : never;
}[MethodName];
export type SmallRow<M extends SmallMethod> = MethodOutput<M> extends { items: Array<infer T> } ? T : never;

export interface SmallOption {
  value: number | string;
  label: string;
}

function toOption(item: Record<string, unknown>): SmallOption {
  const value = (item.id ?? item.cost_type ?? '') as number | string;
  return { value, label: String(item.title ?? item.merchant ?? value) };
}

/**
 * The options of a dropdown from a small-list method, cached under the resource the method
 * belongs to (['res', name, 'small', method, params]): any write of that resource refreshes every
 * page's dropdowns of it. `params` null waits (e.g. the unit list until a building is chosen).
 */
export function useSmallList<M extends SmallMethod>(
  method: M,
  params: MethodInput<M> | null,
): { items: SmallRow<M>[]; options: SmallOption[]; loading: boolean } {
  const query = useQuery({
    queryKey: [...resourceKey(resourceOfSmall(method)), 'small', method, params],
    queryFn: () => (call as (m: M, p: MethodInput<M>) => Promise<MethodOutput<M>>)(method, params as MethodInput<M>),
    enabled: params !== null,
    staleTime: 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const data = params === null ? undefined : (query.data as { items?: SmallRow<M>[] } | undefined);
  const items = useMemo(() => data?.items ?? [], [data]);
  const options = useMemo(() => items.map((i) => toOption(i as Record<string, unknown>)), [items]);
  return { items, options, loading: query.isFetching };
}

/** The same cache for code that loads on demand (a cascader's next level). */
export function smallListQuery<M extends SmallMethod>(method: M, params: MethodInput<M>) {
  return {
    queryKey: [...resourceKey(resourceOfSmall(method)), 'small', method, params],
    queryFn: () => (call as (m: M, p: MethodInput<M>) => Promise<MethodOutput<M>>)(method, params),
    staleTime: 60_000,
  };
}
