import { useState } from 'react';
import { Button, DatePicker, Form, Input, Select, Tooltip } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { GIVEN_STATE, PARK_COUPON_ROLES, type GivenCouponItem } from '@wuye/contract/carpark/coupons';
import { enumOptions } from '@wuye/contract/kit/resource';
import { request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { TextPromptModal } from '../../components/TextPromptModal';
import { moneyColumn } from '../../components/Money';
import { EnumTag, rangePickerPresets, SmallSelect, useCanWrite } from '../../components/resource';

interface FilterForm {
  merchant_id?: number;
  coupon_id?: number;
  carlicense?: string;
  state?: 'G' | 'U' | 'V' | 'E';
  dates?: [Dayjs, Dayjs] | null;
}
const toFilters = (v: FilterForm) => ({
  sort: 'desc' as const,
  merchant_id: v.merchant_id,
  coupon_id: v.coupon_id,
  carlicense: v.carlicense?.trim() || undefined,
  state: v.state ?? ('' as const),
  create_time: v.dates ? ([v.dates[0].format('YYYY-MM-DD'), v.dates[1].format('YYYY-MM-DD')] as [string, string]) : undefined,
});

/** 作废: a given coupon not used and within its day; it goes back to the merchant's stock. */
function VoidDialog({ row, onClose }: { row: GivenCouponItem | null; onClose: (done: boolean) => void }) {
  return (
    <TextPromptModal
      open={!!row}
      title={`作废停车劵 ${row?.code ?? ''}`}
      label="原因"
      required="请填写作废原因"
      placeholder="如 车牌输错"
      danger
      testIds={{ text: 'receive-void-reason', ok: 'receive-void-ok' }}
      send={(reason) => request('parkcouponvoid', { id: row!.id, reason })}
      onDone={() => onClose(true)}
      onCancel={() => onClose(false)}
    >
      <p>作废后该劵不能再使用，并退回{row?.merchant}的库存。</p>
    </TextPromptModal>
  );
}

/** 停车劵领取记录 (/carpark/receivelist; docs/product.md#parking-coupons): given, used, voided and expired coupons. */
export default function ReceiveList() {
  const list = useList('receivelist', { sort: 'desc' });
  const canWrite = useCanWrite(PARK_COUPON_ROLES.write);
  const [voiding, setVoiding] = useState<GivenCouponItem | null>(null);
  const columns: TableColumnsType<GivenCouponItem> = [
    { title: '车牌号', dataIndex: 'carlicense', width: 110, fixed: 'left' },
    {
      title: '状态',
      dataIndex: 'state',
      width: 90,
      render: (v: string, r) => {
        const tag = <EnumTag enum={GIVEN_STATE} value={v} />;
        return (
          <span data-testid={`receive-state-${r.id}`}>
            {v === 'V' ? <Tooltip title={`${r.void_reason}（${r.voided_at}）`}>{tag}</Tooltip> : tag}
          </span>
        );
      },
    },
    { title: '商户', dataIndex: 'merchant', width: 130 },
    { title: '停车劵', dataIndex: 'coupon_title', width: 130 },
    { title: '面值', dataIndex: 'face', width: 90 },
    { title: '停车场', dataIndex: 'lot_title', width: 130 },
    { title: '有效期至', dataIndex: 'valid_to', width: 170 },
    { title: '使用时间', dataIndex: 'used_at', width: 170 },
    moneyColumn('减免', 'used_amount', { width: 100 }),
    { title: '券号', dataIndex: 'code', width: 170 },
    { title: '发放人', dataIndex: 'operator', width: 90 },
    { title: '发放时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 80,
      render: (_, r) =>
        canWrite &&
        r.state === 'G' && (
          <Button type="link" size="small" danger onClick={() => setVoiding(r)} data-testid={`receive-void-${r.id}`}>
            作废
          </Button>
        ),
    },
  ];
  return (
    <>
      <TablePage<GivenCouponItem, FilterForm>
        testId="receive-page"
        title="停车劵领取记录"
        list={list}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 1500 } }}
        onSearch={(v) => list.setFilters(toFilters(v))}
        onExport={(v) => runExport('receiveexport', toFilters(v))}
        filters={
          <>
            <Form.Item name="carlicense" label="车牌号">
              <Input allowClear style={{ width: 120 }} data-testid="receive-plate" />
            </Form.Item>
            <Form.Item name="state" label="状态">
              <Select allowClear style={{ width: 100 }} options={enumOptions(GIVEN_STATE)} data-testid="receive-state" />
            </Form.Item>
            <Form.Item name="merchant_id" label="商户">
              <SmallSelect widget={{ small: 'merchant_auth_small_list' }} values={{}} style={{ width: 150 }} allowClear />
            </Form.Item>
            <Form.Item name="coupon_id" label="停车劵">
              <SmallSelect widget={{ small: 'parkcoupon_small_list' }} values={{}} style={{ width: 150 }} allowClear />
            </Form.Item>
            <Form.Item name="dates" label="发放日期">
              <DatePicker.RangePicker inputReadOnly presets={rangePickerPresets()} style={{ maxWidth: 240 }} />
            </Form.Item>
          </>
        }
      />
      <VoidDialog
        row={voiding}
        onClose={(done) => {
          setVoiding(null);
          if (done) list.reload();
        }}
      />
    </>
  );
}
