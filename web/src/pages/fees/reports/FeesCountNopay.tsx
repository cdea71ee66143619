import { useState } from 'react';
import { Input, Statistic, Space, Table } from 'antd';
import type { ArrearsRow } from '@wuye/contract/fees';
import { useQuery } from '@tanstack/react-query';
import { LIMITS } from '@wuye/contract/codes';
import { call } from '../../../api/client';
import { RoomSelects, type RoomPick } from '../shared';
import ReportCard from './ReportCard';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';

export const AGING_COLUMNS = [
  moneyColumn<ArrearsRow>('0-30天', 'd0_30'),
  moneyColumn<ArrearsRow>('31-90天', 'd31_90'),
  moneyColumn<ArrearsRow>('91-180天', 'd91_180'),
  moneyColumn<ArrearsRow>('181-365天', 'd181_365'),
  moneyColumn<ArrearsRow>('365天以上', 'd365_plus'),
];

/** 欠费统计 (/feecounts/fees_count_nopay): arrears by room with aging buckets. */
export default function FeesCountNopay() {
  const [place, setPlace] = useState<RoomPick>({});
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState<{ page: number; limit: number }>({ page: 1, limit: LIMITS.pageSize });
  const payload = { bid: place.bid, tid: place.tid, keyword: keyword || undefined, ...page, sort: 'desc' as const };
  const q = useQuery({ queryKey: ['fees_count_nopay', payload], queryFn: () => call('fees_count_nopay', payload), retry: false });
  const t = q.data?.totals;
  return (
    <ReportCard
      title="欠费统计"
      testId="nopay-page"
      exportPayload={{ report: 'fees_count_nopay', bid: place.bid, tid: place.tid, keyword: keyword || undefined }}
      filters={
        <>
          <RoomSelects
            value={place}
            onChange={(v) => {
              setPlace(v);
              setPage({ ...page, page: 1 });
            }}
            withRoom={false}
            testId="nopay-place"
          />
          <Input.Search
            allowClear
            placeholder="房号"
            style={{ width: 160 }}
            onSearch={(v) => {
              setKeyword(v);
              setPage({ ...page, page: 1 });
            }}
          />
        </>
      }
    >
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }}>
          <Statistic title="欠费户数" value={t.rooms} />
          <MoneyStatistic title="欠费合计" value={t.arrears} />
          <MoneyStatistic title="365天以上" value={t.d365_plus} />
        </Space>
      )}
      <Table<ArrearsRow>
        rowKey="hid"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page.page,
          pageSize: page.limit,
          total: q.data?.total ?? 0,
          onChange: (p, l) => setPage({ page: p, limit: l }),
        }}
        columns={[
          { title: '房屋', dataIndex: 'address' },
          { title: '业主', dataIndex: 'owner_name' },
          { title: '电话', dataIndex: 'mobile' },
          { title: '欠费账单', dataIndex: 'bill_count' },
          moneyColumn('欠费', 'arrears'),
          moneyColumn('滞纳金', 'late_fee'),
          moneyColumn('合计', 'total'),
          ...AGING_COLUMNS,
        ]}
      />
    </ReportCard>
  );
}
