import { useMemo, useState } from 'react';
import { DatePicker, Select, Space, Statistic, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { useSmallList } from '../../../components/resource';
import EChart from '../EChart';
import ReportCard from './ReportCard';
import { MoneyStatistic } from '../../../components/Money';
import { axisTooltip, valueAxis } from '../chartUnits';
import { PropertyPayCountTable } from './PropertyPayCountTable';

/** 物业费收缴统计 (/feecounts/propertypaycount): a period range's property fees per building and unit. */
export default function PropertyPayCount() {
  const [months, setMonths] = useState<[Dayjs, Dayjs]>([dayjs().subtract(2, 'month'), dayjs()]);
  const [bid, setBid] = useState<number | undefined>();
  const buildings = useSmallList('building_small_list', {}).items;
  const payload = { start_period: months[0].format('YYYY-MM'), end_period: months[1].format('YYYY-MM'), bid };
  const q = useQuery({ queryKey: ['propertypaycount', payload], queryFn: () => call('propertypaycount', payload), retry: false });
  const rows = useMemo(() => q.data?.items ?? [], [q.data]);
  const option = useMemo(() => {
    const top = rows.filter((r) => r.tid === 0);
    return {
      tooltip: axisTooltip('元'),
      legend: { data: ['应收', '实收'] },
      xAxis: { type: 'category', data: top.map((r) => r.building_title) },
      yAxis: valueAxis('元'),
      series: [
        { name: '应收', type: 'bar', data: top.map((r) => r.receivable) },
        { name: '实收', type: 'bar', data: top.map((r) => r.received) },
      ],
    };
  }, [rows]);
  const t = q.data?.totals;
  return (
    <ReportCard
      title="物业费收缴统计"
      testId="propertypaycount-page"
      exportPayload={{ report: 'propertypaycount', ...payload }}
      filters={
        <>
          <DatePicker.RangePicker
            picker="month"
            value={months}
            allowClear={false}
            inputReadOnly
            data-testid="paycount-range"
            onChange={(v) => v?.[0] && v[1] && setMonths([v[0], v[1]])}
          />
          <Select
            allowClear
            placeholder="楼栋"
            style={{ width: 140 }}
            value={bid}
            data-testid="paycount-building"
            options={buildings.map((b) => ({ value: b.id, label: b.title }))}
            onChange={(v?: number) => setBid(v)}
          />
        </>
      }
    >
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }}>
          <MoneyStatistic title="期初欠费" value={t.arrears_before} />
          <MoneyStatistic title="应收" value={t.receivable} />
          <MoneyStatistic title="实收" value={t.received} />
          <Statistic title="收缴率" value={`${t.rate}%`} />
        </Space>
      )}
      <EChart option={option} height={240} testId="propertypaycount-chart" />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
        期初欠费：区间首日前账期未缴的物业费；实收：区间内收款，按账单账期分为当期、清欠（以前账期）、预收（以后账期）；收缴率 = 当期实收 ÷
        应收。
      </Typography.Paragraph>
      <PropertyPayCountTable rows={rows} totals={t} loading={q.isFetching} testId="propertypaycount-table" totalsTestId="paycount-totals" />
    </ReportCard>
  );
}
