import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../shell/useDocumentTitle';

export default function ErrorPage({ status }: { status: '401' | '404' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const words = t(status === '401' ? 'errorPage.p401' : 'errorPage.p404');
  useDocumentTitle(words);
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }} data-testid={`page-${status}`}>
      <Result
        status={status === '401' ? '403' : '404'}
        title={status}
        subTitle={words}
        extra={[
          <Button key="back" onClick={() => void navigate(-1)}>
            {t('common.back')}
          </Button>,
          <Button key="home" type="primary" onClick={() => void navigate('/dashboard')}>
            {t('common.backHome')}
          </Button>,
        ]}
      />
    </div>
  );
}
