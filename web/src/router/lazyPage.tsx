import { use, useCallback, type ComponentType, type FunctionComponent } from 'react';
import { useRoutesInfo } from './context';
import { findFlat } from './helpers';

/** A page loaded on first use, which a menu can also ask to load ahead (`preload`). */
export type LazyPage = FunctionComponent & { preload(): Promise<unknown> };

/**
 * Like React.lazy, but a page whose module has loaded renders at once. React.lazy suspends on
 * its first render however fast its chunk came, and React 19 keeps a fallback it has shown for at
 * least 300 ms, so every first visit of a page showed the spinner for 300–400 ms though its chunk
 * took 35–100 ms. The menus preload a page as the pointer reaches its entry; by the click the
 * module is there and the page draws in the same render, with no spinner.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<unknown> | undefined;
  const preload = () => {
    loading ??= load().then(
      (m) => {
        loaded = m.default;
      },
      // a failed load (a new build's chunk names, the network) may be tried again
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };
  function Page() {
    if (!loaded) use(preload());
    const Loaded = loaded!;
    return <Loaded />;
  }
  return Object.assign(Page, { preload });
}

/** Starts loading a route's page if it is a lazy page (anything else is there already). */
export function preloadComponent(component: ComponentType | undefined): void {
  const preload = (component as Partial<LazyPage> | undefined)?.preload;
  if (preload) preload().catch(() => undefined); // the click's own render reports a failed load
}

/** Preloads the page a menu entry leads to: (path) => void, for its pointer-enter. */
export function usePreloadPath(): (path: string | undefined) => void {
  const { flat } = useRoutesInfo();
  return useCallback(
    (path) => {
      if (path) preloadComponent(findFlat(flat, path)?.route.component);
    },
    [flat],
  );
}
