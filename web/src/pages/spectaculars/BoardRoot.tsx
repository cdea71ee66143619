import { useEffect, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError, call } from '../../api/client';
import type { Side } from '../../utils/auth';
import Spectaculars from './Spectaculars';
import './spectaculars.css';

/** The board window's read-only session, kept in this window's session storage only (never a cookie). */
const BOARD_KEY = 'boardSession';

export interface BoardSession {
  token: string;
  side: Side;
}

function readSession(): BoardSession | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(BOARD_KEY) ?? 'null') as BoardSession | null;
    return v && typeof v.token === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** One exchange per code, also when React runs the effect twice. */
const exchanges = new Map<string, Promise<BoardSession>>();
function exchange(code: string): Promise<BoardSession> {
  let p = exchanges.get(code);
  if (!p) {
    p = call('boardlogin', { code }, { silent: true, noRelogin: true, endpoint: '/webapi', token: '' }).then((d) => ({
      token: d.token,
      side: d.side,
    }));
    exchanges.set(code, p);
  }
  return p;
}

const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

/**
 * The management board window (spec 2.3). The console opens it with a one-time code (boardcode),
 * never with its session token: the code leaves the address at once and is traded for a read-only
 * board session of this window, which may only read the board's figures and which the account can
 * end from 登录设备. A reload keeps the board session; a new window needs a new code.
 */
export default function BoardRoot() {
  const [session, setSession] = useState<BoardSession | null>(readSession);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    const code = new URLSearchParams(window.location.search).get('code');
    if (!code) {
      if (!readSession()) setProblem('看板链接无效或已过期，请从控制台重新打开');
      return;
    }
    // out of the address bar and the history before anything else
    window.history.replaceState(null, '', '/spectaculars');
    exchange(code).then(
      (s) => {
        sessionStorage.setItem(BOARD_KEY, JSON.stringify(s));
        setSession(s);
      },
      (err: unknown) => {
        // an old board session of this window may still be good
        if (!readSession()) setProblem(err instanceof ApiError ? err.message : '看板打开失败，请从控制台重新打开');
      },
    );
  }, []);
  const ended = () => {
    sessionStorage.removeItem(BOARD_KEY);
    setSession(null);
    setProblem('看板会话已结束，请从控制台重新打开');
  };
  if (!session) {
    return (
      <div className="board-window" data-testid="spectaculars-closed">
        <div className="board-empty board-closed">{problem || '正在打开看板…'}</div>
      </div>
    );
  }
  return (
    <QueryClientProvider client={client}>
      <Spectaculars session={session} onEnded={ended} />
    </QueryClientProvider>
  );
}
