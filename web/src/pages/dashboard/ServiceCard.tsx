import { FieldTimeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { HOME_WORDS, serviceText } from '@wuye/contract/home';
import { useAppStore } from '../../stores/app';
import { useDialogs } from '../../stores/dialogs';
import { daysLeftOf, useSystem } from '../../stores/system';
import FigureCard from './FigureCard';

/** The community's days left, the one place the home page shows them; ending or ended, a click offers renewal. */
export default function ServiceCard() {
  const { t } = useTranslation();
  const info = useSystem((s) => s.info);
  const language = useAppStore((s) => s.language);
  const days = daysLeftOf(info);
  const renew = days !== null && days < 30;
  return (
    <FigureCard
      testId="card-days-left"
      title={t('dashboard.daysLeft')}
      value={days === null ? '-' : days < 0 ? t('dashboard.expired') : days}
      icon={<FieldTimeOutlined />}
      color={renew ? '#f4516c' : '#40c9c6'}
      footer={serviceText(HOME_WORDS[language], days) || undefined}
      onClick={renew ? () => useDialogs.getState().openRenewal(days < 0) : undefined}
    />
  );
}
