import { z } from 'zod';
import { MSG } from './messages.js';
import { LIMITS, type YN } from './codes.js';
import { id, noControlChars, yn } from './common.js';
import type { SysType } from './roles.js';

const username = noControlChars(z.string({ error: MSG.usernameRequired }).trim().min(1, MSG.usernameRequired).max(50));

export const loginInput = z.object({
  username,
  password: noControlChars(z.string({ error: MSG.enterPassword }).min(1, MSG.enterPassword).max(100)),
  rid: id.optional(),
});

export const newPassword = noControlChars(
  z
    .string({ error: MSG.enterNewPassword })
    .min(1, MSG.enterNewPassword)
    .min(LIMITS.passwordMin, MSG.passwordLength)
    .max(LIMITS.passwordMax, MSG.passwordLength),
);

/** A one-time code of the board or the sign-in hand-over: 64 hex characters. */
const oneTimeCode = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{64}$/, '链接无效或已过期，请从控制台重新打开');

export const editPasswordInput = z
  .object({
    id: id.optional(),
    username,
    /** the current password, asked again before the change (not after an administrator's reset) */
    oldpassword: noControlChars(z.string().max(100)).optional(),
    password: newPassword,
    password2: z.string({ error: MSG.enterConfirm }).min(1, MSG.enterConfirm),
  })
  .refine((v) => v.password === v.password2, { message: MSG.passwordMismatch, path: ['password2'] });

export const authMethods = {
  login: loginInput,
  userinfo: z.object({ token: z.string().max(200).optional() }),
  logout: z.object({}),
  sysuserinfo: z.object({}),
  sysusereditpassword: editPasswordInput,
  boardcode: z.object({}),
  boardlogin: z.object({ code: oneTimeCode }),
  authcode: z.object({}),
  authcodelogin: z.object({ code: oneTimeCode }),
  leaderreturn: z.object({}),
  sessionlist: z.object({}),
  staffresetpassword: z.object({ id }),
  sessiondel: z
    .object({ id: id.optional(), others: yn.optional() })
    .refine((v) => v.id !== undefined || v.others === 'Y', { message: '请选择要结束的会话', path: ['id'] }),
} as const;

export interface UserInfo {
  name: string;
  roles: string[];
  avatar: string;
  introduction: string;
  /** extra permission flags (updatelog, leader flags) */
  permissions: string[];
  /** the modules closed in the session's community: their pages are not drawn (docs/product.md#community-modules) */
  modules_off: string[];
}

export interface SysUserInfo {
  username: string;
  name: string;
  sysid: number;
  rid: number;
  sys_type: SysType;
  password_status: YN;
  /** Y: an administrator reset the password and it has not been changed since; the change may skip the current one */
  password_reset?: YN;
  /** Y: the password outlived the security policy's expiry; it must be changed (with the current one) before anything else */
  password_expired?: YN;
  /** Y: a head office's session in a community it entered (leaderregionenter); 返回集团 takes it back */
  entered?: YN;
}

/** One of the account's open sessions (sessionlist). */
export interface SessionItem {
  id: number;
  /** console: a signed-in console; board: a read-only board window */
  kind: 'console' | 'board';
  side: 'community' | 'group';
  ip: string;
  user_agent: string;
  create_time: string;
  last_seen_time: string;
  expires_time: string;
  /** the session making this call */
  current: boolean;
}

/** A one-time code and the console address that takes it. */
export interface OneTimeCode {
  code: string;
  expires_in: number;
  url: string;
}

export interface AuthOutputs {
  login: { token: string; rid: number | null; side: 'community' | 'group' };
  userinfo: UserInfo;
  logout: null;
  sysuserinfo: { items: SysUserInfo };
  sysusereditpassword: null;
  boardcode: OneTimeCode;
  boardlogin: { token: string; side: 'community' | 'group'; rid: number | null; expires_time: string };
  authcode: OneTimeCode;
  /** back to the group side from a community the head office entered: a hand-over code to the group */
  leaderreturn: OneTimeCode;
  authcodelogin: { token: string; side: 'community' | 'group'; rid: number | null; username: string; name: string };
  sessionlist: { items: SessionItem[] };
  sessiondel: { ended: number };
  /** the temporary password, in this answer only */
  staffresetpassword: { id: number; username: string; password: string };
}
