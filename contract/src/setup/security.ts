/**
 * The security policy (/setup/setsys, tab 安全): password length and complexity, expiry, lockout
 * after failed sign-ins, and the idle timeout of sessions. The group sets the default; a community
 * sets its own where the group allows it. Enforced by the server (modules/setup/security.ts):
 * password changes, resets and new staff; sign-in; every call of a session.
 */
import { z } from 'zod';
import { int } from '../common.js';
import { valueEnum } from '../kit/resource.js';
import { LIMITS } from '../codes.js';

export const PASSWORD_COMPLEXITY = valueEnum({
  any: { text: '不限' },
  letter_digit: { text: '须含字母和数字' },
  three: { text: '须含大写字母、小写字母、数字、符号中的至少三种' },
});
export type PasswordComplexity = keyof typeof PASSWORD_COMPLEXITY;

export interface SecurityPolicy {
  /** 6 to 18 (spec section 5) */
  min_length: number;
  complexity: PasswordComplexity;
  /** days a password lasts; 0: never expires */
  expire_days: number;
  /** wrong passwords in a row that lock the account; 0: no lockout beyond the growing waits */
  lockout_attempts: number;
  lockout_minutes: number;
  /** minutes without a call that end a session; 0: the server's own limit alone */
  idle_minutes: number;
}

export const DEFAULT_SECURITY: SecurityPolicy = {
  min_length: LIMITS.passwordMin,
  complexity: 'any',
  expire_days: 0,
  // off by default: sign-in already makes wrong passwords wait longer and longer (http/throttle.ts)
  lockout_attempts: 0,
  lockout_minutes: 10,
  idle_minutes: 0,
};

const zeroOr = (min: number, max: number, what: string) =>
  int(0, max).refine((v) => v === 0 || v >= min, { message: `${what}为 0（不启用）或 ${min} 到 ${max}` });

export const securityPolicy = z.object({
  min_length: int(LIMITS.passwordMin, LIMITS.passwordMax),
  complexity: z.enum(['any', 'letter_digit', 'three'], { error: '密码复杂度取值不正确' }),
  expire_days: zeroOr(7, 365, '密码有效期（天）'),
  lockout_attempts: zeroOr(3, 20, '锁定前允许的错误次数'),
  lockout_minutes: int(1, 1440),
  idle_minutes: zeroOr(5, 1440, '空闲超时（分钟）'),
});

/** What the page shows: the group's default, the community's own, the one in force. */
export interface SecurityInfo {
  /** community: the session's community; group: the head office's default */
  side: 'community' | 'group';
  group: SecurityPolicy;
  /** the group lets its communities set their own */
  allow_override: 'Y' | 'N';
  /** the community's own, null when it follows the group (always null on the group side) */
  own: SecurityPolicy | null;
  effective: SecurityPolicy;
}

export const securityMethods = {
  securityinfo: z.object({}),
  /**
   * community side: the community's own policy, or `inherit: 'Y'` to follow the group again;
   * group side: the group's default and whether communities may override it
   */
  setsecurity: z.object({
    policy: securityPolicy.optional(),
    inherit: z.enum(['Y', 'N']).optional(),
    allow_override: z.enum(['Y', 'N']).optional(),
  }),
} satisfies Record<string, z.ZodType>;

export interface SecurityOutputs {
  securityinfo: SecurityInfo;
  setsecurity: SecurityInfo;
}

/** Why a new password breaks the policy, or null when it keeps it. */
export function passwordProblem(policy: SecurityPolicy, password: string): string | null {
  if (password.length < policy.min_length || password.length > LIMITS.passwordMax) {
    return `密码长度为${policy.min_length} - ${LIMITS.passwordMax}个字符`;
  }
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^a-zA-Z\d]/].filter((re) => re.test(password)).length;
  if (policy.complexity === 'letter_digit' && !(/[a-zA-Z]/.test(password) && /\d/.test(password))) return '密码须同时包含字母和数字';
  if (policy.complexity === 'three' && kinds < 3) return '密码须包含大写字母、小写字母、数字、符号中的至少三种';
  return null;
}
