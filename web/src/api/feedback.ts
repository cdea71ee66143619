import type { App } from 'antd';
import { MSG } from '@wuye/contract/messages';

/**
 * The antd feedback APIs bound to the app's ConfigProvider (theme, locale), registered once
 * by <FeedbackBridge/> so code outside React (the RPC client, stores) can show toasts.
 */
export type Feedback = ReturnType<typeof App.useApp>;

let current: Feedback | null = null;
/** error toasts asked for before the app has rendered (a session's first call starts earlier) */
const waiting: string[] = [];

export function setFeedback(f: Feedback | null): void {
  current = f;
  if (f) for (const text of waiting.splice(0)) toastError(text);
}

export function feedback(): Feedback | null {
  return current;
}

/** Error toast (docs/product.md#errors): 5 seconds; the same text already shown is not shown twice. */
export function toastError(text: string): void {
  if (current) void current.message.error({ content: text, duration: 5, key: `error:${text}` });
  else if (!waiting.includes(text)) waiting.push(text);
}

/** Success notice (docs/product.md#success-notice): title 成功, 2 seconds. */
export function noticeSuccess(text: string, title: string = MSG.successTitle): void {
  if (current) current.notification.success({ title, description: text, duration: 2 });
}
