import { valueEnum } from '@wuye/contract/kit/resource';
import { useState } from 'react';
import { Button, Image, Space } from 'antd';
import type { FeeBillRow } from '@wuye/contract';
import { useNavigate } from 'react-router';
import { request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import type { HouseRef } from '../shared';
import HouseTab, { type TabFilter } from './HouseTab';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { EnumTag, type Filters } from '../../../components/resource';
import { BILL_CHECK, BILL_STATUS } from '@wuye/contract/fees';
import { CAR_STATUS } from '@wuye/contract/owners/cars';
import {
  ACTIVITY_STATUS,
  FACE_STATUS,
  LEDGER_PAY_STATUS,
  PASS_RESULT,
  SPACE_STATUS,
  VISITOR_STATUS,
  type BalanceItem,
  type ParkingRecordItem,
} from '@wuye/contract/owners';
import { moneyColumn } from '../../../components/Money';

/* The tabs' filters (docs/product.md#owner-drawer-tabs): text runs on Enter, choices at once. */
const BILL_FILTERS: Record<string, TabFilter> = {
  cost_types: { label: '费用类型', widget: { small: 'feebill_cate_small_list', multiple: true } },
  title: { label: '账单标题' },
  status: { label: '状态', enum: BILL_STATUS },
  min_fee: { label: '最小金额' },
  max_fee: { label: '最大金额' },
  is_check: { label: '是否审核', enum: BILL_CHECK },
  keyword: { label: '关键字' },
};
const PLATE_FILTER: Record<string, TabFilter> = { carlicense: { label: '车牌号', placeholder: '车牌号（回车查询）' } };
const HOUSE_FILTER: Record<string, TabFilter> = { keyword: { label: '关键字', placeholder: '姓名/手机号/地址' } };
const CARPORT_FILTER: Record<string, TabFilter> = { keyword: { label: '关键字', placeholder: '车位号/车牌号' } };
const VISITOR_FILTER: Record<string, TabFilter> = { keyword: { label: '关键字', placeholder: '访客姓名/手机号/事由' } };
const STORE_FILTER: Record<string, TabFilter> = { mid: { label: '消费门店', widget: { small: 'merchant_auth_small_list' } } };
/** the balance tab lists consumption (io_type 2, the spec's default); money coming in on asking */
const BALANCE_DIRECTION = valueEnum({ '2': { text: '支出（消费）' }, '1': { text: '收入（充值、赠送、退回）', tone: 'success' } });
const BALANCE_FILTERS: Record<string, TabFilter> = {
  ...STORE_FILTER,
  io_type: { label: '收支', enum: BALANCE_DIRECTION, widget: 'select' },
};
const INOUT_FILTERS: Record<string, TabFilter> = {
  parkid: { label: '停车场', widget: { small: 'car_parking_small_list' } },
  carno: { label: '车牌号', placeholder: '车牌号（回车查询）' },
};
const SIGNUP_FILTER: Record<string, TabFilter> = { title: { label: '活动标题', placeholder: '活动标题（回车查询）' } };
const DEVICE_FILTER: Record<string, TabFilter> = { device: { label: '门禁设备', widget: { small: 'access_device_small_list' } } };
const FACE_FILTER: Record<string, TabFilter> = { dates: { label: '提交日期', widget: 'dateRange' } };
/** housefacelist takes the range as its two days */
const faceDates = ({ dates, ...rest }: Filters) => {
  const [start_date, end_date] = Array.isArray(dates) ? dates : [];
  return { ...rest, start_date, end_date };
};

export function BillTab({ house }: { house: HouseRef }) {
  const navigate = useNavigate();
  const confirmDelete = useConfirmDelete();
  const [reloadKey, setReloadKey] = useState(0);
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
      filters={BILL_FILTERS}
      columns={[
        { title: '编号', dataIndex: 'id', width: 80 },
        { title: '账单', dataIndex: 'title' },
        { title: '房屋', render: (_, r) => `${r.building_title}${r.unit_title}${r.house_title}` },
        { title: '账期', dataIndex: 'daterange' },
        { title: '用量', dataIndex: 'measure' },
        moneyColumn<FeeBillRow>('金额', 'fee', { empty: '—' }),
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
    filters={PLATE_FILTER}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '车主', dataIndex: 'realname' },
      { title: '手机号', dataIndex: 'mobile' },
      { title: '车牌号', dataIndex: 'carlicense' },
      { title: '类型', dataIndex: 'car_type_ch' },
      { title: '状态', dataIndex: 'status', render: (s: string) => <EnumTag enum={CAR_STATUS} value={s} /> },
      { title: '登记时间', dataIndex: 'create_time' },
    ]}
  />
);

