import { CarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { groupedAmount } from '@wuye/contract/home';
import { useParkingDashboard } from '../../api/parkingDashboard';
import FigureCard from './FigureCard';

/** The parking card: cars inside now of the lots' spaces, today's parking income; opens 车位占用. */
export default function ParkingCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading } = useParkingDashboard();
  return (
    <FigureCard
      testId="card-parking"
      loading={isLoading}
      title={t('dashboard.parking')}
      value={data ? t('dashboard.parkingValue', { inside: data.inside, total: data.total_spaces }) : '-'}
      icon={<CarOutlined />}
      color="#8e7cc3"
      footer={data ? t('dashboard.parkingFooter', { amount: groupedAmount(data.total) }) : null}
      onClick={() => void navigate('/carpark/parkingoccupancy')}
    />
  );
}
