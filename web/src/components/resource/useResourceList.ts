import { useCallback, useMemo, useRef, useState } from 'react';
import { hashKey } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { LIMITS } from '@wuye/contract/codes';
import { isIdWidget, matchOf, type FieldDef, type FilterValue, type ResourceDef } from '@wuye/contract/kit/resource';
import type { AnyResource } from './types';
import { useListQuery, type ListMethod } from '../../api/useList';
import { resourceKey } from './keys';

export type Filters = Record<string, FilterValue>;

export interface ResourceListOptions {
  /** filters the page always sends (a room's id, io_type=2): neither shown nor kept in the address */
  permanent?: Record<string, unknown>;
  /** keep the filters and the page in the address (default true): a filtered list can be linked and survives Back */
  syncUrl?: boolean;
  /** rows a page by default (10; a tree shows its whole list at once: 200) */
  pageSize?: number;
  /**
   * The list's own address, for a page also opened at its form's addresses (…add, …edit?id=):
   * its filters go there. Else a filter typed while the page opened at …add still shows, just
   * after a save sent it back to the list, took the console back to …add.
   */
  path?: string;
}

export interface ResourceList<Row> {
  items: Row[];
  total: number;
  /** the whole answer of the page shown, for what a list answers besides its rows (sums) */
  answer: unknown;
  loading: boolean;
  page: number;
  limit: number;
  /** the user's filters (without the permanent ones) */
  filters: Filters;
  /** what the list sends besides paging: the user's filters and the permanent ones (an export takes the same) */
  payload: Record<string, unknown>;
  /** replaces the filters and goes back to page 1 (docs/product.md#paging) */
  setFilters: (f: Filters) => void;
  setPage: (page: number, limit?: number) => void;
  reload: () => void;
}

const isNumeric = (f: FieldDef) => isIdWidget(f.widget) || f.widget === 'int' || f.widget === 'decimal' || f.widget === 'money';

/** A filter as it is written in the address: a range as from~to, a list with commas. */
export function encodeFilter(value: FilterValue, field?: FieldDef): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (Array.isArray(value) && field && matchOf(field) === 'in') return value.length ? value.join(',') : undefined;
  if (Array.isArray(value)) return value[0] && value[1] ? `${value[0]}~${value[1]}` : undefined;
  return String(value);
}

/** A filter read back from the address, in the type its field has. */
export function decodeFilter(field: FieldDef, raw: string): FilterValue {
  if (matchOf(field) === 'range') {
    const [from, to] = raw.split('~');
    return from && to ? [from, to] : undefined;
  }
  if (matchOf(field) === 'in') {
    const list = raw.split(',').filter(Boolean);
    return list.length ? list : undefined;
  }
  if (isNumeric(field) && /^\d+$/.test(raw)) return Number(raw);
  return raw;
}

interface ListState {
  filters: Filters;
  page: number;
  limit: number;
}

function readState(def: ResourceDef, search: string, pageSize: number): ListState {
  const params = new URLSearchParams(search);
  const filters: Filters = {};
  for (const [key, field] of Object.entries(def.fields)) {
    const raw = params.get(key);
    if (raw === null || !(field.in ?? []).includes('filter')) continue;
    const value = decodeFilter(field, raw);
    if (value !== undefined) filters[key] = value;
  }
  const page = Number(params.get('page')) || LIMITS.firstPage;
  const limit = Number(params.get('limit')) || pageSize;
  return { filters, page, limit };
}

function writeState(def: ResourceDef, search: string, state: ListState, pageSize: number): string {
  const params = new URLSearchParams(search);
  for (const key of Object.keys(def.fields)) params.delete(key);
  params.delete('page');
  params.delete('limit');
  for (const [key, value] of Object.entries(state.filters)) {
    const text = encodeFilter(value, def.fields[key]);
    if (text !== undefined) params.set(key, text);
  }
  if (state.page !== LIMITS.firstPage) params.set('page', String(state.page));
  if (state.limit !== pageSize) params.set('limit', String(state.limit));
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * The list of a resource (docs/product.md#paging: 10 a page, first page 1), its filters kept in the address so
 * a filtered list can be linked, and Back (or its tab) brings it back as it was. Built on the
 * same query as useList, cached under the resource (['res', name, 'list', …]).
 */
export function useResourceList<Row>(resource: AnyResource<Row>, options: ResourceListOptions = {}): ResourceList<Row> {
  const { def } = resource;
  const syncUrl = options.syncUrl ?? true;
  const pageSize = options.pageSize ?? LIMITS.pageSize;
  const location = useLocation();
  const navigate = useNavigate();
  // a kept-alive page stays mounted while another tab shows: it reads only its own address
  const own = useRef(options.path ?? location.pathname);
  const lastSearch = useRef(location.search);
  if (location.pathname === own.current) lastSearch.current = location.search;
  const [local, setLocal] = useState<ListState>(() => readState(def, syncUrl ? location.search : '', pageSize));
  const search = lastSearch.current;
  const urlState = useMemo(() => readState(def, search, pageSize), [def, search, pageSize]);
  const state = syncUrl ? urlState : local;

  const update = useCallback(
    (next: ListState) => {
      if (!syncUrl) return setLocal(next);
      // the address as it is now while the page is on it: a navigation is drawn in a transition, so the
      // last render's may be a change behind (a chip clicked, then a filter at once)
      const now = window.location.pathname === own.current ? window.location.search : lastSearch.current;
      void navigate({ pathname: own.current, search: writeState(def, now, next, pageSize) }, { replace: true });
    },
    [def, navigate, syncUrl, pageSize],
  );

  const permanent = options.permanent;
  const payload = useMemo(() => ({ ...state.filters, ...permanent }), [state.filters, permanent]);
  const query = useListQuery(
    def.methods.list as ListMethod,
    { filters: payload as never, page: state.page, limit: state.limit },
    { queryKey: [...resourceKey(def.name), 'list', def.methods.list] },
  );
  const { reload } = query;
  // the same filters on page 1 leave the address as it is: they ask again, as 搜索 pressed twice does
  const setFilters = useCallback(
    (filters: Filters) => {
      const next = { filters, page: LIMITS.firstPage, limit: state.limit };
      const same = syncUrl
        ? writeState(def, lastSearch.current, next, pageSize) === writeState(def, lastSearch.current, state, pageSize)
        : hashKey([next]) === hashKey([state]);
      if (same) reload();
      else update(next);
    },
    [update, reload, def, syncUrl, pageSize, state],
  );
  const setPage = useCallback(
    (page: number, limit?: number) => update({ filters: state.filters, page, limit: limit ?? state.limit }),
    [update, state.filters, state.limit],
  );
  return {
    items: query.items as Row[],
    total: query.total,
    answer: query.answer,
    loading: query.loading,
    page: state.page,
    limit: state.limit,
    filters: state.filters,
    payload,
    setFilters,
    setPage,
    reload,
  };
}
