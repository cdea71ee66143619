import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RELOGIN_CODES } from '@wuye/contract/codes';
import { ApiError, call, type CallOptions } from '../../api/client';
import { endpointFor } from '../../utils/auth';
import type { BoardSession } from './BoardRoot';
import { formatTime } from '@wuye/contract/dates';
import { BACKLOG_KIND } from '@wuye/contract/system';
import EnumTag from '../../components/resource/EnumTag';
import { daysLeftOf } from '../../stores/system';

function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <span className="board-clock">{formatTime(now, '{y}-{m}-{d} 星期{a} {h}:{i}:{s}')}</span>;
}

/**
 * Management board (docs/product.md#shell-top-bar): a full-screen page in a window of its own, on the read-only board
 * session BoardRoot traded its one-time code for. Shows the community's figures and refreshes
 * every minute; when the board session ends (expired, or ended from 登录设备) it says so.
 */
export default function Spectaculars({ session, onEnded }: { session: BoardSession; onEnded: () => void }) {
  const refetchInterval = 60_000;
  const opts: CallOptions = { silent: true, noRelogin: true, token: session.token, endpoint: endpointFor(session.side) };
  const watch = <T,>(p: Promise<T>) =>
    p.catch((err: unknown) => {
      if (err instanceof ApiError && RELOGIN_CODES.includes(err.code)) onEnded();
      throw err;
    });
  const system = useQuery({ queryKey: ['board', 'system'], queryFn: () => watch(call('get_system_info', {}, opts)), refetchInterval });
  const community = session.side === 'community';
  const pending = useQuery({
    queryKey: ['board', 'pending'],
    queryFn: () => watch(call('backlog_list', { page: 1, limit: 8, status: 'E', sort: 'desc' }, opts)),
    refetchInterval,
    enabled: community,
  });
  const done = useQuery({
    queryKey: ['board', 'done'],
    queryFn: () => watch(call('backlog_list', { page: 1, limit: 1, status: 'Y' }, opts)),
    refetchInterval,
    enabled: community,
  });
  const info = system.data?.items ?? null;
  const days = daysLeftOf(info);
  const figures = [
    { label: '剩余服务天数', value: days ?? '-', unit: '天', warn: days !== null && days < 30 },
    { label: '服务到期日', value: info?.end_time?.slice(0, 10) || '-', unit: '' },
    { label: '待处理事项', value: pending.data?.total ?? '-', unit: '项', warn: (pending.data?.total ?? 0) > 0 },
    { label: '已处理事项', value: done.data?.total ?? '-', unit: '项' },
  ];
  return (
    <div className="board" data-testid="spectaculars">
      <header className="board-header">
        <h1>{info?.region_title || info?.sub_title || '物业管理'} · 管理看板</h1>
        <Clock />
      </header>
      <section className="board-figures">
        {figures.map((f) => (
          <div key={f.label} className={`board-figure${f.warn ? ' warn' : ''}`}>
            <div className="board-figure-label">{f.label}</div>
            <div className="board-figure-value">
              {f.value}
              {f.unit && <small>{f.unit}</small>}
            </div>
          </div>
        ))}
      </section>
      <section className="board-panel">
        <h2>最新待办</h2>
        {(pending.data?.items ?? []).length === 0 ? (
          <div className="board-empty">暂无待办事项</div>
        ) : (
          <table className="board-table">
            <thead>
              <tr>
                <th>标题</th>
                <th>类型</th>
                <th>时间</th>
              </tr>
            </thead>
            <tbody>
              {(pending.data?.items ?? []).map((b) => (
                <tr key={b.id}>
                  <td>{b.title}</td>
                  <td>
                    <EnumTag enum={BACKLOG_KIND} value={b.kind} />
                  </td>
                  <td>{b.create_time}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <footer className="board-footer">{info?.copyright}</footer>
    </div>
  );
}
