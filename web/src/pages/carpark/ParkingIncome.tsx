import { useMemo, useState } from 'react';
import { Button, Card, DatePicker, Space, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import { fenToYuan, toFen, type ParkingIncomeRow } from '@wuye/contract';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { Money, MoneyStatistic, moneyColumn } from '../../components/Money';
import { SmallSelect, rangePickerPresets } from '../../components/resource';
import { useSystem } from '../../stores/system';
import EChart from '../fees/EChart';

/** The figures summed per day for the chart, days in order (the table lists a row per day and lot). */
function byDay(items: ParkingIncomeRow[]) {
  const days = new Map<string, { temp: bigint; renew: bigint; coupon: bigint }>();
  for (const r of items) {
    const d = days.get(r.day) ?? { temp: 0n, renew: 0n, coupon: 0n };
    d.temp += toFen(r.temp_amount);
    d.renew += toFen(r.renew_amount);
    d.coupon += toFen(r.coupon_amount);
    days.set(r.day, d);
  }
  return [...days.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
}

/**
 * 停车收入报表 (/carpark/parkingincome; docs/product.md#parking-reports): a range's parking income per
 * day and lot — temporary fees (临时停车费 receipts), monthly renewals, coupons sold — with the totals.
 */
export default function ParkingIncome() {
  const zone = useSystem((s) => s.info?.time_zone) || undefined;
  const presets = useMemo(() => rangePickerPresets(zone), [zone]);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => presets.find((p) => p.label === '本月')!.value);
  const [lot, setLot] = useState<number | undefined>();
  const [exporting, setExporting] = useState(false);
  const payload = { start_date: range[0].format('YYYY-MM-DD'), end_date: range[1].format('YYYY-MM-DD'), lot_id: lot ?? '' };
  const q = useQuery({ queryKey: ['parkingincome', payload], queryFn: () => call('parkingincome', payload), retry: false });
  const items = useMemo(() => q.data?.items ?? [], [q.data]);
  const t = q.data?.totals;
  const option = useMemo(() => {
    const days = byDay(items);
    const yuan = (f: bigint) => Number(fenToYuan(f));
    return {
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v.toFixed(2)} 元` },
      legend: { data: ['临时车收费', '月租续费', '停车劵销售'], top: 0 },
      grid: { left: 40, right: 16, top: 40, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: days.map(([d]) => d.slice(5)) },
      yAxis: { type: 'value', name: '元' },
      series: [
        { name: '临时车收费', type: 'bar', stack: 'income', data: days.map(([, d]) => yuan(d.temp)) },
        { name: '月租续费', type: 'bar', stack: 'income', data: days.map(([, d]) => yuan(d.renew)) },
        { name: '停车劵销售', type: 'bar', stack: 'income', data: days.map(([, d]) => yuan(d.coupon)) },
      ],
    };
  }, [items]);
  const doExport = async () => {
    setExporting(true);
    try {
      await runExport('parkingincomeexport', payload);
    } finally {
      setExporting(false);
    }
  };
  const counts = (n: number, unit: string) => `${n} ${unit}`;
  return (
    <Card title="停车收入报表" data-testid="parkingincome-page">
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
        <Space wrap style={{ flex: 1 }}>
          <DatePicker.RangePicker
            value={range}
            presets={presets}
            allowClear={false}
            inputReadOnly
            data-testid="parkingincome-range"
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <SmallSelect
            widget={{ small: 'carpark_small_list' }}
            values={{}}
            value={lot}
            onChange={(v) => setLot(typeof v === 'number' ? v : undefined)}
            allowClear
            placeholder="全部停车场"
            style={{ width: 180 }}
            testId="parkingincome-lot"
          />
        </Space>
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="report-export">
          导出 Excel
        </Button>
      </div>
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="parkingincome-figures">
          <MoneyStatistic title="停车收入合计" value={t.total} />
          <MoneyStatistic title={`临时车收费（${t.temp_count} 笔）`} value={t.temp_amount} />
          <MoneyStatistic title={`月租续费（${t.renew_count} 笔）`} value={t.renew_amount} />
          <MoneyStatistic title={`停车劵销售（${t.coupon_quantity} 张）`} value={t.coupon_amount} />
        </Space>
      )}
      <EChart option={option} height={260} testId="parkingincome-chart" />
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
        按收款的业务日期统计：临时车收费为临时停车费收据（不含作废），月租续费为月租车续费订单（停车管理与收银台），停车劵销售为商户购买停车劵的订单。
      </Typography.Paragraph>
      <Table<ParkingIncomeRow>
        rowKey="key"
        size="small"
        loading={q.isFetching}
        dataSource={items}
        pagination={{ pageSize: 31, hideOnSinglePage: true, showSizeChanger: false }}
        scroll={{ x: 'max-content' }}
        data-testid="parkingincome-table"
        columns={[
          { title: '日期', dataIndex: 'day', fixed: 'left', width: 110 },
          { title: '停车场', dataIndex: 'lot_title', width: 140 },
          { title: '临时车笔数', dataIndex: 'temp_count', align: 'right' },
          moneyColumn<ParkingIncomeRow>('临时车收费', 'temp_amount'),
          { title: '续费笔数', dataIndex: 'renew_count', align: 'right' },
          moneyColumn<ParkingIncomeRow>('月租续费', 'renew_amount'),
          {
            title: '停车劵（订单 / 张）',
            key: 'coupons',
            align: 'right',
            render: (_: unknown, r) => `${r.coupon_orders} / ${r.coupon_quantity}`,
          },
          moneyColumn<ParkingIncomeRow>('停车劵销售', 'coupon_amount'),
          moneyColumn<ParkingIncomeRow>('合计', 'total'),
        ]}
        summary={() =>
          t && (
            <Table.Summary.Row data-testid="parkingincome-totals">
              <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
              <Table.Summary.Cell index={1} />
              <Table.Summary.Cell index={2} align="right">
                {counts(t.temp_count, '笔')}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                <Money value={t.temp_amount} />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                {counts(t.renew_count, '笔')}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} align="right">
                <Money value={t.renew_amount} />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={6} align="right">
                {`${t.coupon_orders} / ${t.coupon_quantity}`}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={7} align="right">
                <Money value={t.coupon_amount} />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={8} align="right">
                <Money value={t.total} />
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )
        }
      />
    </Card>
  );
}
