import { useCallback, useState } from 'react';
import { hashKey, keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ListAnswer } from '@wuye/contract/codes';
import type { MethodInput, MethodName, MethodOutput } from '@wuye/contract';
import { LIMITS } from '@wuye/contract/codes';
import { call } from './client';

/** Methods whose answer is a page `{ items, total }`. */
export type ListMethod = {
  [M in MethodName]: MethodOutput<M> extends ListAnswer<unknown> ? M : never;
}[MethodName];

export type ListItem<M extends ListMethod> = MethodOutput<M> extends ListAnswer<infer T> ? T : never;

/** The filter fields of a list method (everything but paging). */
export type ListFilters<M extends ListMethod> = Omit<MethodInput<M>, 'page' | 'limit'>;

export interface UseListResult<M extends ListMethod> {
  items: ListItem<M>[];
  total: number;
  /** the whole answer of the page shown, for what a list answers besides items and total */
  answer: MethodOutput<M> | undefined;
  loading: boolean;
  page: number;
  limit: number;
  filters: ListFilters<M>;
  /**
   * replaces the filters and goes back to page 1 (docs/product.md#owner-drawer-tabs: filter changes
   * reset to page 1); the same filters on page 1 ask again, as 搜索 pressed twice does
   */
  setFilters: (f: ListFilters<M>) => void;
  setPage: (page: number, limit?: number) => void;
  reload: () => void;
}

export interface ListQueryOptions<M extends ListMethod> {
  enabled?: boolean;
  /** asks again every so many ms while the page shown calls for it (rows still being processed), false to stop */
  refetchInterval?: (answer: MethodOutput<M> | undefined) => number | false;
}

/** The page of a list for the given filters and paging: the query half of useList, for callers that keep the state elsewhere (the URL). */
export function useListQuery<M extends ListMethod>(
  method: M,
  state: { filters: ListFilters<M>; page: number; limit: number },
  options: ListQueryOptions<M> & { queryKey?: readonly unknown[] } = {},
) {
  const { filters, page, limit } = state;
  const query = useQuery({
    queryKey: [...(options.queryKey ?? ['list', method]), page, limit, filters],
    queryFn: async () => {
      const payload = { ...filters, page, limit } as unknown as MethodInput<M>;
      return (await (call as (m: M, p: MethodInput<M>) => Promise<MethodOutput<M>>)(method, payload)) as ListAnswer<ListItem<M>>;
    },
    placeholderData: keepPreviousData,
    retry: false,
    enabled: options.enabled ?? true,
    refetchOnWindowFocus: false,
    refetchInterval: options.refetchInterval ? (q) => options.refetchInterval!(q.state.data as MethodOutput<M> | undefined) : undefined,
  });
  const { refetch } = query;
  const reload = useCallback(() => {
    void refetch();
  }, [refetch]);
  return {
    items: query.data?.items ?? [],
    total: query.data?.total ?? 0,
    answer: query.data as MethodOutput<M> | undefined,
    loading: query.isFetching,
    reload,
  };
}

/**
 * A paged list of docs/product.md#paging (10 a page, first page 1). Failures only end the loading state
 * (docs/product.md#errors): the client has already toasted, the previous page stays on screen.
 */
export function useList<M extends ListMethod>(
  method: M,
  initialFilters: ListFilters<M>,
  options: ListQueryOptions<M> & { limit?: number } = {},
): UseListResult<M> {
  const [filters, setFiltersState] = useState<ListFilters<M>>(initialFilters);
  const [page, setPageState] = useState<number>(LIMITS.firstPage);
  const [limit, setLimit] = useState<number>(options.limit ?? LIMITS.pageSize);
  const query = useListQuery(method, { filters, page, limit }, { enabled: options.enabled, refetchInterval: options.refetchInterval });
  const { reload } = query;
  const setFilters = useCallback(
    (f: ListFilters<M>) => {
      if (page === LIMITS.firstPage && hashKey([f]) === hashKey([filters])) return reload();
      setFiltersState(f);
      setPageState(LIMITS.firstPage);
    },
    [page, filters, reload],
  );
  const setPage = useCallback((p: number, l?: number) => {
    setPageState(p);
    if (l !== undefined) setLimit(l);
  }, []);
  return { ...query, page, limit, filters, setFilters, setPage };
}
