import { useEffect, useState } from 'react';
import { Button, Space, Tag } from 'antd';
import type { FeeBillRow } from '@wuye/contract';
import { useNavigate } from 'react-router';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import type { HouseRef } from '../shared';
import HouseTab from './HouseTab';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { EnumTag, useSmallList } from '../../../components/resource';
import { enumOptions } from '@wuye/contract/kit/resource';
import { BILL_STATUS } from '@wuye/contract/fees';

type Option = { value: string | number; label: string };

/** Loads a small list once for a filter dropdown; a missing method just leaves it empty. */
function useOptions(load: () => Promise<Option[]>): Option[] {
  const [options, setOptions] = useState<Option[]>([]);
  useEffect(() => {
    let live = true;
    load()
      .then((o) => {
        if (live) setOptions(o);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // loaded once per mount
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return options;
}

const VISITOR_COLOR: Record<string, string> = { Y: 'warning', D: 'success', C: 'default', '3': 'error', '': 'warning' };
const ACTIVITY_COLOR = (s: string) => (s === 'Y' ? 'success' : s === 'N' ? 'error' : 'processing');
const FACE_COLOR: Record<string, string> = { '': 'processing', Y: 'success', N: 'error', P: 'error', W: 'warning' };

export function BillTab({ house }: { house: HouseRef }) {
  const navigate = useNavigate();
  const confirmDelete = useConfirmDelete();
  const [reloadKey, setReloadKey] = useState(0);
  const cates = useSmallList('feebill_cate_small_list', {}).options;
  // docs/product.md#delete-confirmation: confirm before deleting; cancelling says so
  const remove = (row: FeeBillRow) => {
    confirmDelete(async () => {
      const res = await request('feebilldel', { id: row.id });
      noticeSuccess(res.return_msg || '删除成功');
      setReloadKey((k) => k + 1);
    });
  };
  const cashier = `/desktop/cashier?rid=${house.rid || ''}&bid=${house.bid}&tid=${house.tid}&hid=${house.hid}`;
  return (
    <HouseTab
      method="feebilllist"
      house={house}
      testId="tab-bill"
      reloadKey={reloadKey}
      filters={[
        { kind: 'select', name: 'cost_types', placeholder: '费用类型', options: cates, multiple: true, width: 200 },
        { kind: 'text', name: 'title', placeholder: '账单标题' },
        {
          kind: 'select',
          name: 'status',
          placeholder: '状态',
          options: enumOptions(BILL_STATUS),
          width: 120,
        },
        { kind: 'text', name: 'min_fee', placeholder: '最小金额', width: 110 },
        { kind: 'text', name: 'max_fee', placeholder: '最大金额', width: 110 },
        {
          kind: 'select',
          name: 'is_check',
          placeholder: '是否审核',
          options: [
            { value: 'Y', label: '已审核' },
            { value: 'N', label: '未审核' },
          ],
          width: 120,
        },
        { kind: 'text', name: 'keyword', placeholder: '关键字' },
      ]}
      columns={[
        { title: '编号', dataIndex: 'id', width: 80 },
        { title: '账单', dataIndex: 'title' },
        { title: '房屋', render: (_, r) => `${r.building_title}${r.unit_title}${r.house_title}` },
        { title: '账期', dataIndex: 'daterange' },
        { title: '用量', dataIndex: 'measure' },
        { title: '金额', dataIndex: 'fee', align: 'right' },
        {
          title: '状态',
          dataIndex: 'status',
          render: (s: string) => <EnumTag enum={BILL_STATUS} value={s} />,
        },
        { title: '生成时间', dataIndex: 'create_time' },
        {
          title: '操作',
          fixed: 'right',
          render: (_, r) => (
            <Space>
              <Button type="link" size="small" onClick={() => void navigate(cashier)} data-testid="bill-cashier">
                收银
              </Button>
              {r.status !== 'Y' && (
                <Button type="link" size="small" danger onClick={() => remove(r)} data-testid="bill-delete">
                  删除
                </Button>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}

export const CarsTab = ({ house }: { house: HouseRef }) => (
  <HouseTab
    method="housecarlist"
    house={house}
    testId="tab-cars"
    filters={[{ kind: 'text', name: 'carlicense', placeholder: '车牌号（回车查询）' }]}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '车主', dataIndex: 'realname' },
      { title: '手机号', dataIndex: 'mobile' },
      { title: '车牌号', dataIndex: 'carlicense' },
      { title: '类型', dataIndex: 'car_type_ch' },
      { title: '状态', dataIndex: 'status_ch', render: (t: string, r) => <Tag color={r.status === 'Y' ? 'success' : 'default'}>{t}</Tag> },
      { title: '登记时间', dataIndex: 'create_time' },
    ]}
  />
);

export const HouseListTab = ({ house }: { house: HouseRef }) => (
  <HouseTab
    method="member_otherhouse_list"
    house={house}
    testId="tab-house"
    filters={[{ kind: 'text', name: 'keyword', placeholder: '姓名/手机号/地址' }]}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '住户', dataIndex: 'ownername' },
      { title: '手机号', dataIndex: 'mobile' },
      { title: '身份', dataIndex: 'relation_ch' },
      { title: '房屋类型', dataIndex: 'building_cate_name' },
      { title: '房屋', dataIndex: 'address' },
      { title: '最后登录', dataIndex: 'last_login_time' },
    ]}
  />
);

export const CarhouseTab = ({ house }: { house: HouseRef }) => (
  <HouseTab
    method="housecarportlist"
    house={house}
    testId="tab-carhouse"
    filters={[{ kind: 'text', name: 'keyword', placeholder: '车位号/车牌号' }]}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '停车场', dataIndex: 'parktitle' },
      { title: '车位号', dataIndex: 'title' },
      { title: '绑定车牌', dataIndex: 'carlicense' },
      { title: '使用人', dataIndex: 'realname' },
      {
        title: '状态',
        dataIndex: 'status_ch',
        render: (t: string, r) => <Tag color={r.status === 'sold' ? 'success' : r.status === 'rented' ? 'processing' : 'default'}>{t}</Tag>,
      },
      { title: '开始日期', dataIndex: 'start_date' },
      { title: '到期日期', dataIndex: 'end_date' },
    ]}
  />
);

export const VisitorTab = ({ house }: { house: HouseRef }) => (
  <HouseTab
    method="visitorapplylist"
    house={house}
    testId="tab-visitor"
    filters={[{ kind: 'text', name: 'keyword', placeholder: '访客姓名/手机号/事由' }]}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '到访房屋', dataIndex: 'address' },
      { title: '访客', dataIndex: 'realname' },
      { title: '手机号', dataIndex: 'mobile' },
      { title: '来访事由', dataIndex: 'visit_cause' },
      { title: '状态', dataIndex: 'status', render: (s: string, r) => <Tag color={VISITOR_COLOR[s] ?? 'warning'}>{r.status_ch}</Tag> },
      { title: '来访时间', dataIndex: 'visit_time' },
    ]}
  />
);

