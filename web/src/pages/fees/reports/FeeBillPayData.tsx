import { useState } from 'react';
import { DatePicker, Input, Select, Space, Statistic, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { COST_TYPE_CH, PAY_TYPE_CH, PAY_TYPES, type PayTypeName } from '@wuye/contract/fees';
import { FEE_ROLES } from '@wuye/contract/fees/roles';
import { PAYDATA_LINE_STATUS, PAYDATA_MAX_DAYS, type PaydataRow } from '@wuye/contract/fees/paydata';
import { LIMITS } from '@wuye/contract/codes';
import { hasAnyRole } from '@wuye/contract/roles';
import { call } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { useSmallList } from '../../../components/resource';
import { useUser } from '../../../stores/user';
import { RoomSelects, type RoomPick } from '../shared';
import ReportCard from './ReportCard';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';

/**
 * 缴费明细 (/feecounts/feebillpaydata; docs/product.md#pay-data): every paid bill line of a range of
 * receipt days, any fee item, with the filters' totals (voided receipts listed, counted nowhere).
 */
export default function FeeBillPayData() {
  const roles = useUser((s) => s.roles);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().startOf('month'), dayjs()]);
  const [itemId, setItemId] = useState<number | undefined>();
  const [costType, setCostType] = useState<string | undefined>();
  const [place, setPlace] = useState<RoomPick>({});
  const [payType, setPayType] = useState<PayTypeName | undefined>();
  const [cashier, setCashier] = useState('');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ page: 1, limit: LIMITS.pageSize as number });
  // the item list is the fee roles' dropdown; a report-only account filters by category
  const items = useSmallList('feethinglist', hasAnyRole(roles, FEE_ROLES.read) ? {} : null).items;
  const filters = {
    start_date: range[0].format('YYYY-MM-DD'),
    end_date: range[1].format('YYYY-MM-DD'),
    item_id: itemId,
    cost_type: costType,
    bid: place.bid,
    pay_type: payType,
    cashier: cashier || undefined,
    keyword: keyword || undefined,
  };
  const payload = { ...filters, ...page, sort: 'desc' as const };
  const q = useQuery({ queryKey: ['feebillpaydata', payload], queryFn: () => call('feebillpaydata', payload), retry: false });
  const first =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage((p) => ({ ...p, page: 1 }));
    };
  const t = q.data?.totals;
  return (
    <ReportCard
      title="缴费明细"
      testId="feebillpaydata-page"
      onExport={() => runExport('feebillpaydataexport', filters)}
      filters={
        <>
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            inputReadOnly
            data-testid="paydata-range"
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            onChange={(v) => {
              if (!v?.[0] || !v[1]) return;
              // at most a year: a longer pick keeps its end and starts a year before it
              const from = v[1].diff(v[0], 'day') + 1 > PAYDATA_MAX_DAYS ? v[1].subtract(PAYDATA_MAX_DAYS - 1, 'day') : v[0];
              first(setRange)([from, v[1]]);
            }}
          />
          {items.length > 0 && (
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="收费项目"
              style={{ width: 150 }}
              value={itemId}
              data-testid="paydata-item"
              options={items.map((i) => ({ value: i.id, label: i.title }))}
              onChange={first((v?: number) => setItemId(v))}
            />
          )}
          <Select
            allowClear
            placeholder="收费类别"
            style={{ width: 120 }}
            value={costType}
            data-testid="paydata-cost-type"
            options={Object.entries(COST_TYPE_CH).map(([value, label]) => ({ value, label }))}
            onChange={first((v?: string) => setCostType(v))}
          />
          <RoomSelects value={place} onChange={first((v: RoomPick) => setPlace({ bid: v.bid }))} withRoom={false} testId="paydata-place" />
          <Select
            allowClear
            placeholder="支付方式"
            style={{ width: 110 }}
            value={payType}
            data-testid="paydata-pay-type"
            options={PAY_TYPES.map((p) => ({ value: p, label: PAY_TYPE_CH[p] }))}
            onChange={first((v?: PayTypeName) => setPayType(v))}
          />
          <Input.Search
            allowClear
            placeholder="收款人"
            style={{ width: 130 }}
            data-testid="paydata-cashier"
            onSearch={(v) => first(setCashier)(v.trim())}
          />
          <Input.Search
            allowClear
            placeholder="房号/收据号"
            style={{ width: 170 }}
            data-testid="paydata-keyword"
            onSearch={(v) => first(setKeyword)(v.trim())}
          />
        </>
      }
    >
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="paydata-totals">
          <Statistic title="笔数" value={t.count} data-testid="paydata-count" />
          <MoneyStatistic title="应收" value={t.fee} />
          <MoneyStatistic title="优惠" value={t.discount} />
          <MoneyStatistic title="滞纳金" value={t.late_fee} />
          <MoneyStatistic title="实收" value={t.received} data-testid="paydata-received" />
          {t.voided > 0 && <Typography.Text type="secondary">另有 {t.voided} 笔已作废收据的明细，不计入合计</Typography.Text>}
        </Space>
      )}
      <Table<PaydataRow>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        data-testid="feebillpaydata-table"
        pagination={{
          current: page.page,
          pageSize: page.limit,
          total: q.data?.total ?? 0,
          showTotal: (n) => `共 ${n} 条`,
          onChange: (p, l) => setPage({ page: p, limit: l }),
        }}
        columns={[
          { title: '收据号', dataIndex: 'receipt_no' },
          { title: '房屋', dataIndex: 'address' },
          { title: '业主', dataIndex: 'payer_name' },
          { title: '收费项目', dataIndex: 'title' },
          {
            title: '账期/计费周期',
            dataIndex: 'period',
            render: (p: string, r) => (r.daterange ? `${p}（${r.daterange}）` : p),
          },
          moneyColumn('应收', 'fee'),
          moneyColumn('优惠', 'discount'),
          moneyColumn('滞纳金', 'late_fee'),
          moneyColumn('实收', 'received'),
          { title: '支付方式', dataIndex: 'pay_type_ch' },
          { title: '收款人', dataIndex: 'cashier_name' },
          { title: '收款时间', dataIndex: 'create_time' },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: PaydataRow['status'], r) => (
              <Tag color={s === 'normal' ? 'success' : s === 'refunded' ? 'warning' : 'default'}>
                {r.status_ch || PAYDATA_LINE_STATUS[s].text}
              </Tag>
            ),
          },
        ]}
      />
    </ReportCard>
  );
}
