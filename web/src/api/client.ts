import type { MethodInput, MethodName, MethodOutput } from '@wuye/contract';
import { LIMITS, RC, RELOGIN_CODES } from '@wuye/contract/codes';
import { MSG } from '@wuye/contract/messages';
import { endpointFor, getSide, getToken, removeSide, removeToken } from '../utils/auth';
import { useDialogs } from '../stores/dialogs';
import { feedback, toastError } from './feedback';

/** The wire answer (docs/product.md#calls): return_code/return_msg/data; a few calls answer result_code/result_msg. */
export interface WireAnswer<T> {
  return_code?: string;
  return_msg?: string;
  result_code?: string;
  result_msg?: string;
  data: T;
}

export interface CallOptions {
  /** no error toast (e.g. pay_query polling); the caller shows the message itself */
  silent?: boolean;
  /** do not offer the 确定登出 confirm on 50008/50012/50014 (the guard sends to login anyway) */
  noRelogin?: boolean;
  /** overrides the endpoint (login always goes to /webapi) */
  endpoint?: string;
  /** a token other than the signed-in console's (the board window's read-only session) */
  token?: string;
  signal?: AbortSignal;
}

// the browser cuts off calls in flight when the page is left or reloaded; that is no failure
let leavingPage = false;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => {
    leavingPage = true;
  });
  window.addEventListener('pagehide', () => {
    leavingPage = true;
  });
  window.addEventListener('pageshow', () => {
    leavingPage = false;
  });
}

/** A rejected call: `code` is the return code ('NETWORK' for transport failures, 'ABORTED' when cut off). */
export class ApiError extends Error {
  readonly code: string;
  /** true when the user has already been told (toast or dialog) */
  readonly shown: boolean;
  constructor(code: string, message: string, shown: boolean) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.shown = shown;
  }
}

let reloginOpen = false;

/**
 * What the user reads when a call got no answer of the console's (docs/product.md#errors): the
 * network down, the time-out, or an HTTP failure of whatever stood between, in Chinese, never the
 * browser's own words ("Failed to fetch").
 */
export function transportMessage(failure: { status: number } | { error: unknown }): string {
  if ('status' in failure) {
    if (failure.status >= 200 && failure.status < 300) return MSG.badAnswer;
    return (failure.status >= 500 ? MSG.serverFailed : MSG.requestFailed).replace('{status}', String(failure.status));
  }
  const error = failure.error;
  if (error instanceof HttpFailure) return transportMessage({ status: error.status });
  if (error && typeof error === 'object' && (error as { name?: unknown }).name === 'TimeoutError') return MSG.requestTimeout;
  return MSG.networkFailed;
}

/** An answer whose body was not the console's JSON (a proxy's error page, an empty body). */
class HttpFailure extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`HTTP ${status}`);
    this.status = status;
  }
}

/** docs/product.md#relogin: the confirm titled 确定登出; confirming resets the token and reloads. */
function offerRelogin(): boolean {
  const fb = feedback();
  if (reloginOpen) return true;
  if (!fb) return false;
  reloginOpen = true;
  void fb.modal.confirm({
    title: MSG.logoutTitle,
    content: MSG.logoutText,
    okText: MSG.relogin,
    cancelText: MSG.cancel,
    type: 'warning',
    onOk: () => {
      removeToken();
      removeSide();
      window.location.reload();
    },
    afterClose: () => {
      reloginOpen = false;
    },
  });
  return true;
}

/**
 * Decides what a wire answer means (docs/product.md#errors). Pure apart from the side effects passed in,
 * so the rules are unit-tested.
 */
