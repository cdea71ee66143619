/**
 * The build links the entry's style sheet (antd's static styles, ~1 MB) as a preload, so it
 * downloads at once without holding back the first paint of the start-up spinner
 * (vite.config.ts, deferEntryCss). Here it is turned into a style sheet, and the console
 * renders once it applies, so no page is ever drawn unstyled. In dev mode Vite injects the
 * styles from the scripts and there is nothing to wait for.
 */
export function applyPreloadedStyles(doc: Document = document): Promise<void> {
  const links = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"]')];
  return Promise.all(links.map(applyOne)).then(() => undefined);
}

function applyOne(link: HTMLLinkElement): Promise<void> {
  return new Promise((resolve) => {
    // a failed sheet must not keep the console from starting: it renders, unstyled
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
    link.rel = 'stylesheet';
  });
}