function useStores() {
  return useOptions(async () =>
    (await call('merchant_auth_small_list', {}, { silent: true })).items.map((m) => ({ value: m.id, label: m.merchant })),
  );
}

export function BonusTab({ house }: { house: HouseRef }) {
  const stores = useStores();
  return (
    <HouseTab
      method="homebonuslist"
      house={house}
      testId="tab-bonus"
      filters={[{ kind: 'select', name: 'mid', placeholder: '消费门店', options: stores }]}
      columns={[
        { title: '门店', dataIndex: 'merchant' },
        { title: '订单号', dataIndex: 'orderid' },
        { title: '名称', dataIndex: 'name' },
        { title: '卡号', dataIndex: 'code' },
        { title: '用户卡号', dataIndex: 'user_code' },
        {
          title: '变动积分',
          dataIndex: 'num',
          render: (n: number) => <span style={{ color: n < 0 ? '#cf1322' : '#389e0d' }}>{n > 0 ? `+${n}` : n}</span>,
        },
        { title: '变动方式', dataIndex: 'pay_cate' },
        { title: '变动类型', dataIndex: 'cate' },
        { title: '变动渠道', dataIndex: 'source' },
        { title: '变动日期', dataIndex: 'create_time' },
        { title: '操作人', dataIndex: 'action_user' },
      ]}
    />
  );
}

export function BalanceTab({ house }: { house: HouseRef }) {
  const stores = useStores();
  return (
    <HouseTab
      method="homeconsumelist"
      house={house}
      testId="tab-balance"
      fixed={{ io_type: 2 }}
      filters={[{ kind: 'select', name: 'mid', placeholder: '消费门店', options: stores }]}
      columns={[
        { title: '门店', dataIndex: 'merchant' },
        { title: '订单号', dataIndex: 'orderid' },
        { title: '消费类型', dataIndex: 'feetype_ch' },
        { title: '支付方式', dataIndex: 'paytype_ch' },
        { title: '金额', dataIndex: 'total_fee', align: 'right' },
        {
          title: '支付状态',
          dataIndex: 'status',
          render: (s: string) => <Tag color={s === 'Y' ? 'success' : 'default'}>{s === 'Y' ? '已支付' : '未支付'}</Tag>,
        },
        { title: '操作人', dataIndex: 'create_user' },
        { title: '日期', dataIndex: 'create_time' },
      ]}
    />
  );
}

