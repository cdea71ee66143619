import { useState } from 'react';
import { DatePicker, Select, Space, Statistic, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { BILL_STATUS, type MonthLintingRow } from '@wuye/contract/fees';
import { FEE_ROLES } from '@wuye/contract/fees/roles';
import { LIMITS } from '@wuye/contract/codes';
import { call } from '../../../api/client';
import { useSmallList } from '../../../components/resource';
import { hasAnyRole } from '@wuye/contract/roles';
import { useUser } from '../../../stores/user';
import { RoomSelects, type RoomPick } from '../shared';
import ReportCard from './ReportCard';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';

type Status = '' | 'E' | 'Y' | 'N';

/** 月度收缴明细 (/feecounts/month_linting): one period's bills per room and item, paid or not. */
export default function MonthLinting() {
  const roles = useUser((s) => s.roles);
  const [month, setMonth] = useState<Dayjs>(dayjs());
  const [place, setPlace] = useState<RoomPick>({});
  const [itemid, setItemid] = useState<number | undefined>();
  const [status, setStatus] = useState<Status>('');
  const [page, setPage] = useState({ page: 1, limit: LIMITS.pageSize as number });
  // the item list is the fee roles' dropdown; a report-only account filters without it
  const items = useSmallList('feethinglist', hasAnyRole(roles, FEE_ROLES.read) ? {} : null).items;
  const filters = { period: month.format('YYYY-MM'), bid: place.bid, tid: place.tid, itemid, status };
  const payload = { ...filters, ...page, sort: 'asc' as const };
  const q = useQuery({ queryKey: ['month_linting', payload], queryFn: () => call('month_linting', payload), retry: false });
  const first =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage((p) => ({ ...p, page: 1 }));
    };
  const t = q.data?.totals;
  return (
    <ReportCard
      title="月度收缴明细"
      testId="month-linting-page"
      exportPayload={{ report: 'month_linting', ...filters }}
      filters={
        <>
          <DatePicker
            picker="month"
            value={month}
            allowClear={false}
            inputReadOnly
            data-testid="linting-month"
            onChange={(d) => d && first(setMonth)(d)}
          />
          <RoomSelects value={place} onChange={first(setPlace)} withRoom={false} testId="linting-place" />
          {items.length > 0 && (
            <Select
              allowClear
              placeholder="收费项目"
              style={{ width: 150 }}
              value={itemid}
              data-testid="linting-item"
              options={items.map((i) => ({ value: i.id, label: i.title }))}
              onChange={first((v?: number) => setItemid(v))}
            />
          )}
          <Select<Status>
            style={{ width: 110 }}
            value={status}
            data-testid="linting-status"
            options={[
              { value: '', label: '全部状态' },
              ...(['E', 'Y', 'N'] as const).map((s) => ({ value: s, label: BILL_STATUS[s].text })),
            ]}
            onChange={first(setStatus)}
          />
        </>
      }
    >
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="linting-totals">
          <Statistic title="账单数" value={q.data?.total ?? 0} />
          <MoneyStatistic title="应收" value={t.receivable} />
          <MoneyStatistic title="实收" value={t.received} />
          <MoneyStatistic title="未收" value={t.unpaid} />
        </Space>
      )}
      <Table<MonthLintingRow>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        data-testid="month-linting-table"
        pagination={{
          current: page.page,
          pageSize: page.limit,
          total: q.data?.total ?? 0,
          onChange: (p, l) => setPage({ page: p, limit: l }),
        }}
        columns={[
          { title: '房屋', dataIndex: 'address' },
          { title: '业主', dataIndex: 'owner_name' },
          { title: '收费项目', dataIndex: 'title' },
          moneyColumn('应收', 'receivable'),
          moneyColumn('实收', 'received'),
          moneyColumn('未收', 'unpaid'),
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: Status, r) => <Tag color={s === 'Y' ? 'success' : s === 'N' ? 'error' : 'warning'}>{r.status_ch}</Tag>,
          },
          { title: '缴费时间', dataIndex: 'paid_time' },
        ]}
      />
    </ReportCard>
  );
}
