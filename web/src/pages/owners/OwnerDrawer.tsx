import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Avatar, Descriptions, Drawer, Flex, Space, Spin, Tabs, Tooltip, Typography } from 'antd';
import { MobileOutlined, UserOutlined, WechatOutlined } from '@ant-design/icons';
import type { CommunityModule, OwnerInfo } from '@wuye/contract';
import { call } from '../../api/client';
import { useAppStore } from '../../stores/app';
import { useUser } from '../../stores/user';
import { houseFields, type HouseRef } from './shared';
import {
  BalanceTab,
  BillTab,
  BonusTab,
  CarhouseTab,
  CarInoutTab,
  CarsTab,
  CurrentTab,
  FaceTab,
  HouseListTab,
  SignupTab,
  VisitorTab,
} from './drawer/tabs';
import { formatMoney, Money } from '../../components/Money';

export interface OwnerDrawerProps {
  /** the room to show; null closes the drawer */
  house: HouseRef | null;
  onClose: () => void;
}

/**
 * The eleven tabs (docs/product.md#owner-drawer-tabs), in order; a tab of a module closed in the
 * community is not there (docs/product.md#community-modules).
 */
const TABS: ReadonlyArray<{ key: string; label: string; Tab: (p: { house: HouseRef }) => ReactNode; module?: CommunityModule }> = [
  { key: 'bill', label: '账单记录', Tab: BillTab, module: 'fees' },
  { key: 'cars', label: '车辆', Tab: CarsTab, module: 'parking' },
  { key: 'house', label: '房屋', Tab: HouseListTab },
  { key: 'carhouse', label: '车位', Tab: CarhouseTab, module: 'parking' },
  { key: 'visitor', label: '访客', Tab: VisitorTab, module: 'visitors' },
  { key: 'bonus', label: '积分', Tab: BonusTab },
  { key: 'balance', label: '余额', Tab: BalanceTab, module: 'fees' },
  { key: 'carInout', label: '车辆进出', Tab: CarInoutTab, module: 'parking' },
  { key: 'signup', label: '活动报名', Tab: SignupTab, module: 'activities' },
  { key: 'current', label: '门禁通行', Tab: CurrentTab, module: 'access' },
  { key: 'face', label: '人脸信息', Tab: FaceTab, module: 'access' },
];

/**
 * The owner drawer of docs/product.md#owner-drawer (title 用户信息): the header from houseinfoplus, the owner's
 * rooms as tabs (switching reloads the header only for another room) and the eleven tabs.
 */
