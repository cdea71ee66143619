import { useEffect, useState } from 'react';
import { Button, DatePicker, Descriptions, Drawer, Form, Input, List, Select, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { GATE_REASON, STAY_CAR_TYPES, STAY_STATE, type GateReason, type StayInfo, type StayItem } from '@wuye/contract/carpark/gate';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { Money, moneyColumn } from '../../components/Money';
import { EnumTag, rangePickerPresets, SmallSelect } from '../../components/resource';
import { FeeBreakdown, minutesText } from './FeeBreakdown';

interface FilterForm {
  lot_id?: number;
  carno?: string;
  state?: 'I' | 'P' | 'O';
  car_type?: (typeof STAY_CAR_TYPES)[number];
  reason?: GateReason;
  intime?: [Dayjs, Dayjs] | null;
  outtime?: [Dayjs, Dayjs] | null;
}
const day = (r?: [Dayjs, Dayjs] | null) => (r ? ([r[0].format('YYYY-MM-DD'), r[1].format('YYYY-MM-DD')] as [string, string]) : undefined);
const toFilters = (v: FilterForm) => ({
  sort: 'desc' as const,
  lot_id: v.lot_id,
  carno: v.carno?.trim() || undefined,
  state: v.state ?? ('' as const),
  car_type: v.car_type ?? ('' as const),
  reason: v.reason ?? ('' as const),
  intime: day(v.intime),
  outtime: day(v.outtime),
});

/** A stay: its times, why the gates opened, how it was priced, its receipts and every decision on it. */
export function StayDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const [info, setInfo] = useState<StayInfo | null>(null);
  useEffect(() => {
    setInfo(null);
    if (id) call('carinoutinfo', { id }).then(setInfo, () => undefined);
  }, [id]);
  return (
    <Drawer open={!!id} onClose={onClose} title={info ? `停车记录 ${info.carno}` : '停车记录'} width={720} destroyOnHidden>
      {info && (
        <div data-testid="stay-info">
          <Descriptions size="small" bordered column={{ xs: 1, sm: 2 }}>
            <Descriptions.Item label="停车场">{info.lot_title}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <EnumTag enum={STAY_STATE} value={info.state} />
            </Descriptions.Item>
            <Descriptions.Item label="车辆类型">
              {info.car_type}（{info.car_kind_ch}）
            </Descriptions.Item>
            <Descriptions.Item label="房屋">{info.room || '—'}</Descriptions.Item>
            <Descriptions.Item label="入场">
              {info.intime} {info.inlane}
            </Descriptions.Item>
            <Descriptions.Item label="入场原因">{info.entry_reason_ch}</Descriptions.Item>
            <Descriptions.Item label="出场">{info.outtime ? `${info.outtime} ${info.outlane}` : '—'}</Descriptions.Item>
            <Descriptions.Item label="出场原因">{info.exit_reason_ch || '—'}</Descriptions.Item>
            <Descriptions.Item label="停车时长">{minutesText(info.minutes)}</Descriptions.Item>
            <Descriptions.Item label="应收 / 实收">
              <Money value={info.total_fee} /> / <Money value={info.pay_fee} />
            </Descriptions.Item>
            {info.manual_by && (
              <Descriptions.Item label="人工放行" span={2}>
                {info.manual_by}：{info.manual_note}
              </Descriptions.Item>
            )}
            {info.read_plate && (
              <Descriptions.Item label="原识别车牌" span={2}>
                {info.read_plate}
              </Descriptions.Item>
            )}
          </Descriptions>
          {info.breakdown && (
            <>
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                计费明细
              </Typography.Title>
              <FeeBreakdown
                b={info.breakdown}
                version={`${info.breakdown.version_from} 起生效的版本，自 ${info.breakdown.from} 计费`}
                testId="stay"
              />
            </>
          )}
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            收据
          </Typography.Title>
          <List
            size="small"
            dataSource={info.receipts}
            locale={{ emptyText: '无' }}
            renderItem={(r) => (
              <List.Item>
                {r.receipt_no} · <Money value={r.paid_amount} unit="¥" /> · {r.pay_type_ch} · {r.cashier_name} · {r.create_time}
              </List.Item>
            )}
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            车道判定
          </Typography.Title>
          <List
            size="small"
            dataSource={info.events}
            renderItem={(e) => (
              <List.Item>
                {e.at} {e.lane_title}（{e.direction_ch}）· {e.decision_ch} · {e.reason_ch}
                {e.operator && ` · ${e.operator}`} · {e.content}
              </List.Item>
            )}
          />
        </div>
      )}
    </Drawer>
  );
}

