import { useEffect, useRef } from 'react';
import { App } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import FullSpin from '../../components/FullSpin';
import { useUser } from '../../stores/user';
import { getSide, getToken, safeRedirect } from '../../utils/auth';

interface HandedOver {
  token: string;
  side: 'community' | 'group';
  username: string;
  name: string;
}

/** One exchange per code, also when React runs the effect twice. */
const exchanges = new Map<string, Promise<HandedOver>>();
function exchange(code: string): Promise<HandedOver> {
  let p = exchanges.get(code);
  if (!p) {
    p = call('authcodelogin', { code }, { noRelogin: true, endpoint: '/webapi', token: '' });
    exchanges.set(code, p);
  }
  return p;
}

/** Ends a session we were handed but do not keep. */
const discard = (s: Pick<HandedOver, 'token' | 'side'>) =>
  call('logout', {}, { silent: true, noRelogin: true, token: s.token, endpoint: s.side === 'group' ? '/webapi_leader' : '/webapi' }).catch(
    () => undefined,
  );

/** The signed-in account of this browser, if its session is still good. */
async function currentUsername(): Promise<string | null> {
  if (!getToken()) return null;
  try {
    return (await call('sysuserinfo', {}, { silent: true, noRelogin: true })).items.username;
  } catch {
    return null;
  }
}

/**
 * Sign-in hand-over (docs/product.md#public-routes): another window or system of the company sends the user here with
 * ?code=<one-time code>&redirect=/path (authcode). The code, never a session token, is traded for a
 * session of its account; a browser already signed in as someone else is asked before it switches
 * (cancelling keeps the current session), and one signed in as the same account keeps its session.
 */
export default function AuthRedirect() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code');
    const target = safeRedirect(params.get('redirect'));
    // the code leaves the address bar and the history at once
    window.history.replaceState(null, '', '/auth-redirect');
    const signedIn = !!getToken();
    if (!code) {
      void navigate(signedIn ? '/' : '/login', { replace: true });
      return;
    }
    void (async () => {
      let handed: HandedOver;
      try {
        handed = await exchange(code);
      } catch {
        // the client showed why (used, expired)
        void navigate(signedIn ? '/' : '/login', { replace: true });
        return;
      }
      const current = await currentUsername();
      const adopt = () => {
        useUser.getState().adoptToken(handed.token, handed.side);
        void navigate(target, { replace: true });
      };
      if (current === null) return adopt();
      // the same account entering another side (a head office entering one of its communities): it moves there
      if (current === handed.username && handed.side !== getSide()) {
        const previous = { token: getToken() ?? '', side: getSide() };
        adopt();
        await discard(previous);
        return;
      }
      if (current === handed.username) {
        await discard(handed);
        void navigate(target, { replace: true });
        return;
      }
      modal.confirm({
        title: '切换账号',
        content: `此浏览器已登录为 ${current}。是否退出当前账号，以 ${handed.name}（${handed.username}）继续？`,
        okText: '切换账号',
        cancelText: '保留当前账号',
        okButtonProps: { 'data-testid': 'auth-redirect-switch' } as Record<string, string>,
        cancelButtonProps: { 'data-testid': 'auth-redirect-keep' } as Record<string, string>,
        onOk: async () => {
          // switch first, then end the old session by its own token: a request of the shell still
          // answered for the old token after its logout then belongs to a token this browser has left
          // and raises no 确定登出 over the new session (docs/product.md#relogin)
          const previous = { token: getToken() ?? '', side: getSide() };
          adopt();
          await discard(previous);
        },
        onCancel: async () => {
          await discard(handed);
          void navigate('/', { replace: true });
        },
      });
    })();
  }, [params, navigate, modal]);
  return <FullSpin />;
}
