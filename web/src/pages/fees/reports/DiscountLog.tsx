import { useState } from 'react';
import { Button, DatePicker, Input, Select, Space, Statistic, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { discountFlow } from '@wuye/contract/fees/discount';
import {
  DISCOUNT_RECORD_KIND,
  DISCOUNT_RECORD_STATUS,
  PAYDATA_MAX_DAYS,
  type DiscountRecordKind,
  type DiscountRecordRow,
  type DiscountRecordStatus,
} from '@wuye/contract/fees/paydata';
import { LIMITS } from '@wuye/contract/codes';
import { call } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { EnumTag, useRequestLog } from '../../../components/resource';
import ReportCard from './ReportCard';
import { formatMoney, MoneyStatistic, moneyColumn } from '../../../components/Money';

/**
 * 优惠记录 (/feecounts/discountlog; docs/product.md#pay-data): the discounts granted in a range, from
 * approved applications (with those approved and not used yet, and the rejected) and the cashier's
 * own 减免 on receipts, each kind totalled; an application's number opens its log (discountlog).
 */
export default function DiscountLog() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().startOf('month'), dayjs()]);
  const [kind, setKind] = useState<DiscountRecordKind | undefined>();
  const [status, setStatus] = useState<DiscountRecordStatus | undefined>();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ page: 1, limit: LIMITS.pageSize as number });
  const log = useRequestLog<{ id: number; amount: string }>(
    discountFlow,
    (r) => `优惠申请 #${r.id} · ${formatMoney(r.amount, { unit: '元' })}`,
  );
  const filters = {
    start_date: range[0].format('YYYY-MM-DD'),
    end_date: range[1].format('YYYY-MM-DD'),
    kind,
    status,
    keyword: keyword || undefined,
  };
  const payload = { ...filters, ...page, sort: 'desc' as const };
  const q = useQuery({ queryKey: ['discountrecordlist', payload], queryFn: () => call('discountrecordlist', payload), retry: false });
  const first =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage((p) => ({ ...p, page: 1 }));
    };
  return (
    <>
      <ReportCard
        title="优惠记录"
        testId="discountlog-page"
        onExport={() => runExport('discountrecordexport', filters)}
        filters={
          <>
            <DatePicker.RangePicker
              value={range}
              allowClear={false}
              inputReadOnly
              data-testid="discountlog-range"
              disabledDate={(d) => d.isAfter(dayjs(), 'day')}
              onChange={(v) => {
                if (!v?.[0] || !v[1]) return;
                const from = v[1].diff(v[0], 'day') + 1 > PAYDATA_MAX_DAYS ? v[1].subtract(PAYDATA_MAX_DAYS - 1, 'day') : v[0];
                first(setRange)([from, v[1]]);
              }}
            />
            <Select
              allowClear
              placeholder="类型"
              style={{ width: 130 }}
              value={kind}
              data-testid="discountlog-kind"
              options={enumOptions(DISCOUNT_RECORD_KIND)}
              onChange={first((v?: DiscountRecordKind) => setKind(v))}
            />
            <Select
              allowClear
              placeholder="状态"
              style={{ width: 110 }}
              value={status}
              data-testid="discountlog-status"
              options={enumOptions(DISCOUNT_RECORD_STATUS)}
              onChange={first((v?: DiscountRecordStatus) => setStatus(v))}
            />
            <Input.Search
              allowClear
              placeholder="房号/收据号"
              style={{ width: 170 }}
              data-testid="discountlog-keyword"
              onSearch={(v) => first(setKeyword)(v.trim())}
            />
          </>
        }
      >
        {q.data && (
          <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="discountlog-totals">
            {q.data.totals.map((t) => (
              <Space key={t.kind} size="middle" data-testid={`discountlog-total-${t.kind}`}>
                <Statistic title={`${t.kind_ch}笔数`} value={t.count} />
                <MoneyStatistic title={`${t.kind_ch}优惠金额`} value={t.amount} />
              </Space>
            ))}
          </Space>
        )}
        <Table<DiscountRecordRow>
          rowKey="key"
          size="small"
          loading={q.isFetching}
          dataSource={q.data?.items ?? []}
          scroll={{ x: 'max-content' }}
          data-testid="discountlog-table"
          pagination={{
            current: page.page,
            pageSize: page.limit,
            total: q.data?.total ?? 0,
            showTotal: (n) => `共 ${n} 条`,
            onChange: (p, l) => setPage({ page: p, limit: l }),
          }}
          columns={[
            { title: '类型', dataIndex: 'kind', render: (k: DiscountRecordKind) => <EnumTag enum={DISCOUNT_RECORD_KIND} value={k} /> },
            {
              title: '状态',
              dataIndex: 'status',
              render: (s: DiscountRecordStatus) => <EnumTag enum={DISCOUNT_RECORD_STATUS} value={s} />,
            },
            { title: '房屋', dataIndex: 'address' },
            { title: '收费项目', dataIndex: 'titles' },
            { title: '账期', dataIndex: 'periods' },
            moneyColumn('原应收', 'receivable'),
            moneyColumn('优惠金额', 'amount'),
            {
              title: '依据',
              dataIndex: 'basis',
              render: (basis: string, r) =>
                r.request_id ? (
                  <Space size={4} wrap>
                    <Button
                      type="link"
                      size="small"
                      style={{ padding: 0 }}
                      data-testid={`discountlog-open-${r.request_id}`}
                      onClick={() => log.open({ id: r.request_id, amount: r.amount })}
                    >
                      申请 #{r.request_id}
                    </Button>
                    <span>{basis.replace(`优惠申请 #${r.request_id}，`, '')}</span>
                  </Space>
                ) : (
                  basis
                ),
            },
            { title: '收款人', dataIndex: 'cashier_name' },
            { title: '收据号', dataIndex: 'receipt_no' },
            { title: '时间', dataIndex: 'time' },
          ]}
        />
      </ReportCard>
      {log.drawer}
    </>
  );
}
