import { z } from 'zod';
import { MSG } from './messages.js';
import { LIMITS, type YN } from './codes.js';
import { id } from './common.js';
import type { SysType } from './roles.js';

export const loginInput = z.object({
  username: z.string({ error: MSG.usernameRequired }).trim().min(1, MSG.usernameRequired).max(50),
  password: z.string({ error: MSG.enterPassword }).min(1, MSG.enterPassword).max(100),
  rid: id.optional(),
});

export const newPassword = z
  .string({ error: MSG.enterNewPassword })
  .min(1, MSG.enterNewPassword)
  .min(LIMITS.passwordMin, MSG.passwordLength)
  .max(LIMITS.passwordMax, MSG.passwordLength);

export const editPasswordInput = z
  .object({
    id: id.optional(),
    username: z.string({ error: MSG.usernameRequired }).trim().min(1, MSG.usernameRequired).max(50),
    /** the current password, asked again before the change */
    oldpassword: z.string().max(100).optional(),
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
} as const;

export interface UserInfo {
  name: string;
  roles: string[];
  avatar: string;
  introduction: string;
  /** extra permission flags (updatelog, leader flags) */
  permissions: string[];
}

export interface SysUserInfo {
  username: string;
  name: string;
  sysid: number;
  rid: number;
  sys_type: SysType;
  password_status: YN;
}

export interface AuthOutputs {
  login: { token: string; rid: number | null; side: 'community' | 'group' };
  userinfo: UserInfo;
  logout: null;
  sysuserinfo: { items: SysUserInfo };
  sysusereditpassword: null;
}
