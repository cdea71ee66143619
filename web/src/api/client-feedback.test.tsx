import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '@wuye/contract/messages';
import { ApiError, call, transportMessage } from './client';
import { setFeedback, type Feedback } from './feedback';
import { getToken, setToken } from '../utils/auth';

/** The open dialogs' close handlers: each test ends with the dialogs it opened closed. */
const openDialogs: Array<() => void> = [];

/** What the user was shown: the toasts (by key, as antd keeps one per key) and the dialogs. */
function watchFeedback() {
  const toasts = new Map<string, string>();
  const dialogs: string[] = [];
  const fake = {
    message: {
      error: ({ content, key }: { content: string; key?: string }) => toasts.set(key ?? `${toasts.size}`, content),
    },
    modal: {
      confirm: ({ title, afterClose }: { title: string; afterClose?: () => void }) => {
        dialogs.push(title);
        if (afterClose) openDialogs.push(afterClose);
        return { destroy: () => undefined };
      },
    },
    notification: { success: () => undefined },
  } as unknown as Feedback;
  setFeedback(fake);
  return { toasts: () => [...toasts.values()], dialogs };
}

const answer = (body: string, status = 200) => Promise.resolve(new Response(body, { status }));

describe('what a failed call says (docs/product.md#errors)', () => {
  beforeEach(() => vi.stubGlobal('fetch', vi.fn()));
  afterEach(() => {
    for (const close of openDialogs.splice(0)) close();
    vi.unstubAllGlobals();
    setFeedback(null);
  });

  it('a network failure in Chinese, not the browser\'s "Failed to fetch"', async () => {
    const shown = watchFeedback();
    vi.mocked(fetch).mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(call('get_system_info')).rejects.toMatchObject({ code: 'NETWORK', message: MSG.networkFailed });
    expect(shown.toasts()).toEqual(['网络连接失败，请检查网络后重试']);
  });

  it('an HTTP failure with its status in Chinese, not "Request failed with status code 500"', async () => {
    const shown = watchFeedback();
    vi.mocked(fetch).mockImplementation(() => answer('<html>Bad Gateway</html>', 502));
    await expect(call('get_system_info')).rejects.toBeInstanceOf(ApiError);
    expect(shown.toasts()).toEqual(['服务器出错（502），请稍后再试']);
    expect(transportMessage({ status: 500 })).toBe('服务器出错（500），请稍后再试');
    expect(transportMessage({ status: 404 })).toBe('请求失败（404），请稍后再试');
    expect(transportMessage({ error: new DOMException('timeout of 600000ms exceeded', 'TimeoutError') })).toBe('请求超时，请稍后再试');
  });

  it('the same failure of several calls at once is one toast', async () => {
    const shown = watchFeedback();
    vi.mocked(fetch).mockImplementation(() =>
      answer(JSON.stringify({ return_code: 'FAIL', return_msg: '系统繁忙，请稍后再试', data: null })),
    );
    await Promise.allSettled([call('get_system_info'), call('get_system_info'), call('get_system_info')]);
    expect(shown.toasts()).toEqual(['系统繁忙，请稍后再试']);
  });

  it('a session turned away (50008) gives the 确定登出 dialog alone, once for four calls', async () => {
    const shown = watchFeedback();
    vi.mocked(fetch).mockImplementation(() => answer(JSON.stringify({ return_code: '50008', return_msg: '非法的令牌', data: null })));
    const results = await Promise.allSettled([
      call('get_system_info'),
      call('backlog_list', { page: 1, limit: 1, status: 'E' }),
      call('get_system_info'),
      call('get_system_info'),
    ]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).shown)).toBe(true);
    expect(shown.dialogs).toEqual(['确定登出']);
    expect(shown.toasts()).toEqual([]);
  });

  it('a session the browser has left since the call went out (an account switch) turns nobody away', async () => {
    const shown = watchFeedback();
    const before = getToken();
    setToken('old-session');
    let respond = (_: Response) => undefined as void;
    vi.mocked(fetch).mockImplementation(() => new Promise<Response>((r) => (respond = r)));
    const pending = call('backlog_list', { page: 1, limit: 1, status: 'E' });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    // the switch: the old session is logged out and the new one's token kept, then the old call answers
    setToken('new-session');
    respond(new Response(JSON.stringify({ return_code: '50008', return_msg: '非法的令牌', data: null })));
    await expect(pending).rejects.toMatchObject({ code: '50008', shown: true });
    expect(shown.dialogs).toEqual([]);
    expect(shown.toasts()).toEqual([]);
    setToken(before);
  });
});
