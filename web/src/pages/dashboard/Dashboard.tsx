import { Button, Card, Col, Descriptions, Row, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDialogs } from '../../stores/dialogs';
import { daysLeftOf, useSystem } from '../../stores/system';
import { useUser } from '../../stores/user';
import { dashboardCards } from './cards';

/** The signed-in community: name, end date, days left, and the figures areas add (pages/dashboard/cards.tsx). */
export default function Dashboard() {
  const { t } = useTranslation();
  const info = useSystem((s) => s.info);
  const name = useUser((s) => s.name);
  const side = useUser((s) => s.side);
  const roles = useUser((s) => s.roles);
  const sysType = useUser((s) => s.sysUser?.sys_type);
  const days = daysLeftOf(info);
  const cards = dashboardCards({ side, roles, sysType });
  const regionTitle = info?.region_title || (side === 'group' ? t('dashboard.noRegion') : '-');
  return (
    <div className="dashboard" data-testid="dashboard">
      <Card style={{ marginBottom: 16 }}>
        <h2 style={{ marginTop: 0 }}>{t('dashboard.welcome', { name })}</h2>
        <Descriptions
          column={{ xs: 1, sm: 1, md: 3 }}
          items={[
            { key: 'region', label: t('dashboard.region'), children: <span data-testid="dashboard-region">{regionTitle}</span> },
            ...(side === 'group'
              ? []
              : [
                  {
                    key: 'end',
                    label: t('dashboard.endTime'),
                    children: <span data-testid="dashboard-end">{info?.end_time?.slice(0, 10) || '-'}</span>,
                  },
                  {
                    key: 'days',
                    label: t('dashboard.daysLeft'),
                    children: (
                      <span data-testid="dashboard-days">
                        {days === null ? (
                          '-'
                        ) : days < 0 ? (
                          <Tag color="error">{t('dashboard.expired')}</Tag>
                        ) : (
                          t('dashboard.days', { n: days })
                        )}
                        {days !== null && days < 30 && side === 'community' && (
                          <Button size="small" type="link" onClick={() => useDialogs.getState().openRenewal(days < 0)}>
                            {t('dashboard.renew')}
                          </Button>
                        )}
                      </span>
                    ),
                  },
                ]),
          ]}
        />
      </Card>
      <Row gutter={[16, 16]} data-testid="dashboard-cards">
        {cards.map(({ key, Component }) => (
          <Col key={key} xs={24} sm={12} lg={6}>
            <Component />
          </Col>
        ))}
      </Row>
    </div>
  );
}