export function classifyAnswer(
  answer: WireAnswer<unknown> | null | undefined,
): { ok: true } | { ok: false; kind: 'auth_end' | 'relogin' | 'fail' | 'result'; code: string; message: string } {
  if (!answer || typeof answer !== 'object') return { ok: false, kind: 'fail', code: RC.FAIL, message: 'error' };
  if (answer.return_code === undefined && answer.result_code !== undefined) {
    if (answer.result_code === RC.SUCCESS) return { ok: true };
    return { ok: false, kind: 'result', code: answer.result_code, message: answer.result_msg || 'error' };
  }
  if (answer.return_code === RC.SUCCESS) {
    if (answer.result_code !== undefined && answer.result_code !== RC.SUCCESS) {
      return { ok: false, kind: 'result', code: answer.result_code, message: answer.result_msg || 'error' };
    }
    return { ok: true };
  }
  const code = String(answer.return_code ?? RC.FAIL);
  const message = answer.return_msg || 'error';
  if (code === RC.AUTH_END) return { ok: false, kind: 'auth_end', code, message };
  if (RELOGIN_CODES.includes(code)) return { ok: false, kind: 'relogin', code, message };
  return { ok: false, kind: 'fail', code, message };
}

/**
 * The one RPC client: POST {method, ...payload} with the X-Token header, 600000 ms time-out,
 * and the error handling (docs/product.md#errors). Resolves with the whole answer (return_msg included).
 */
/** The payload may be left out when the method has no required field. */
type RequiredKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];

export type CallArgs<M extends MethodName> = [RequiredKeys<MethodInput<M>>] extends [never]
  ? [payload?: MethodInput<M>, options?: CallOptions]
  : [payload: MethodInput<M>, options?: CallOptions];

/** A successful answer: return_msg is always a string ('' when the server sent none). */
export interface OkAnswer<T> {
  return_code: string;
  return_msg: string;
  data: T;
}

export async function request<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<OkAnswer<MethodOutput<M>>> {
  const payload = args[0];
  const options: CallOptions = args[1] ?? {};
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('timeout of 600000ms exceeded', 'TimeoutError')),
    LIMITS.requestTimeoutMs,
  );
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort);
  // the method also in a header: the server reads it before the body, and lets only an upload's body be large
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Method': method };
  const token = options.token ?? getToken();
  if (token) headers['X-Token'] = token;
  let answer: WireAnswer<MethodOutput<M>>;
  try {
    const res = await fetch(options.endpoint ?? endpointFor(getSide()), {
      method: 'POST',
      headers,
      credentials: 'same-origin',
      body: JSON.stringify({ method, ...(payload ?? {}) }),
      signal: controller.signal,
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!parsed || typeof parsed !== 'object') throw new HttpFailure(res.status);
    answer = parsed as WireAnswer<MethodOutput<M>>;
  } catch (err) {
    if (options.signal?.aborted || leavingPage) throw new ApiError('ABORTED', 'aborted', true);
    const text = transportMessage({ error: err });
    if (!options.silent) toastError(text);
    throw new ApiError('NETWORK', text, !options.silent);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }

  const verdict = classifyAnswer(answer);
  if (verdict.ok) {
    return {
      return_code: answer.return_code ?? answer.result_code ?? RC.SUCCESS,
      return_msg: answer.return_msg ?? answer.result_msg ?? '',
      data: answer.data,
    };
  }
  switch (verdict.kind) {
    case 'auth_end':
      // silently: the renewal dialog opens and cannot be closed
      useDialogs.getState().openRenewal(true);
      throw new ApiError(verdict.code, verdict.message, true);
    case 'relogin':
      // an answer to a session this browser has since left (switched to another account, signed
      // in again) says nothing of the session in use: no dialog, no toast
      if (options.token === undefined && token !== getToken()) throw new ApiError(verdict.code, verdict.message, true);
      // the 确定登出 dialog says it alone: no toast over it, however many calls were turned away
      if (!options.noRelogin && offerRelogin()) throw new ApiError(verdict.code, verdict.message, true);
      if (!options.silent) toastError(verdict.message);
      throw new ApiError(verdict.code, verdict.message, !options.silent);
    default:
      if (!options.silent) toastError(verdict.message);
      throw new ApiError(verdict.code, verdict.message, !options.silent);
  }
}

/** Calls a method and resolves with its `data`. */
export async function call<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<MethodOutput<M>> {
  const answer = await request(method, ...args);
  return answer.data;
}
