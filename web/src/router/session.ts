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
let systemLoads = 0;
/**
 * Loads the system info when empty (docs/product.md#navigation-guard), or again when `force`d (after
 * the community's details were saved, once a page load); failures are swallowed
 * (docs/product.md#list-failures). Only the latest call's answer is kept: one started before a save
 * never overwrites the info read after it.
 */
export function loadSystemInfo(force = false): Promise<void> {
  if (!force && useSystem.getState().info) return Promise.resolve();
  if (!force && systemLoad) return systemLoad;
  const n = ++systemLoads;
  const load: Promise<void> = call('get_system_info')
    .then((data) => {
      if (n === systemLoads) useSystem.getState().setInfo(data.items);
    })
    .catch(() => undefined)
    .finally(() => {
      if (systemLoad === load) systemLoad = null;
    });
  systemLoad = load;
  return load;
}
