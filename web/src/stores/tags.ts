import { create } from 'zustand';
import { readJson, writeJson } from './storage';

/** A visited-page tab (docs/product.md#client-state: path, name, title). */
export interface TagView {
  path: string;
  fullPath: string;
  /** i18n key or literal title */
  title: string;
  affix?: boolean;
  /** kept alive while its tab is open (meta.keepAlive and not meta.noCache) */
  cache?: boolean;
}

export const TAGS_KEY = 'tagsView';

/* ---- pure list operations of docs/product.md#visited-tabs (unit-tested) ---- */

/** Adds by path without duplicates; an existing tab keeps its place and takes the new full path. */
export function addVisited(list: readonly TagView[], view: TagView): TagView[] {
  const i = list.findIndex((v) => v.path === view.path);
  if (i < 0) return [...list, view];
  const old = list[i]!;
  if (old.fullPath === view.fullPath && old.title === view.title && !!old.affix === !!view.affix) return list as TagView[];
  const next = list.slice();
  next[i] = { ...old, fullPath: view.fullPath, title: view.title, affix: old.affix || view.affix };
  return next;
}

/** Removes one tab; affix tabs never close. */
export function delVisited(list: readonly TagView[], path: string): TagView[] {
  return list.filter((v) => v.path !== path || v.affix);
}

/** Keeps the given tab and the affix tabs. */
export function delOthersVisited(list: readonly TagView[], path: string): TagView[] {
  return list.filter((v) => v.affix || v.path === path);
}

/** Keeps only the affix tabs. */
export function delAllVisited(list: readonly TagView[]): TagView[] {
  return list.filter((v) => v.affix);
}

/** The cached list: paths of open tabs whose page is kept alive (noCache pages are skipped). */
export function cachedOf(list: readonly TagView[]): string[] {
  return list.filter((v) => v.cache).map((v) => v.path);
}

/** Where to go after closing `closed`: the last remaining tab, else the dashboard. */
export function nextAfterClose(list: readonly TagView[]): string {
  const last = list[list.length - 1];
  return last ? last.fullPath : '/';
}

interface TagsState {
  visitedViews: TagView[];
  /** paths whose page must be remounted (refresh) even though the tab stays */
  evicted: string[];
  addView: (view: TagView) => void;
  initAffix: (views: TagView[]) => void;
  delView: (path: string) => void;
  delOthersViews: (path: string) => void;
  /** `withAffix` (logout) clears the affix tabs too */
  delAllViews: (withAffix?: boolean) => void;
  /** drops the kept-alive page of a tab so the next visit remounts it (refresh) */
  evict: (path: string) => void;
  unevict: (path: string) => void;
}

function persist(visitedViews: TagView[]): { visitedViews: TagView[] } {
  writeJson('session', TAGS_KEY, visitedViews.length ? visitedViews : null);
  return { visitedViews };
}

export const useTags = create<TagsState>()((set, get) => ({
  visitedViews: readJson<TagView[]>('session', TAGS_KEY, []),
  evicted: [],
  addView: (view) => {
    const next = addVisited(get().visitedViews, view);
    if (next !== get().visitedViews) set(persist(next));
  },
  initAffix: (views) => {
    let list = get().visitedViews;
    // affix tabs go first, in route order
    const affixPaths = new Set(views.map((v) => v.path));
    list = [...views.map((v) => ({ ...v, affix: true })), ...list.filter((v) => !affixPaths.has(v.path))];
    set(persist(list));
  },
  delView: (path) => set(persist(delVisited(get().visitedViews, path))),
  delOthersViews: (path) => set(persist(delOthersVisited(get().visitedViews, path))),
  delAllViews: (withAffix = false) => set(persist(withAffix ? [] : delAllVisited(get().visitedViews))),
  evict: (path) => set({ evicted: [...get().evicted.filter((p) => p !== path), path] }),
  unevict: (path) => {
    if (get().evicted.includes(path)) set({ evicted: get().evicted.filter((p) => p !== path) });
  },
}));