export const HouseListTab = ({ house }: { house: HouseRef }) => (
  <HouseTab
    method="member_otherhouse_list"
    house={house}
    testId="tab-house"
    filters={HOUSE_FILTER}
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
    filters={CARPORT_FILTER}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '停车场', dataIndex: 'parktitle' },
      { title: '车位号', dataIndex: 'title' },
      { title: '绑定车牌', dataIndex: 'carlicense' },
      { title: '使用人', dataIndex: 'realname' },
      { title: '状态', dataIndex: 'status', render: (s: string) => <EnumTag enum={SPACE_STATUS} value={s} /> },
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
    filters={VISITOR_FILTER}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '到访房屋', dataIndex: 'address' },
      { title: '访客', dataIndex: 'realname' },
      { title: '手机号', dataIndex: 'mobile' },
      { title: '来访事由', dataIndex: 'visit_cause' },
      { title: '状态', dataIndex: 'status', render: (s: string) => <EnumTag enum={VISITOR_STATUS} value={s} /> },
      { title: '来访时间', dataIndex: 'visit_time' },
    ]}
  />
);

export function BonusTab({ house }: { house: HouseRef }) {
  return (
    <HouseTab
      method="homebonuslist"
      house={house}
      testId="tab-bonus"
      filters={STORE_FILTER}
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
  return (
    <HouseTab
      method="homeconsumelist"
      house={house}
      testId="tab-balance"
      fixed={{ io_type: 2 }}
      filters={BALANCE_FILTERS}
      columns={[
        { title: '门店', dataIndex: 'merchant' },
        { title: '订单号', dataIndex: 'orderid' },
        { title: '消费类型', dataIndex: 'feetype_ch' },
        { title: '支付方式', dataIndex: 'paytype_ch' },
        moneyColumn<BalanceItem>('金额', 'total_fee', { empty: '—' }),
        { title: '支付状态', dataIndex: 'status', render: (s: string) => <EnumTag enum={LEDGER_PAY_STATUS} value={s} /> },
        { title: '操作人', dataIndex: 'create_user' },
        { title: '日期', dataIndex: 'create_time' },
      ]}
    />
  );
}

export function CarInoutTab({ house }: { house: HouseRef }) {
  return (
    <HouseTab
      method="housecarinoutlist"
      house={house}
      testId="tab-carinout"
      filters={INOUT_FILTERS}
      columns={[
        { title: '编号', dataIndex: 'id', width: 80 },
        { title: '停车场', dataIndex: 'parktitle' },
        { title: '车牌号', dataIndex: 'carno' },
        { title: '入场车道', dataIndex: 'inlane' },
        { title: '入场时间', dataIndex: 'intime' },
        { title: '出场车道', dataIndex: 'outlane' },
        { title: '出场时间', dataIndex: 'outtime' },
        moneyColumn<ParkingRecordItem>('应付', 'total_fee', { empty: '—' }),
        moneyColumn<ParkingRecordItem>('实付', 'pay_fee', { empty: '—' }),
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
    filters={SIGNUP_FILTER}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '活动', dataIndex: 'title' },
      { title: '报名人', dataIndex: 'realname' },
      { title: '人数上限', dataIndex: 'limit_num' },
      { title: '已报名', dataIndex: 'totle_num' },
      { title: '参与对象', dataIndex: 'join_type_ch' },
      { title: '是否收费', dataIndex: 'is_pay_ch' },
      { title: '状态', dataIndex: 'status', render: (s: string) => <EnumTag enum={ACTIVITY_STATUS} value={s} /> },
      { title: '报名时间', render: (_, r) => `${r.start_time} ~ ${r.end_time}` },
      { title: '活动时间', render: (_, r) => `${r.event_start_time} ~ ${r.event_end_time}` },
      { title: '创建人', dataIndex: 'create_user' },
      { title: '创建时间', dataIndex: 'create_time' },
    ]}
  />
);

export function CurrentTab({ house }: { house: HouseRef }) {
  return (
    <HouseTab
      method="housecurrentlist"
      house={house}
      testId="tab-current"
      filters={DEVICE_FILTER}
      columns={[
        { title: '通行时间', dataIndex: 'rec_time' },
        { title: '设备', dataIndex: 'room_name' },
        { title: '地址', dataIndex: 'address' },
        { title: '通行人', dataIndex: 'realname', render: (v: string) => v || '陌生人' },
        { title: '方式', dataIndex: 'method_ch' },
        { title: '相似度', dataIndex: 'similarity', render: (v: string) => v || '—' },
        { title: '抓拍', dataIndex: 'snapshot', render: (v: string) => (v ? <Image width={32} src={v} /> : '—') },
        { title: '结果', dataIndex: 'result', render: (v: string) => <EnumTag enum={PASS_RESULT} value={v} /> },
      ]}
    />
  );
}

export const FaceTab = ({ house }: { house: HouseRef }) => (
  <HouseTab
    method="housefacelist"
    house={house}
    testId="tab-face"
    filters={FACE_FILTER}
    toPayload={faceDates}
    columns={[
      { title: '编号', dataIndex: 'id', width: 80 },
      { title: '住户', dataIndex: 'realname' },
      { title: '区域', dataIndex: 'area_title' },
      { title: '通行时段', render: (_, r) => `${r.door_start_time} ~ ${r.door_end_time}` },
      { title: '状态', dataIndex: 'status', render: (s: string) => <EnumTag enum={FACE_STATUS} value={s} /> },
      { title: '提交人', dataIndex: 'create_user' },
      { title: '提交时间', dataIndex: 'create_time' },
    ]}
  />
);
