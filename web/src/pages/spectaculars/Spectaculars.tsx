import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RELOGIN_CODES } from '@wuye/contract/codes';
import { BOARD_REFRESH_SECONDS, type BoardGroup } from '@wuye/contract/board/board';
import type { MethodName, MethodOutput } from '@wuye/contract';
import { ApiError, call, type CallOptions } from '../../api/client';
import { endpointFor } from '../../utils/auth';
import type { BoardSession } from './BoardRoot';
import { formatTime, formatWireTime } from '@wuye/contract/dates';
import { BACKLOG_KIND } from '@wuye/contract/system';
import EnumTag from '../../components/resource/EnumTag';
import { daysLeftOf } from '../../stores/system';

/** The board's design size: it is drawn at this size and scaled to the window as a whole. */
const DESIGN = { width: 1920, height: 1080 };

function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <span className="board-clock">{formatTime(now, '{y}-{m}-{d} 星期{a} {h}:{i}:{s}')}</span>;
}

/** The scale that fits the design into the window, whole and centred (no stretching, no scroll). */
function useFit() {
  const measure = () => Math.min(window.innerWidth / DESIGN.width, window.innerHeight / DESIGN.height);
  const [scale, setScale] = useState(measure);
  useLayoutEffect(() => {
    const onResize = () => setScale(measure());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return scale;
}

type Read = <M extends MethodName>(method: M, payload?: Record<string, unknown>) => Promise<MethodOutput<M>>;

/** A widget's figures, read again on its own interval. */
function useWidget<M extends MethodName>(read: Read, method: M, seconds: number, enabled = true) {
  return useQuery({ queryKey: ['board', method], queryFn: () => read(method), refetchInterval: seconds * 1000, enabled });
}

function Widget({
  title,
  asOf,
  failed,
  children,
  className,
  testId,
}: {
  title: string;
  asOf?: string | undefined;
  failed?: boolean;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <section className={`board-panel ${className ?? ''}`} data-testid={testId}>
      <h2>
        {title}
        <span className="board-as-of">{failed ? '读取失败，稍后重试' : asOf ? `数据时间 ${asOf.slice(11)}` : '读取中…'}</span>
      </h2>
      {children}
    </section>
  );
}

function Figure({ label, value, unit, warn }: { label: string; value: ReactNode; unit?: string; warn?: boolean }) {
  return (
    <div className={`board-figure${warn ? ' warn' : ''}`}>
      <div className="board-figure-label">{label}</div>
      <div className="board-figure-value">
        {value}
        {unit && <small>{unit}</small>}
      </div>
    </div>
  );
}

const dash = (v: number | string | undefined | null) => (v === undefined || v === null || v === '' ? '-' : v);

/** The group's receivable and received per month, as pairs of bars. */
function Trend({ trend }: { trend: BoardGroup['trend'] }) {
  const max = Math.max(1, ...trend.map((t) => Number(t.receivable)));
  const h = 220;
  const slot = 760 / Math.max(1, trend.length);
  return (
    <svg className="board-trend" viewBox={`0 0 800 ${h + 40}`} role="img" aria-label="近月应收与实收">
      {trend.map((t, i) => {
        const x = 30 + i * slot;
        const rec = (Number(t.receivable) / max) * h;
        const got = (Number(t.received) / max) * h;
        return (
          <g key={t.month}>
            <rect x={x} y={h - rec} width={slot * 0.32} height={rec} className="bar-receivable" />
            <rect x={x + slot * 0.36} y={h - got} width={slot * 0.32} height={got} className="bar-received" />
            <text x={x + slot * 0.34} y={h + 24} textAnchor="middle">
              {t.month.slice(5)}月 {t.rate}%
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/**
 * Management board (docs/product.md#management-board): a 1920×1080 page scaled to its window, on
 * the read-only board session BoardRoot traded its one-time code for. Each widget reads its own
 * figures on its own interval and says when they are from; when the board session ends (expired, or
 * ended from 登录设备) the page says so.
 */
export default function Spectaculars({ session, onEnded }: { session: BoardSession; onEnded: () => void }) {
  const scale = useFit();
  const opts: CallOptions = { silent: true, noRelogin: true, token: session.token, endpoint: endpointFor(session.side) };
  const read: Read = (method, payload = {}) =>
    call(method, payload as never, opts).catch((err: unknown) => {
      if (err instanceof ApiError && RELOGIN_CODES.includes(err.code)) onEnded();
      throw err;
    });
  const community = session.side === 'community';
  const system = useQuery({ queryKey: ['board', 'system'], queryFn: () => read('get_system_info'), refetchInterval: 300_000 });
  const pending = useQuery({
    queryKey: ['board', 'pending'],
    queryFn: () => read('backlog_list', { page: 1, limit: 6, status: 'E', sort: 'desc' }),
    refetchInterval: 60_000,
    enabled: community,
  });
  const assets = useWidget(read, 'boardassets', BOARD_REFRESH_SECONDS.assets, community);
  const money = useWidget(read, 'boardmoney', BOARD_REFRESH_SECONDS.money, community);
  const orders = useWidget(read, 'boardorders', BOARD_REFRESH_SECONDS.orders, community);
  const alerts = useWidget(read, 'boardalerts', BOARD_REFRESH_SECONDS.alerts, community);
  const patrols = useWidget(read, 'boardpatrols', BOARD_REFRESH_SECONDS.patrols, community);
  const feed = useWidget(read, 'boardfeed', BOARD_REFRESH_SECONDS.feed, community);
  const group = useWidget(read, 'boardgroup', BOARD_REFRESH_SECONDS.group, !community);
  const info = system.data?.items ?? null;
  const days = daysLeftOf(info);
  const a = assets.data;
  const m = money.data;
  const o = orders.data;
  const g = group.data;
  const p = patrols.data;

  return (
    <div className="board-window">
      <div
        className="board"
        data-testid="spectaculars"
        style={{
          width: DESIGN.width,
          height: DESIGN.height,
          transform: `translate(-50%, -50%) scale(${scale})`,
        }}
      >
        <header className="board-header">
          <span className="board-days">
            {community && (
              <>
                剩余服务天数 <b className={days !== null && days < 30 ? 'warn' : ''}>{dash(days)}</b> 天
              </>
            )}
          </span>
          <h1>{info?.region_title || info?.sub_title || '物业管理'} · 管理看板</h1>
          <Clock />
        </header>
        {community ? (
          <main className="board-grid">
            <div className="board-col">
              <Widget title="资产概况" asOf={a?.as_of} failed={assets.isError} testId="board-assets">
                <div className="board-figures two">
                  <Figure label="楼栋" value={dash(a?.buildings)} unit="栋" />
                  <Figure label="房屋" value={dash(a?.rooms)} unit="户" />
                  <Figure label="入住率" value={dash(a?.occupancy)} unit="%" />
                  <Figure label="空置" value={dash(a?.vacant)} unit="户" />
                  <Figure label="车位（已售/租）" value={a ? `${a.spaces_taken}/${a.spaces}` : '-'} />
                  <Figure
                    label="设备在线"
                    value={a ? `${a.devices_online}/${a.devices}` : '-'}
                    warn={!!a && a.devices_online < a.devices}
                  />
                </div>
              </Widget>
              <Widget title="今日巡更" asOf={p?.as_of} failed={patrols.isError} testId="board-patrols">
                <div className="board-figures two">
                  <Figure label="巡更任务" value={dash(p?.tasks)} unit="个" />
                  <Figure label="完成率" value={dash(p?.rate)} unit="%" />
                  <Figure label="已巡/应巡点" value={p ? `${p.points_done}/${p.points_due}` : '-'} />
                  <Figure label="未完成任务" value={dash(p?.missed_tasks)} unit="个" warn={!!p && p.missed_tasks > 0} />
                </div>
              </Widget>
            </div>
            <div className="board-col center">
              <Widget title={`本月收费（${m?.month ?? ''}）`} asOf={m?.as_of} failed={money.isError} testId="board-money">
                <div className="board-figures three big">
                  <Figure label="本月应收" value={dash(m?.receivable)} unit="元" />
                  <Figure label="本月实收" value={dash(m?.received)} unit="元" />
                  <Figure label="收费率" value={dash(m?.rate)} unit="%" />
                  <Figure label="今日收款" value={dash(m?.today_amount)} unit="元" />
                  <Figure label="今日笔数" value={dash(m?.today_count)} unit="笔" />
                  <Figure label="当前欠费" value={dash(m?.arrears)} unit="元" warn={!!m && Number(m.arrears) > 0} />
                </div>
              </Widget>
              <Widget
                title="最新待办"
                asOf={pending.data ? formatWireTime(new Date(pending.dataUpdatedAt)) : undefined}
                failed={pending.isError}
              >
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
              </Widget>
            </div>
            <div className="board-col">
              <Widget title="工单" asOf={o?.as_of} failed={orders.isError} testId="board-orders">
                <div className="board-figures three">
                  <Figure label="报修未完成" value={dash(o?.repairs_open)} />
                  <Figure label="报修超时" value={dash(o?.repairs_overdue)} warn={!!o && o.repairs_overdue > 0} />
                  <Figure label="本月完成" value={dash(o?.repairs_finished_month)} />
                  <Figure label="满意度" value={dash(o?.satisfaction)} unit={o?.satisfaction ? '分' : ''} />
                  <Figure label="投诉未完成" value={dash(o?.complaints_open)} />
                  <Figure label="投诉超时" value={dash(o?.complaints_overdue)} warn={!!o && o.complaints_overdue > 0} />
                </div>
              </Widget>
              <Widget title="预警" asOf={alerts.data?.as_of} failed={alerts.isError} testId="board-alerts">
                <ul className="board-alerts">
                  {(alerts.data?.items ?? []).map((x) => (
                    <li key={x.key} className={x.count > 0 ? 'on' : ''}>
                      <span>{x.label}</span>
                      <b>
                        {x.count}
                        {x.amount !== null && <small> · ¥{x.amount}</small>}
                      </b>
                    </li>
                  ))}
                </ul>
              </Widget>
              <Widget title="实时动态" asOf={feed.data?.as_of} failed={feed.isError} className="grow" testId="board-feed">
                {(feed.data?.items ?? []).length === 0 ? (
                  <div className="board-empty">暂无动态</div>
                ) : (
                  <ul className="board-feed">
                    {(feed.data?.items ?? []).map((f) => (
                      <li key={f.key} className={f.kind}>
                        <time>{f.at.slice(5, 16)}</time>
                        <span>{f.text}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </Widget>
            </div>
          </main>
        ) : (
          <main className="board-grid group">
            <div className="board-col center">
              <Widget title={`集团本月收费（${g?.month ?? ''}）`} asOf={g?.as_of} failed={group.isError} testId="board-group">
                <div className="board-figures four big">
                  <Figure label="小区" value={dash(g?.communities)} unit="个" />
                  <Figure label="本月应收" value={dash(g?.receivable)} unit="元" />
                  <Figure label="本月实收" value={dash(g?.received)} unit="元" />
                  <Figure label="收费率" value={dash(g?.rate)} unit="%" />
                </div>
              </Widget>
              <Widget title="近月应收与实收" asOf={g?.as_of} failed={group.isError} className="grow">
                {g && <Trend trend={g.trend} />}
                <div className="board-legend">
                  <i className="bar-receivable" /> 应收 <i className="bar-received" /> 实收
                </div>
              </Widget>
            </div>
            <div className="board-col">
              <Widget title="收费率排行" asOf={g?.as_of} failed={group.isError} className="grow" testId="board-ranking">
                <table className="board-table">
                  <thead>
                    <tr>
                      <th>排名</th>
                      <th>小区</th>
                      <th>应收</th>
                      <th>实收</th>
                      <th>收费率</th>
                    </tr>
                  </thead>
                  <tbody>
                    {(g?.ranking ?? []).slice(0, 12).map((r, i) => (
                      <tr key={r.rid}>
                        <td>{i + 1}</td>
                        <td>{r.title}</td>
                        <td>{r.receivable}</td>
                        <td>{r.received}</td>
                        <td>{r.rate}%</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Widget>
            </div>
          </main>
        )}
        <footer className="board-footer">{info?.copyright}</footer>
      </div>
    </div>
  );
}
