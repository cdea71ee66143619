import { lazy, Suspense, useState } from 'react';
import { Badge, Modal, Tooltip } from 'antd';
import {
  ContactsOutlined,
  BugOutlined,
  FileTextOutlined,
  FundProjectionScreenOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  PictureOutlined,
  QuestionCircleOutlined,
  ScheduleOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useBacklogCount } from '../api/backlog';
import { call } from '../api/client';
import { useAppStore } from '../stores/app';
import { useDialogs } from '../stores/dialogs';
import { errorLogEnabled, useErrorLog } from '../stores/errorLog';
import { useSettings } from '../stores/settings';
import { useSystem } from '../stores/system';
import { useUser } from '../stores/user';
import AppDownload, { AppDownloadPanel, hasAppDownload } from './AppDownload';
import CommonLinks from './CommonLinks';
import HeaderSearch from './HeaderSearch';
import LangSelect from './LangSelect';
import NavbarMore, { type MoreActions } from './NavbarMore';
import Screenfull from './Screenfull';
import SizeSelect from './SizeSelect';
import TopMenu from './TopMenu';
import UserMenu from './UserMenu';
import { useMediaQuery, WIDE_NAVBAR_QUERY } from './useMediaQuery';
import { navbarVisibility } from './visibility';

// the owner search and its drawer load on first use, not with the shell
const OwnerSearchDialog = lazy(() => import('../pages/owners/OwnerSearchDialog'));

function ErrorLogButton() {
  const { t } = useTranslation();
  const count = useErrorLog((s) => s.logs.length);
  if (!errorLogEnabled() || count === 0) return null;
  return (
    <Tooltip title={t('navbar.errorLog')}>
      <span
        className="navbar-icon-wrap"
        data-testid="error-log"
        data-count={count}
        onClick={() => useDialogs.getState().setErrorLogOpen(true)}
      >
        <Badge dot>
          <BugOutlined className="navbar-icon-in-badge error-log-icon" />
        </Badge>
      </span>
    </Tooltip>
  );
}

