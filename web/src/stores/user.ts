import { create } from 'zustand';
import type { SysUserInfo } from '@wuye/contract/auth';
import { MSG } from '@wuye/contract/messages';
import { call } from '../api/client';
import { getSide, getToken, removeSide, removeToken, setSide, setToken, type Side } from '../utils/auth';
import { useSystem } from './system';
import { useTags } from './tags';
import { useDialogs } from './dialogs';
import { writeText } from './storage';

interface UserState {
  token: string;
  side: Side;
  name: string;
  avatar: string;
  introduction: string;
  roles: string[];
  permissions: string[];
  /** the modules closed in the session's community (docs/product.md#community-modules) */
  modulesOff: string[];
  sysUser: SysUserInfo | null;
  login: (username: string, password: string, rid?: number) => Promise<void>;
  /** userinfo (+ sysuserinfo); rejects with the product's messages when the roles are missing */
  loadUser: () => Promise<void>;
  loadSysUser: () => Promise<void>;
  setPasswordStatus: (status: 'Y' | 'N') => void;
  /** token reset (docs/product.md#session-states): clears token and roles */
  resetToken: () => void;
  /** logout (docs/product.md#session-states): revokes the token, clears token, roles and the tab list */
  logout: () => Promise<void>;
  /** adopts a token handed over in an address (board page, auth redirect) */
  adoptToken: (token: string, side?: Side) => void;
}

const blankUser = {
  name: '',
  avatar: '',
  introduction: '',
  roles: [] as string[],
  permissions: [] as string[],
  modulesOff: [] as string[],
  sysUser: null,
};

export const useUser = create<UserState>()((set, get) => ({
  token: getToken(),
  side: getSide(),
  ...blankUser,
  login: async (username, password, rid) => {
    const data = await call('login', { username: username.trim(), password, ...(rid ? { rid } : {}) }, { endpoint: '/webapi' });
    setToken(data.token);
    setSide(data.side);
    useSystem.getState().setInfo(null);
    set({ token: data.token, side: data.side, ...blankUser });
  },
  loadUser: async () => {
    const data = await call('userinfo', { token: get().token }, { noRelogin: true });
    if (!data) throw new Error(MSG.verificationFailed);
    const { roles, name, avatar, introduction, permissions, modules_off } = data;
    if (!Array.isArray(roles) || roles.length === 0) throw new Error(MSG.rolesMustBeArray);
    set({
      roles,
      name,
      avatar: avatar ?? '',
      introduction: introduction ?? '',
      permissions: Array.isArray(permissions) ? permissions : [],
      modulesOff: Array.isArray(modules_off) ? modules_off : [],
    });
    await get().loadSysUser();
  },
  loadSysUser: async () => {
    try {
      const data = await call('sysuserinfo', {}, { noRelogin: true });
      set({ sysUser: data.items });
    } catch {
      set({ sysUser: null });
    }
  },
  setPasswordStatus: (status) => {
    const u = get().sysUser;
    if (u) set({ sysUser: { ...u, password_status: status } });
  },
  resetToken: () => {
    removeToken();
    removeSide();
    set({ token: '', side: 'community', ...blankUser });
  },
  logout: async () => {
    try {
      await call('logout', {}, { silent: true, noRelogin: true });
    } catch {
      /* the token is dropped on our side anyway */
    }
    get().resetToken();
    useTags.getState().delAllViews(true);
    useSystem.getState().setInfo(null);
    useDialogs.getState().reset();
    writeText('session', 'expiryReminded', null);
    writeText('session', 'weakPasswordPrompted', null);
  },
  adoptToken: (token, side) => {
    setToken(token);
    if (side) setSide(side);
    set({ token, side: side ?? getSide(), ...blankUser });
  },
}));

/** The roles and permission flags a route or element check looks at. */
export function accessKeys(s: Pick<UserState, 'roles' | 'permissions'>): string[] {
  return [...s.roles, ...s.permissions];
}
