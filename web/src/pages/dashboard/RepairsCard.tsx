import { ToolOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRepairDashboard } from '../../api/repairDashboard';
import FigureCard from './FigureCard';

/** The repair desk's card: open tickets, the overdue and today's ones; opens /steward/repairs. */
export default function RepairsCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading } = useRepairDashboard();
  return (
    <FigureCard
      testId="card-repairs"
      loading={isLoading}
      title={t('dashboard.repairs')}
      value={data ? data.open : '-'}
      icon={<ToolOutlined />}
      color="#f4a93a"
      footer={data ? t('dashboard.repairsFooter', { overdue: data.overdue, today: data.today }) : null}
      onClick={() => void navigate('/steward/repairs')}
    />
  );
}
