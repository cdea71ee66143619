import { Popover } from 'antd';
import { MobileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import QrImage from '../components/QrImage';
import type { SystemInfo } from '@wuye/contract/system';
import type { NavbarVisibility } from './visibility';

/** Whether any application has its address set. */
export function hasAppDownload(info: SystemInfo | null, show: NavbarVisibility['appDownload']): info is SystemInfo {
  return !!info && (show.propertyApp || show.wxapp || show.consumeMobileApp || show.consumeApp);
}

/** The applications to download, each only when its address is set. */
export function AppDownloadPanel({ info, show }: { info: SystemInfo; show: NavbarVisibility['appDownload'] }) {
  const { t } = useTranslation();
  return (
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
}

/** Application download tooltip (docs/product.md#shell-top-bar): each entry only when its address is set. */
export default function AppDownload({ info, show }: { info: SystemInfo | null; show: NavbarVisibility['appDownload'] }) {
  const { t } = useTranslation();
  if (!hasAppDownload(info, show)) return null;
  return (
    <Popover content={<AppDownloadPanel info={info} show={show} />} title={t('navbar.appDownload')} placement="bottom">
      <span className="navbar-icon-wrap" data-testid="app-download">
        <MobileOutlined className="navbar-icon" />
      </span>
    </Popover>
  );
}