/** 车辆进出 (/carpark/carInout; docs/product.md#parking-gates): every stay with its lanes, times, fees and reasons. */
export default function CarInout() {
  const list = useList('carinoutlist', { sort: 'desc' });
  const [open, setOpen] = useState<number | null>(null);
  const columns: TableColumnsType<StayItem> = [
    { title: '车牌号', dataIndex: 'carno', width: 110, fixed: 'left' },
    { title: '状态', dataIndex: 'state', width: 90, render: (v: string) => <EnumTag enum={STAY_STATE} value={v} /> },
    { title: '车辆类型', dataIndex: 'car_type', width: 90 },
    { title: '停车场', dataIndex: 'lot_title', width: 130 },
    { title: '入场车道', dataIndex: 'inlane', width: 110 },
    { title: '入场时间', dataIndex: 'intime', width: 170 },
    { title: '出场车道', dataIndex: 'outlane', width: 110 },
    { title: '出场时间', dataIndex: 'outtime', width: 170 },
    { title: '停车时长', dataIndex: 'minutes', width: 110, render: (m: number) => minutesText(m) },
    moneyColumn('应收', 'total_fee', { width: 90 }),
    moneyColumn('实收', 'pay_fee', { width: 90 }),
    { title: '放行原因', dataIndex: 'reason', width: 180, ellipsis: true },
    { title: '房屋', dataIndex: 'room', width: 160, ellipsis: true },
    {
      title: '操作',
      key: 'op',
      width: 70,
      fixed: 'right',
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => setOpen(r.id)} data-testid={`inout-info-${r.id}`}>
          详情
        </Button>
      ),
    },
  ];
  return (
    <>
      <TablePage<StayItem, FilterForm>
        testId="inout-page"
        title="车辆进出记录"
        list={list}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 1700 } }}
        onSearch={(v) => list.setFilters(toFilters(v))}
        onExport={(v) => runExport('carinoutexport', toFilters(v))}
        filters={
          <>
            <Form.Item name="carno" label="车牌号">
              <Input allowClear style={{ width: 120 }} data-testid="inout-plate" />
            </Form.Item>
            <Form.Item name="lot_id" label="停车场">
              <SmallSelect widget={{ small: 'carpark_small_list' }} values={{}} style={{ width: 150 }} allowClear />
            </Form.Item>
            <Form.Item name="state" label="状态">
              <Select allowClear style={{ width: 100 }} options={enumOptions(STAY_STATE)} data-testid="inout-state" />
            </Form.Item>
            <Form.Item name="car_type" label="车辆类型">
              <Select allowClear style={{ width: 110 }} options={STAY_CAR_TYPES.map((t) => ({ value: t, label: t }))} />
            </Form.Item>
            <Form.Item name="reason" label="放行原因">
              <Select allowClear style={{ width: 140 }} options={enumOptions(GATE_REASON)} data-testid="inout-reason" />
            </Form.Item>
            <Form.Item name="intime" label="入场日期">
              <DatePicker.RangePicker inputReadOnly presets={rangePickerPresets()} style={{ maxWidth: 240 }} />
            </Form.Item>
            <Form.Item name="outtime" label="出场日期">
              <DatePicker.RangePicker inputReadOnly presets={rangePickerPresets()} style={{ maxWidth: 240 }} />
            </Form.Item>
          </>
        }
      />
      <StayDrawer id={open} onClose={() => setOpen(null)} />
    </>
  );
}
