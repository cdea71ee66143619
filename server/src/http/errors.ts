import { RC } from '@wuye/contract';

/** A refusal with a message for the user; the dispatcher answers it and rolls back. */
export class BizError extends Error {
  /**
   * @param commitWork true when what the handler wrote so far must still be committed
   *   (e.g. a failed sign-in attempt is counted even though the sign-in is refused)
   */
  constructor(
    message: string,
    readonly code: string = RC.FAIL,
    readonly commitWork = false,
  ) {
    super(message);
    this.name = 'BizError';
  }
}

/**
 * Refuses the request with a message for the user. A function declaration (not an arrow in a const) so TypeScript
 * narrows after a guard: `if (!row) fail('…不存在');` leaves `row` non-null below, with no `row!`.
 */
export function fail(message: string): never {
  throw new BizError(message);
}

export const MESSAGES = {
  noToken: '未登录或登录已失效，请重新登录',
  otherClient: '您的账号已在别处登录或密码已修改，请重新登录',
  tokenExpired: '登录已过期，请重新登录',
  noPermission: '没有权限执行此操作',
  wrongSide: '当前账号不能使用该端的接口',
  authEnd: '小区服务已到期，请续费后继续使用',
  noRegion: '请先选择小区',
  internal: '系统繁忙，请稍后再试',
  tooLarge: '请求内容过大',
  tooDeep: '请求格式错误：JSON 嵌套层级过深',
  tooMany: '请求过于频繁，请稍后再试',
  revoked: '该登录已被结束，请重新登录',
  disabled: '账号已停用，请联系管理员',
  changePasswordFirst: '请先修改管理员设置的临时密码',
  passwordExpired: '密码已过期，请先修改密码',
  boardOnly: '看板会话只能查看看板',
  chargeOnly: '扫码充电的会话只能用于手机充电',
  methodMismatch: '请求头 X-Method 与正文中的 method 不一致',
  controlChars: '不能包含控制字符（如 NUL）',
  badContentType: '请求格式错误：请使用 application/json',
} as const;
