/**
 * The areas' figure cards of the dashboard, one description each: the method whose answer they draw
 * (the server's first screen draws the same figures, server/src/http/first-screen-cards.ts, and hands
 * them over under the method's name), the icon and colour, the value and footer, and the page a
 * click opens. One component draws them all.
 */
import type { ComponentType, ReactNode } from 'react';
import { ApiOutlined, CalendarOutlined, CarOutlined, SafetyOutlined, ThunderboltOutlined, ToolOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MethodOutput } from '@wuye/contract';
import { AREA_CARD_METHODS, METERS_CARD_LINK, accessCardColor, groupedAmount, groupedInt, metersCardColor } from '@wuye/contract/home';
import { call } from '../../api/client';
import FigureCard from './FigureCard';

type AreaMethod = (typeof AREA_CARD_METHODS)[number];

interface AreaCardSpec<M extends AreaMethod> {
  method: M;
  testId: string;
  icon: ReactNode;
  color: (data: MethodOutput<M> | undefined) => string;
  title: (t: TFunction) => string;
  value: (data: MethodOutput<M>, t: TFunction) => ReactNode;
  footer: (data: MethodOutput<M>, t: TFunction) => ReactNode;
  link: string;
  /** how often the figures are asked again (default 5 minutes) */
  refreshMs?: number;
}

/** A card component of a description: the method's figures, asked once and again every refreshMs. */
function areaCard<M extends AreaMethod>(spec: AreaCardSpec<M>): ComponentType {
  return function AreaCard() {
    const { t } = useTranslation();
    const navigate = useNavigate();
    const { data, isLoading } = useQuery({
      queryKey: [spec.method],
      queryFn: () => call(spec.method as AreaMethod, {}, { silent: true }) as Promise<MethodOutput<M>>,
      refetchInterval: spec.refreshMs ?? 5 * 60_000,
    });
    return (
      <FigureCard
        testId={spec.testId}
        loading={isLoading}
        title={spec.title(t)}
        value={data ? spec.value(data, t) : '-'}
        icon={spec.icon}
        color={spec.color(data)}
        footer={data ? spec.footer(data, t) : null}
        onClick={() => void navigate(spec.link)}
      />
    );
  };
}

/** The repair desk's card: open tickets, the overdue and today's ones; opens /steward/repairs. */
export const RepairsCard = areaCard({
  method: 'repairdashboard',
  testId: 'card-repairs',
  icon: <ToolOutlined />,
  color: () => '#f4a93a',
  title: (t) => t('dashboard.repairs'),
  value: (d) => d.open,
  footer: (d, t) => t('dashboard.repairsFooter', { overdue: d.overdue, today: d.today }),
  link: '/steward/repairs',
});

/** The parking card: cars inside now of the lots' spaces, today's parking income; opens 车位占用. */
export const ParkingCard = areaCard({
  method: 'parkingdashboard',
  testId: 'card-parking',
  icon: <CarOutlined />,
  color: () => '#8e7cc3',
  title: (t) => t('dashboard.parking'),
  value: (d, t) => t('dashboard.parkingValue', { inside: groupedInt(d.inside), total: groupedInt(d.total_spaces) }),
  footer: (d, t) => t('dashboard.parkingFooter', { amount: groupedAmount(d.total) }),
  link: '/carpark/parkingoccupancy',
});

/** The access card: door devices offline of the enabled ones, today's visitors; opens 门禁设备 at its offline ones. */
export const AccessCard = areaCard({
  method: 'accessdashboard',
  testId: 'card-access',
  icon: <ApiOutlined />,
  color: accessCardColor,
  title: (t) => t('dashboard.access'),
  value: (d, t) => t('dashboard.accessValue', { offline: groupedInt(d.offline), total: groupedInt(d.total) }),
  footer: (d, t) => t('dashboard.accessFooter', { expected: d.expected, arrived: d.arrived }),
  link: '/carpark/current_device?online=N',
  // a door going offline is news for the guards: asked every minute
  refreshMs: 60_000,
});

/**
 * The meters card: valves closed now, the meters behind an offline gateway, the rooms at or below
 * their alarm and the charging piles offline; opens 阀门管理 at the valves closed.
 */
export const MetersCard = areaCard({
  method: 'meterdashboard',
  testId: 'card-meters',
  icon: <ThunderboltOutlined />,
  color: metersCardColor,
  title: (t) => t('dashboard.meters'),
  value: (d) => groupedInt(d.closed),
  footer: (d, t) => t('dashboard.metersFooter', { offline: d.offline_meters, low: d.low, piles: d.offline_piles }),
  link: METERS_CARD_LINK,
  // a valve closed or a pile gone offline is news for the device staff: asked every minute
  refreshMs: 60_000,
});

/** The patrol card: today's points done of due, the rate and the rounds not complete; opens 巡更记录. */
export const PatrolCard = areaCard({
  method: 'patroldashboard',
  testId: 'card-patrol',
  icon: <SafetyOutlined />,
  color: () => '#36a3f7',
  title: (t) => t('dashboard.patrol'),
  value: (d, t) => t('dashboard.patrolValue', { done: groupedInt(d.points_done), due: groupedInt(d.points_due) }),
  footer: (d, t) => t('dashboard.patrolFooter', { rate: d.rate, missed: d.missed_tasks }),
  link: '/security/patrolrecordlist',
});

/** The activities card: activities open for sign-up, the people signed up and the sign-ups to review; opens 活动报名. */
export const ActivitiesCard = areaCard({
  method: 'activitydashboard',
  testId: 'card-activities',
  icon: <CalendarOutlined />,
  color: () => '#f4516c',
  title: (t) => t('dashboard.activities'),
  value: (d) => d.open,
  footer: (d, t) => t('dashboard.activitiesFooter', { signed: d.signed, reviewing: d.reviewing }),
  link: '/service/signuplist?phase=open',
});
