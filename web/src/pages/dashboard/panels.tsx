import { Button, Card, Empty, Space, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BACKLOG_KIND } from '@wuye/contract/system';
import { BACKLOG_PENDING_KEY, PENDING_ON_HOME } from '../../api/backlog';
import { call } from '../../api/client';
import EnumTag from '../../components/resource/EnumTag';
import { useRoutesInfo } from '../../router/context';
import { findFlat } from '../../router/helpers';
import { useBacklogGo } from '../setup/useBacklogGo';
import './dashboard.css';

/** The latest pending to-dos, each with 去处理 (the same as on the to-do page). */
export function PendingTodosPanel() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading, refetch } = useQuery({
    queryKey: BACKLOG_PENDING_KEY,
    queryFn: () => call('backlog_list', { page: 1, limit: PENDING_ON_HOME, status: 'E', sort: 'desc' }, { silent: true }),
    refetchInterval: 60_000,
  });
  const { go, detail } = useBacklogGo(() => void refetch());
  const items = data?.items ?? [];
  return (
    <Card
      size="small"
      loading={isLoading}
      title={t('dashboard.pendingTodos')}
      extra={
        <Button type="link" size="small" onClick={() => void navigate('/setup/backlog')}>
          {t('dashboard.all', { n: data?.total ?? 0 })}
        </Button>
      }
      data-testid="panel-todos"
      style={{ height: '100%' }}
    >
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noTodos')} />
      ) : (
        <ul className="dashboard-todos">
          {items.map((b) => (
            <li key={b.id}>
              <EnumTag enum={BACKLOG_KIND} value={b.kind} />
              <span className="dashboard-todo-title" title={b.title}>
                {b.title}
              </span>
              <span className="dashboard-todo-time">{b.create_time.slice(5, 16)}</span>
              <Button type="link" size="small" onClick={() => go(b)} data-testid={`home-todo-go-${b.id}`}>
                去处理
              </Button>
            </li>
          ))}
        </ul>
      )}
      {detail}
    </Card>
  );
}

/** The pages a community's staff open most, those the user may open. */
const SHORTCUTS = [
  '/desktop/cashier',
  '/fees/feebilllist',
  '/fees/payment',
  '/fees/feebillworkadd',
  '/basismembers/index',
  '/roomlist',
  '/feecounts/fees_count',
  '/regions/index',
  '/setup/download',
];

export function ShortcutsPanel({ paths = SHORTCUTS }: { paths?: readonly string[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { flat } = useRoutesInfo();
  const pages = paths
    .map((path) => findFlat(flat, path))
    .filter((f) => !!f)
    .map((f) => ({
      path: f.fullPath,
      title: t(f.route.meta?.title ?? f.fullPath),
      Icon: f.route.meta?.icon ?? f.parents[0]?.route.meta?.icon,
    }));
  return (
    <Card size="small" title={t('dashboard.shortcuts')} data-testid="panel-shortcuts" style={{ height: '100%' }}>
      <div className="dashboard-shortcuts">
        {pages.map(({ path, title, Icon }) => (
          <Button key={path} onClick={() => void navigate(path)} icon={Icon ? <Icon /> : undefined} data-testid={`shortcut-${path}`}>
            {title}
          </Button>
        ))}
      </div>
    </Card>
  );
}

/** The group's communities and where their service stands. */
export function GroupRegionsPanel() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading } = useQuery({
    queryKey: ['group-regions'],
    queryFn: () => call('leaderregionlist', { page: 1, limit: 200, sort: 'asc' }, { silent: true }),
  });
  const items = data?.items ?? [];
  const ending = items.filter((r) => r.days_left >= 0 && r.days_left < 30).length;
  const ended = items.filter((r) => r.days_left < 0).length;
  return (
    <Card
      size="small"
      loading={isLoading}
      title={t('dashboard.groupRegions')}
      extra={
        <Button type="link" size="small" onClick={() => void navigate('/leader/regions/index')}>
          {t('dashboard.manageRegions')}
        </Button>
      }
      data-testid="panel-group-regions"
    >
      <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="group-summary">
        <span>{t('dashboard.regionCount', { n: data?.total ?? 0 })}</span>
        <span>{t('dashboard.regionsEnding', { n: ending })}</span>
        <span>{t('dashboard.regionsEnded', { n: ended })}</span>
      </Space>
      {/* a plain table: antd's Table would bring its pagination and filters onto the home page */}
      <table className="dashboard-regions">
        <thead>
          <tr>
            <th>{t('dashboard.regionName')}</th>
            <th>{t('dashboard.roomCount')}</th>
            <th>{t('dashboard.endTime')}</th>
            <th>{t('dashboard.daysLeft')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((r) => (
            <tr key={r.id}>
              <td>{r.title}</td>
              <td>{r.room_count}</td>
              <td>{r.end_time.slice(0, 10)}</td>
              <td>
                {r.days_left < 0 ? (
                  <Tag color="error">{t('dashboard.expired')}</Tag>
                ) : (
                  <Tag color={r.days_left < 30 ? 'warning' : 'success'}>{t('dashboard.days', { n: r.days_left })}</Tag>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