/** The top bar (docs/product.md#shell-top-bar) with its visibility rules. */
export default function Navbar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const device = useAppStore((s) => s.device);
  const opened = useAppStore((s) => s.sidebarOpened);
  const toggleSidebar = useAppStore((s) => s.toggleSidebar);
  const info = useSystem((s) => s.info);
  const roles = useUser((s) => s.roles);
  const permissions = useUser((s) => s.permissions);
  const sysType = useUser((s) => s.sysUser?.sys_type);
  const showSettings = useSettings((s) => s.showSettings);
  const [floorPlanOpen, setFloorPlanOpen] = useState(false);
  const [appsOpen, setAppsOpen] = useState(false);
  const [ownerSearch, setOwnerSearch] = useState<'unused' | 'open' | 'closed'>('unused');
  const mobile = device === 'mobile';
  const wide = useMediaQuery(WIDE_NAVBAR_QUERY) && !mobile;
  const side = useUser((s) => s.side);
  const show = navbarVisibility({ sysType, side, roles, permissions, info });
  const backlogCount = useBacklogCount(show.backlog);
  const Fold = mobile || !opened ? MenuUnfoldOutlined : MenuFoldOutlined;

  // the board window gets a one-time code for a read-only board session, never this session's token;
  // the window opens in the click (no pop-up blocker stops it) and is sent on once the code is there
  const openBoard = () => {
    const win = window.open('about:blank', '_blank');
    call('boardcode').then(
      ({ url }) => {
        if (!win) {
          window.open(url, '_blank', 'noopener');
          return;
        }
        win.opener = null;
        win.location.href = url;
      },
      () => win?.close(),
    );
  };
  const actions: MoreActions = {
    apps: () => setAppsOpen(true),
    board: openBoard,
    updatelog: () => void navigate('/updatelog/updatelog'),
    floorPlan: () => setFloorPlanOpen(true),
    help: () => window.open(info?.help_work_url, '_blank', 'noopener'),
    settings: () => useSettings.getState().setDrawerOpen(true),
    errorLog: () => useDialogs.getState().setErrorLogOpen(true),
  };

  return (
    <div className="navbar" data-testid="navbar" data-wide={wide ? '1' : undefined}>
      <Tooltip title={t('navbar.toggleSidebar')}>
        <Fold className="hamburger" data-testid="hamburger" onClick={toggleSidebar} />
      </Tooltip>
      <div className="top-menu-wrap">
        <TopMenu mobile={mobile} />
      </div>
      <div className="right-menu">
        {!mobile && <HeaderSearch />}
        {!mobile && <ErrorLogButton />}
        {wide && <AppDownload info={info} show={show.appDownload} />}
        {show.ownerSearch && (
          <Tooltip title={t('navbar.ownerSearch')}>
            <ContactsOutlined className="navbar-icon" data-testid="navbar-owner-search" onClick={() => setOwnerSearch('open')} />
          </Tooltip>
        )}
        {/* the group's and the community's common links (/setup/linklist) */}
        {show.ownerSearch && <CommonLinks />}
        {ownerSearch !== 'unused' && (
          // stays mounted once used: the owner drawer it opens lives inside it
          <Suspense fallback={null}>
            <OwnerSearchDialog open={ownerSearch === 'open'} onClose={() => setOwnerSearch('closed')} />
          </Suspense>
        )}
        {wide && show.board && (
          <Tooltip title={t('navbar.board')}>
            <FundProjectionScreenOutlined className="navbar-icon" data-testid="navbar-board" onClick={openBoard} />
          </Tooltip>
        )}
        {show.backlog && (
          <Tooltip title={t('navbar.backlog')}>
            <span
              className="navbar-icon-wrap"
              data-testid="navbar-backlog"
              data-count={backlogCount}
              onClick={() => void navigate('/setup/backlog')}
            >
              <Badge count={backlogCount} size="small" overflowCount={99} offset={[2, -2]}>
                <ScheduleOutlined className="navbar-icon-in-badge" />
              </Badge>
            </span>
          </Tooltip>
        )}
        {wide && show.updatelog && (
          <Tooltip title={t('navbar.updatelog')}>
            <FileTextOutlined className="navbar-icon" data-testid="navbar-updatelog" onClick={actions.updatelog} />
          </Tooltip>
        )}
        {wide && show.floorPlan && (
          <Tooltip title={t('navbar.floorPlan')}>
            <PictureOutlined className="navbar-icon" data-testid="navbar-floorplan" onClick={actions.floorPlan} />
          </Tooltip>
        )}
        {wide && show.help && (
          <Tooltip title={t('navbar.help')}>
            <a href={info?.help_work_url} target="_blank" rel="noreferrer" className="navbar-icon-wrap" data-testid="navbar-help">
              <QuestionCircleOutlined className="navbar-icon" />
            </a>
          </Tooltip>
        )}
        {wide && <Screenfull />}
        {wide && <SizeSelect />}
        {wide && <LangSelect />}
        {wide && showSettings && (
          <Tooltip title={t('navbar.settings')}>
            <SettingOutlined className="navbar-icon" data-testid="settings-toggle" onClick={actions.settings} />
          </Tooltip>
        )}
        {!wide && (
          <NavbarMore
            show={show}
            apps={hasAppDownload(info, show.appDownload)}
            settings={showSettings}
            errorLog={mobile}
            actions={actions}
          />
        )}
        <UserMenu showSwitch={show.switchRegion} compact={mobile} />
      </div>
      {show.floorPlan && (
        <Modal open={floorPlanOpen} title={t('navbar.floorPlan')} footer={null} width={900} onCancel={() => setFloorPlanOpen(false)}>
          <img src={info?.region_img} alt="" style={{ width: '100%' }} data-testid="floorplan-image" />
        </Modal>
      )}
      {hasAppDownload(info, show.appDownload) && (
        <Modal open={appsOpen} title={t('navbar.appDownload')} footer={null} onCancel={() => setAppsOpen(false)}>
          <AppDownloadPanel info={info} show={show.appDownload} />
        </Modal>
      )}
    </div>
  );
}