export function CarInoutTab({ house }: { house: HouseRef }) {
  const lots = useOptions(async () =>
    (await call('car_parking_small_list', house.rid ? { rid: house.rid } : {}, { silent: true })).items.map((l) => ({
      value: l.id,
      label: l.title,
    })),
  );
  return (
    <HouseTab
      method="housecarinoutlist"
      house={house}
      testId="tab-carinout"
      filters={[
        { kind: 'select', name: 'parkid', placeholder: '停车场', options: lots },
        { kind: 'text', name: 'carno', placeholder: '车牌号（回车查询）' },
      ]}
      columns={[
        { title: '编号', dataIndex: 'id', width: 80 },
        { title: '停车场', dataIndex: 'parktitle' },
        { title: '车牌号', dataIndex: 'carno' },
        { title: '入场车道', dataIndex: 'inlane' },
        { title: '入场时间', dataIndex: 'intime' },
        { title: '出场车道', dataIndex: 'outlane' },
        { title: '出场时间', dataIndex: 'outtime' },
        { title: '应付', dataIndex: 'total_fee', align: 'right' },
        { title: '实付', dataIndex: 'pay_fee', align: 'right' },
        { title: '车辆类型', dataIndex: 'car_type' },
        { title: '放行原因', dataIndex: 'reason' },
      ]}
    />
  );
}

export const SignupTab = ({ house }: { house: HouseRef }) => (
  <HouseTab
    method="housesignuplist"
    house={house}
    testId="tab-signup"
    rowKey={(r) => `${r.id}-${r.realname}-${r.create_time}`}
    filters={[{ kind: 'text', name: 'title', placeholder: '活动标题（回车查询）' }]}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '活动', dataIndex: 'title' },
      { title: '报名人', dataIndex: 'realname' },
      { title: '人数上限', dataIndex: 'limit_num' },
      { title: '已报名', dataIndex: 'totle_num' },
      { title: '参与对象', dataIndex: 'join_type_ch' },
      { title: '是否收费', dataIndex: 'is_pay_ch' },
      { title: '状态', dataIndex: 'status', render: (s: string, r) => <Tag color={ACTIVITY_COLOR(s)}>{r.status_ch}</Tag> },
      { title: '报名时间', render: (_, r) => `${r.start_time} ~ ${r.end_time}` },
      { title: '活动时间', render: (_, r) => `${r.event_start_time} ~ ${r.event_end_time}` },
      { title: '创建人', dataIndex: 'create_user' },
      { title: '创建时间', dataIndex: 'create_time' },
    ]}
  />
);

export function CurrentTab({ house }: { house: HouseRef }) {
  const devices = useOptions(async () =>
    (await call('access_device_small_list', {}, { silent: true })).items.map((d) => ({ value: d.id, label: d.title })),
  );
  return (
    <HouseTab
      method="housecurrentlist"
      house={house}
      testId="tab-current"
      filters={[{ kind: 'select', name: 'device', placeholder: '门禁设备', options: devices }]}
      columns={[
        { title: '设备', dataIndex: 'room_name' },
        { title: '地址', dataIndex: 'address' },
        { title: '通行人', dataIndex: 'realname' },
        { title: '通行时间', dataIndex: 'rec_time' },
      ]}
    />
  );
}

export const FaceTab = ({ house }: { house: HouseRef }) => (
  <HouseTab
    method="housefacelist"
    house={house}
    testId="tab-face"
    filters={[{ kind: 'dateRange', names: ['start_date', 'end_date'] }]}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '住户', dataIndex: 'realname' },
      { title: '区域', dataIndex: 'area_title' },
      { title: '通行时段', render: (_, r) => `${r.door_start_time} ~ ${r.door_end_time}` },
      { title: '状态', dataIndex: 'status', render: (s: string, r) => <Tag color={FACE_COLOR[s] ?? 'processing'}>{r.status_ch}</Tag> },
      { title: '提交人', dataIndex: 'create_user' },
      { title: '提交时间', dataIndex: 'create_time' },
    ]}
  />
);