export default function OwnerDrawer({ house, onClose }: OwnerDrawerProps) {
  const [current, setCurrent] = useState<HouseRef | null>(null);
  const [info, setInfo] = useState<OwnerInfo | null>(null);
  const [houses, setHouses] = useState<OwnerInfo['houses']>([]);
  const [loading, setLoading] = useState(false);
  const modulesOff = useUser((s) => s.modulesOff);
  const tabs = useMemo(() => TABS.filter((t) => !t.module || !modulesOff.includes(t.module)), [modulesOff]);
  const [tab, setTab] = useState<string>(() => tabs[0]?.key ?? 'house');

  // a bill row opens the cashier page: the drawer must not stay over it
  const { pathname } = useLocation();
  const openedOn = useRef(pathname);
  useEffect(() => {
    if (house && openedOn.current !== pathname) onClose();
    openedOn.current = pathname;
    // only a page change closes; house and onClose changing must not
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);

  // opening: the chosen room, the first tab (the bills where the fees are open)
  useEffect(() => {
    if (!house) return;
    setCurrent(house);
    setTab(tabs[0]?.key ?? 'house');
    setHouses([]);
    // the tabs change only with the community, which reloads the console
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [house]);

  useEffect(() => {
    if (!current) return;
    let live = true;
    setLoading(true);
    call('houseinfoplus', { ...houseFields(current), keyword: '', building_cate_id: '' })
      .then((res) => {
        if (!live) return;
        setInfo(res.items);
        setHouses((hs) => (hs.length && hs.some((h) => h.id === res.items.hid) ? hs : res.items.houses));
      })
      .catch(() => {
        if (live) setInfo(null);
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
  }, [current]);

  const switchHouse = (key: string) => {
    const h = houses.find((x) => String(x.id) === key);
    // only another room reloads the header
    if (!h || h.id === current?.hid) return;
    setCurrent({ rid: h.rid, bid: h.bid, tid: h.tid, hid: h.id });
  };

  // docs/product.md#constants: under 992 px the drawer takes the whole width
  const mobile = useAppStore((st) => st.device) === 'mobile';
  const bound = (flag: 'Y' | 'N' | undefined) => ({ color: flag === 'Y' ? '#52c41a' : '#bfbfbf', fontSize: 18 });

  return (
    <Drawer
      title="用户信息"
      open={!!house}
      onClose={onClose}
      size={mobile ? '100%' : 'min(1100px, 92vw)'}
      destroyOnHidden
      data-testid="owner-drawer"
    >
      <Spin spinning={loading}>
        <Flex align="start" gap={mobile ? 12 : 24} style={{ marginBottom: 12 }} data-testid="owner-header">
          <Avatar size={mobile ? 48 : 64} src={info?.owner_headurl || undefined} icon={<UserOutlined />} style={{ flex: 'none' }} />
          <Descriptions
            size="small"
            column={{ xs: 2, sm: 2, md: 3, lg: 4, xl: 4, xxl: 4 }}
            style={{ flex: 1, minWidth: 0 }}
            items={[
              { key: 'name', label: '业主', children: <span data-testid="owner-name">{info?.owner_name || '—'}</span> },
              { key: 'mobile', label: '手机号', children: <span data-testid="owner-mobile">{info?.mobile || '—'}</span> },
              {
                key: 'gel',
                label: '欠费',
                children: (
                  <span style={{ color: info && info.gel_fee !== '0.00' ? '#cf1322' : undefined }}>
                    <Money value={info?.gel_fee ?? '0.00'} unit="¥" testId="owner-gel-fee" />
                    {/* what the cashier's 欠费合计 shows: the bills and their late fees today */}
                    {info && info.arrears.late_fee !== '0.00' && (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="owner-gel-late">
                        {' '}
                        （含滞纳金 {formatMoney(info.arrears.late_fee, { unit: '¥' })}）
                      </Typography.Text>
                    )}
                  </span>
                ),
              },
              { key: 'balance', label: '余额', children: <Money value={info?.owner_balance ?? '0.00'} unit="¥" testId="owner-balance" /> },
              { key: 'num', label: '住户人数', children: <span data-testid="owner-member-num">{info?.member_num ?? 0}</span> },
              { key: 'bonus', label: '积分', children: <span data-testid="owner-bonus">{info?.owner_bonus ?? 0}</span> },
              {
                key: 'time',
                label: '登记时间',
                span: { xs: 2, sm: 2, md: 1, lg: 1, xl: 1, xxl: 1 },
                children: <span data-testid="owner-create-time">{info?.create_time || '—'}</span>,
              },
              {
                key: 'bind',
                label: '绑定',
                children: (
                  <Space>
                    <Tooltip title={info?.wx_isbind === 'Y' ? '已绑定微信' : '未绑定微信'}>
                      <WechatOutlined style={bound(info?.wx_isbind)} data-testid="owner-wx" data-bound={info?.wx_isbind} />
                    </Tooltip>
                    <Tooltip title={info?.app_isbind === 'Y' ? '已绑定APP' : '未绑定APP'}>
                      <MobileOutlined style={bound(info?.app_isbind)} data-testid="owner-app" data-bound={info?.app_isbind} />
                    </Tooltip>
                  </Space>
                ),
              },
            ]}
          />
        </Flex>
      </Spin>
      <Tabs
        type="card"
        size="small"
        activeKey={current ? String(current.hid) : undefined}
        onChange={switchHouse}
        data-testid="owner-houses"
        items={houses.map((h) => ({ key: String(h.id), label: <span data-testid="owner-house-tab">{h.address}</span> }))}
      />
      {current && (
        <Tabs
          activeKey={tab}
          onChange={setTab}
          data-testid="owner-tabs"
          items={tabs.map(({ key, label, Tab }) => ({
            key,
            label: <span data-testid={`owner-tab-${key}`}>{label}</span>,
            children: <Tab house={current} />,
          }))}
          destroyOnHidden
        />
      )}
    </Drawer>
  );
}
