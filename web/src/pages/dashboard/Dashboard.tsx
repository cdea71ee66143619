import { Card, Col, Descriptions, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatWireDate } from '@wuye/contract/dates';
import { HOME_WIDE_CARDS, HOME_WORDS, todayText } from '@wuye/contract/home';
import { useAppStore } from '../../stores/app';
import { useSystem } from '../../stores/system';
import { useUser } from '../../stores/user';
import { dashboardCards } from './cards';
import { GroupRegionsPanel, PendingTodosPanel, ShortcutsPanel } from './panels';

/**
 * The home page: the welcome card (the community, its end date, today; on the group side the
 * group), the figure cards (their days left among them) in one row on an office screen, and below
 * them the pending to-dos and the shortcuts, or the group's communities, so the first screen is
 * the day's work. The cards' grid is the first screen's (web/index.html .fs-cards), rule for rule.
 */
export default function Dashboard() {
  const { t } = useTranslation();
  const info = useSystem((s) => s.info);
  const name = useUser((s) => s.name);
  const side = useUser((s) => s.side);
  const roles = useUser((s) => s.roles);
  const sysType = useUser((s) => s.sysUser?.sys_type);
  const modulesOff = useUser((s) => s.modulesOff);
  const language = useAppStore((s) => s.language);
  const cards = dashboardCards({ side, roles, sysType, modulesOff });
  const today = {
    key: 'today',
    label: t('dashboard.today'),
    children: <span data-testid="dashboard-today">{todayText(HOME_WORDS[language], formatWireDate(new Date(), info?.time_zone))}</span>,
  };
  // the same items, in the same places, as the server's first screen (server/src/http/first-screen.ts)
  const items =
    side === 'group'
      ? [
          {
            key: 'group',
            label: t('dashboard.group'),
            children: <span data-testid="dashboard-region">{info?.region_title || t('dashboard.noRegion')}</span>,
          },
          today,
        ]
      : [
          {
            key: 'region',
            label: t('dashboard.region'),
            children: <span data-testid="dashboard-region">{info?.region_title || '-'}</span>,
          },
          {
            key: 'end',
            label: t('dashboard.endTime'),
            children: <span data-testid="dashboard-end">{info?.end_time?.slice(0, 10) || '-'}</span>,
          },
          today,
        ];
  const showTodos = cards.some((c) => c.key === 'backlog');
  return (
    <div className="dashboard" data-testid="dashboard">
      <Card style={{ marginBottom: 16 }}>
        <h2 style={{ marginTop: 0 }}>{t('dashboard.welcome', { name })}</h2>
        <Descriptions column={{ xs: 1, sm: 1, md: 3 }} items={items} />
      </Card>
      {cards.length > 0 && (
        <div className="dashboard-cards" data-testid="dashboard-cards">
          {cards.map(({ key, Component }) => (
            <div key={key} className={HOME_WIDE_CARDS.includes(key) ? 'dashboard-card dashboard-card-wide' : 'dashboard-card'}>
              <Component />
            </div>
          ))}
        </div>
      )}
      <Row gutter={[16, 16]} style={{ marginTop: 16 }} data-testid="dashboard-panels">
        {side === 'group' ? (
          <Col span={24}>
            <GroupRegionsPanel />
          </Col>
        ) : (
          <>
            {showTodos && (
              <Col xs={24} lg={14}>
                <PendingTodosPanel />
              </Col>
            )}
            <Col xs={24} lg={showTodos ? 10 : 24}>
              <ShortcutsPanel />
            </Col>
          </>
        )}
      </Row>
    </div>
  );
}
