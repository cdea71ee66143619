import { Popover } from 'antd';
import { MobileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import QrImage from '../components/QrImage';
import type { SystemInfo } from '@wuye/contract/system';
import type { NavbarVisibility } from './visibility';

/** Application download tooltip (docs/product.md#shell-top-bar): each entry only when its address is set. */
export default function AppDownload({ info, show }: { info: SystemInfo | null; show: NavbarVisibility['appDownload'] }) {
  const { t } = useTranslation();
  if (!info || !(show.propertyApp || show.wxapp || show.consumeMobileApp || show.consumeApp)) return null;
  const content = (
    <div className="app-download" data-testid="app-download-panel">
      {show.propertyApp && (
        <div className="app-download-item">
          <QrImage text={info.property_app_url} size={110} />
          <a href={info.property_app_url} target="_blank" rel="noreferrer">
            {t('navbar.propertyApp')}
          </a>
        </div>
      )}
      {show.wxapp && (
        <div className="app-download-item">
          <img src={info.wxapp_qrcodes} width={110} height={110} alt="" />
          <span>{t('navbar.wxapp')}</span>
        </div>
      )}
      {show.consumeMobileApp && (
        <div className="app-download-item">
          <QrImage text={info.consume_mobile_app_url} size={110} />
          <a href={info.consume_mobile_app_url} target="_blank" rel="noreferrer">
            {t('navbar.consumeMobileApp')}
          </a>
        </div>
      )}
      {show.consumeApp && (
        <div className="app-download-item">
          <a href={info.consume_app_url} target="_blank" rel="noreferrer">
            {t('navbar.consumeApp')}
          </a>
        </div>
      )}
    </div>
  );
  return (
    <Popover content={content} title={t('navbar.appDownload')} placement="bottom">
      <span className="navbar-icon-wrap" data-testid="app-download">
        <MobileOutlined className="navbar-icon" />
      </span>
    </Popover>
  );
}
