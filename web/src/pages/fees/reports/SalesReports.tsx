import { useMemo, useState } from 'react';
import { DatePicker, Radio, Space, Table, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  COUNTED_FORMULA,
  SALES_LINE,
  SALES_LINE_DEFS,
  SALES_MAX_DAYS,
  type SalesGrain,
  type SalesGrainRow,
  type SalesLine,
  type SalesLineRow,
} from '@wuye/contract/fees/sales';
import { call } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { Money, MoneyStatistic, moneyColumn, moneyTitle } from '../../../components/Money';
import { useRoutesInfo } from '../../../router/context';
import { findFlat } from '../../../router/helpers';
import EChart from '../EChart';
import { axisTooltip, valueAxis } from '../chartUnits';
import ReportCard from './ReportCard';

/** A heading with the formula behind it. */
const Hint = ({ text, tip }: { text: string; tip: string }) => (
  <Space size={4}>
    {text}
    <Tooltip title={tip}>
      <QuestionCircleOutlined style={{ color: 'rgba(0,0,0,0.45)' }} />
    </Tooltip>
  </Space>
);

type LineRow = SalesLineRow | (Omit<SalesLineRow, 'line'> & { line: 'total' });

/** 营收报表 (/feecounts/salesreports, docs/product.md#sales-reports): money received by business line over a date range. */
export default function SalesReports() {
  const { flat } = useRoutesInfo();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().startOf('month'), dayjs()]);
  const [grain, setGrain] = useState<SalesGrain>('day');
  const payload = { start_date: range[0].format('YYYY-MM-DD'), end_date: range[1].format('YYYY-MM-DD'), grain };
  const q = useQuery({ queryKey: ['salesreports', payload], queryFn: () => call('salesreports', payload), retry: false });
  const r = q.data;
  const shown: SalesLine[] = useMemo(() => (r?.lines ?? []).map((l) => l.line), [r]);

  /** the page that lists a line's money, when the user may open it; the range in it where it reads one */
  const lineLink = (line: SalesLine): string | undefined => {
    const link = SALES_LINE_DEFS[line].link;
    if (!findFlat(flat, link.path)) return undefined;
    return link.range ? `${link.path}?start_date=${payload.start_date}&end_date=${payload.end_date}` : link.path;
  };

  const lineRows: LineRow[] = r ? [...r.lines, { line: 'total', label: '合计', ...r.total }] : [];
  const lineColumns: TableColumnsType<LineRow> = [
    {
      title: '业务',
      dataIndex: 'label',
      render: (label: string, row) => {
        if (row.line === 'total') return <b>{label}</b>;
        const href = lineLink(row.line);
        return (
          <Space size={4}>
            {href ? (
              <Link to={href} data-testid={`sales-line-link-${row.line}`}>
                {label}
              </Link>
            ) : (
              label
            )}
            <Tooltip title={SALES_LINE_DEFS[row.line].formula}>
              <QuestionCircleOutlined style={{ color: 'rgba(0,0,0,0.45)' }} />
            </Tooltip>
          </Space>
        );
      },
    },
    { title: '笔数', dataIndex: 'count', align: 'right' },
    moneyColumn('收款', 'received'),
    moneyColumn('退款', 'refunded'),
    moneyColumn('净收入', 'net'),
    {
      ...moneyColumn<LineRow>('计入实收', 'counted_net'),
      title: <Hint text={moneyTitle('计入实收')} tip={COUNTED_FORMULA} />,
    },
  ];

  const gridRows: Array<SalesGrainRow & { total_row?: boolean }> = r
    ? [...r.rows, { key: '合计', nets: Object.fromEntries(r.lines.map((l) => [l.line, l.net])), total: r.total.net, total_row: true }]
    : [];
  const gridColumns: TableColumnsType<SalesGrainRow & { total_row?: boolean }> = [
    {
      title: grain === 'day' ? '日期' : '月份',
      dataIndex: 'key',
      fixed: 'left',
      render: (k: string, row) => (row.total_row ? <b>{k}</b> : k),
    },
    ...shown.map((line) =>
      moneyColumn<SalesGrainRow & { total_row?: boolean }>(SALES_LINE[line].text, `net_${line}`, {
        render: (_: unknown, row) => <Money value={row.nets[line] ?? '0.00'} />,
      }),
    ),
    moneyColumn('合计', 'total'),
  ];

  const option = useMemo(
    () => ({
      tooltip: axisTooltip('元'),
      legend: { bottom: 0, type: 'scroll' },
      grid: { left: 8, right: 8, top: 24, bottom: 40, containLabel: true },
      xAxis: { type: 'category', data: (r?.rows ?? []).map((x) => x.key) },
      yAxis: valueAxis('元'),
      series: [
        ...shown.map((line) => ({
          name: SALES_LINE[line].text,
          type: 'bar',
          stack: 'net',
          data: (r?.rows ?? []).map((x) => x.nets[line] ?? '0.00'),
        })),
        { name: '合计', type: 'line', data: (r?.rows ?? []).map((x) => x.total) },
      ],
    }),
    [r, shown],
  );

  return (
    <ReportCard
      title="营收报表"
      testId="salesreports-page"
      onExport={() => runExport('salesreportsexport', payload)}
      filters={
        <>
          <DatePicker.RangePicker
            style={{ maxWidth: 260 }}
            value={range}
            allowClear={false}
            inputReadOnly
            data-testid="sales-range"
            disabledDate={(d, info) => !!info.from && Math.abs(d.diff(info.from, 'day')) >= SALES_MAX_DAYS}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Radio.Group
            value={grain}
            onChange={(e) => setGrain(e.target.value as SalesGrain)}
            optionType="button"
            data-testid="sales-grain"
            options={[
              { value: 'day', label: '日' },
              { value: 'month', label: '月' },
            ]}
          />
        </>
      }
    >
      <Space size="large" wrap style={{ marginBottom: 12 }}>
        <MoneyStatistic title="收款合计" value={r?.total.received ?? '0.00'} loading={q.isFetching} />
        <MoneyStatistic title="退款合计" value={r?.total.refunded ?? '0.00'} loading={q.isFetching} />
        <MoneyStatistic title="净收入" value={r?.total.net ?? '0.00'} loading={q.isFetching} />
        <MoneyStatistic
          title={<Hint text="计入实收" tip={COUNTED_FORMULA} />}
          value={r?.total.counted_net ?? '0.00'}
          loading={q.isFetching}
        />
      </Space>
      <Table<LineRow>
        rowKey="line"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={q.isFetching}
        dataSource={lineRows}
        pagination={false}
        columns={lineColumns}
        data-testid="sales-lines"
      />
      <Typography.Title level={5} style={{ marginTop: 20 }}>
        {grain === 'day' ? '每日净收入' : '每月净收入'}
      </Typography.Title>
      <EChart option={option} testId="salesreports-chart" />
      <Table<SalesGrainRow & { total_row?: boolean }>
        rowKey="key"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={q.isFetching}
        dataSource={gridRows}
        pagination={false}
        columns={gridColumns}
        data-testid="sales-grid"
      />
    </ReportCard>
  );
}
