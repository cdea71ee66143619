/** Wire answer codes (docs/product.md#errors, docs/architecture.md#the-wire-format). */
export const RC = {
  SUCCESS: 'SUCCESS',
  FAIL: 'FAIL',
  AUTH_END: 'AUTH_END',
  NO_PERMISSION: 'NO_PERMISSION',
  /** missing or unknown token */
  ILLEGAL_TOKEN: '50008',
  /** session ended by a sign-in elsewhere or a password change */
  OTHER_CLIENT: '50012',
  /** token expired */
  TOKEN_EXPIRED: '50014',
} as const;
export type ReturnCode = (typeof RC)[keyof typeof RC];

/** Codes after which the client offers to sign in again (docs/product.md#relogin). */
export const RELOGIN_CODES: readonly string[] = [RC.ILLEGAL_TOKEN, RC.OTHER_CLIENT, RC.TOKEN_EXPIRED];

export interface Answer<T = unknown> {
  return_code: ReturnCode | string;
  return_msg: string;
  data: T;
}

export interface ListAnswer<T> {
  items: T[];
  total: number;
}

/** Yes/No flags as the product writes them. */
export type YN = 'Y' | 'N';

/** Constants (docs/product.md#constants). */
export const LIMITS = {
  requestTimeoutMs: 600000,
  errorToastMs: 5000,
  successNoticeMs: 2000,
  pageSize: 10,
  firstPage: 1,
  mobileBreakpointPx: 992,
  sidebarWidthPx: 160,
  tagsMenuWidthPx: 105,
  passwordMin: 6,
  passwordMax: 18,
  ownerSearchMax: 11,
  /** houses the owner search answers at most; more matches ask for a longer keyword */
  ownerSearchResults: 50,
  expiryWarnDays: 30,
  payPollMs: 1000,
  preventDoubleClickMs: 3000,
  ioTypeBalanceConsume: 2,
} as const;
