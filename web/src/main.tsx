import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import Cookies from 'js-cookie';
import App from './App';
import { initI18n } from './i18n';
import { useAppStore } from './stores/app';
import { useUser } from './stores/user';
import { logError } from './stores/errorLog';
import { isFormValidationError } from './utils/forms';
import { preloadSignedIn, STANDALONE, WHITE_LIST } from './router/Root';
import { startUserLoad } from './router/session';
import './styles/global.css';

// docs/product.md#constants: the rid cookie is reset to empty at startup
Cookies.set('rid', '');

initI18n(useAppStore.getState().language);
document.documentElement.lang = useAppStore.getState().language;

// uncaught errors feed the error log in production builds (docs/product.md#errors)
window.addEventListener('error', (e) => logError(e.error ?? e.message, 'window.onerror'));
window.addEventListener('unhandledrejection', (e) => {
  const reason: unknown = e.reason;
  // rejected calls have already been shown to the user
  if (reason && typeof reason === 'object' && (reason as { name?: string }).name === 'ApiError') return;
  // a form's rules refusing its values: the form shows why at its fields (utils/forms.ts validValues)
  if (isFormValidationError(reason)) {
    e.preventDefault();
    return;
  }
  logError(reason, 'unhandledrejection');
});

/**
 * The prebuilt styles of the first screens (vite.config.ts, antdFirstScreenCss): the sign-in
 * page's, and with a session the console's, at the start of <head> where antd puts the styles it
 * generates. Resolves once they have loaded: antd reads which styles are prebuilt at its first
 * render. A sheet that fails to load only means antd generates those styles itself.
 */
function loadAntdStyles(session: boolean): Promise<void> {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="antd-styles"]');
  const hrefs = [meta?.dataset.signIn, session ? meta?.dataset.console : undefined].filter((h): h is string => !!h);
  const loaded: Promise<void>[] = [];
  const links = hrefs.map((href) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    loaded.push(
      new Promise((resolve) => {
        link.onload = link.onerror = () => resolve();
      }),
    );
    return link;
  });
  document.head.prepend(...links);
  return Promise.all(loaded).then(() => undefined);
}

// with a session the console's code, its styles and the user info are fetched at once, not after
// the first render (which computes the design tokens first): see router/Root.tsx. Each step is a
// task of its own rather than the tail of the modules' evaluation, which is already one long task
// on a phone: inserting the preloads and style sheets costs tens of milliseconds there.
const session =
  !!useUser.getState().token && !WHITE_LIST.includes(window.location.pathname) && !STANDALONE.includes(window.location.pathname);
if (session) {
  setTimeout(startUserLoad);
  setTimeout(preloadSignedIn);
}
setTimeout(() => {
  void loadAntdStyles(session).then(() => {
    // a transition render yields to the browser every few milliseconds instead of blocking it for
    // the whole first render
    startTransition(() => {
      createRoot(document.getElementById('root')!).render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  });
});
