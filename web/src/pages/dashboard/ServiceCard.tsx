import { FieldTimeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { daysLeftOf, useSystem } from '../../stores/system';
import FigureCard from './FigureCard';

export default function ServiceCard() {
  const { t } = useTranslation();
  const info = useSystem((s) => s.info);
  const days = daysLeftOf(info);
  return (
    <FigureCard
      testId="card-days-left"
      title={t('dashboard.daysLeft')}
      value={days === null ? '-' : days}
      icon={<FieldTimeOutlined />}
      color={days !== null && days < 30 ? '#f4516c' : '#40c9c6'}
      footer={info?.end_time ? `${t('dashboard.endTime')}: ${info.end_time.slice(0, 10)}` : undefined}
    />
  );
}
