import { ScheduleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useBacklogCount } from '../../api/backlog';
import FigureCard from './FigureCard';

export default function BacklogCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const count = useBacklogCount(true);
  return (
    <FigureCard
      testId="card-backlog"
      title={t('dashboard.backlog')}
      value={count}
      icon={<ScheduleOutlined />}
      color="#36a3f7"
      onClick={() => void navigate('/setup/backlog')}
    />
  );
}
