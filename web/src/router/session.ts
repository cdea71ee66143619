import { call } from '../api/client';
import { useSystem } from '../stores/system';
import { useUser } from '../stores/user';

let userLoad: Promise<void> | null = null;
/** one userinfo call at a time (StrictMode runs effects twice in development) */
export function loadUserOnce(): Promise<void> {
  userLoad ??= useUser
    .getState()
    .loadUser()
    .finally(() => {
      userLoad = null;
    });
  return userLoad;
}

let earlyUserLoad: Promise<void> | null = null;
/**
 * Starts the user info call before the first render (main.tsx, a session cookie is there): the
 * guard's UserLoader then takes this call instead of starting its own once it has mounted.
 */
export function startUserLoad(): void {
  earlyUserLoad = loadUserOnce();
  earlyUserLoad.then(
    () => void loadSystemInfo(),
    () => undefined,
  );
}
/** The call startUserLoad began (once), or a new one. */
export function takeUserLoad(): Promise<void> {
  const p = earlyUserLoad ?? loadUserOnce();
  earlyUserLoad = null;
  return p;
}

let systemLoad: Promise<void> | null = null;
/** loads the system info when empty; failures are swallowed (docs/product.md#list-failures) */
export function loadSystemInfo(force = false): Promise<void> {
  if (!force && useSystem.getState().info) return Promise.resolve();
  systemLoad ??= call('get_system_info')
    .then((data) => useSystem.getState().setInfo(data.items))
    .catch(() => undefined)
    .finally(() => {
      systemLoad = null;
    });
  return systemLoad;
}
