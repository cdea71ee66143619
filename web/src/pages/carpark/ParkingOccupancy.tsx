import { useMemo, useState } from 'react';
import { Card, Col, DatePicker, Progress, Row, Space, Statistic, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { Link } from 'react-router';
import type { ParkingOccupancyLot } from '@wuye/contract';
import { call } from '../../api/client';
import { SmallSelect } from '../../components/resource';
import EChart from '../fees/EChart';

/** A count of monthly cars that opens 月租车管理 with the same filter. */
function Expiring({ n, lot, filter }: { n: number; lot: number; filter: string }) {
  if (n === 0) return <>0</>;
  const lotPart = lot ? `&lot_id=${lot}` : '';
  return <Link to={`/carpark/moncarlist?${filter}${lotPart}`}>{n}</Link>;
}

const rateColor = (rate: string) => (Number(rate) >= 90 ? '#f4516c' : Number(rate) >= 70 ? '#f4a93a' : '#34bfa3');

/**
 * 车位占用 (/carpark/parkingoccupancy; docs/product.md#parking-reports): the cars inside each lot now
 * against its spaces, the monthly cars ending soon, and the cars inside at each hour of a chosen day.
 */
export default function ParkingOccupancy() {
  const now = useQuery({ queryKey: ['parkingoccupancy'], queryFn: () => call('parkingoccupancy', {}), refetchInterval: 60_000 });
  const [day, setDay] = useState<Dayjs>(() => dayjs());
  const [lot, setLot] = useState<number | undefined>();
  const payload = { day: day.format('YYYY-MM-DD'), lot_id: lot ?? '' };
  const hourly = useQuery({ queryKey: ['parkinghourly', payload], queryFn: () => call('parkinghourly', payload), retry: false });
  const items = useMemo(() => now.data?.items ?? [], [now.data]);
  const t = now.data?.totals;
  const hours = useMemo(() => hourly.data?.items ?? [], [hourly.data]);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v} 辆` },
      legend: { data: ['在场车辆', '入场', '出场'], top: 0 },
      grid: { left: 40, right: 16, top: 40, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: hours.map((h) => h.label) },
      yAxis: { type: 'value', name: '辆', minInterval: 1 },
      series: [
        { name: '在场车辆', type: 'line', smooth: true, areaStyle: { opacity: 0.15 }, data: hours.map((h) => h.inside) },
        { name: '入场', type: 'bar', data: hours.map((h) => h.entries), color: '#34bfa3' },
        { name: '出场', type: 'bar', data: hours.map((h) => h.exits), color: '#f4a93a' },
      ],
    }),
    [hours],
  );
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="parkingoccupancy-page">
      <Card title="车位占用" extra={now.data && <Typography.Text type="secondary">更新于 {now.data.at}</Typography.Text>}>
        <Row gutter={[16, 16]} data-testid="parkingoccupancy-lots">
          {items.map((l) => (
            <Col key={l.lot_id} xs={24} md={12} xl={8}>
              <Card size="small" title={l.lot_title} data-testid={`parkingoccupancy-lot-${l.lot_id}`}>
                <div style={{ display: 'flex', alignItems: 'center', gap: 24 }}>
                  <Progress
                    type="dashboard"
                    percent={Number(l.rate || 0)}
                    strokeColor={rateColor(l.rate)}
                    format={() => `${l.rate || '0.0'}%`}
                    size={110}
                  />
                  <Space direction="vertical" size={4}>
                    <Statistic title="在场车辆 / 车位" value={`${l.inside} / ${l.total_spaces}`} />
                    <Typography.Text type="secondary">
                      临时车 {l.inside_temp} · 登记车辆 {l.inside_registered} · 空余 {l.free}
                    </Typography.Text>
                  </Space>
                </div>
              </Card>
            </Col>
          ))}
        </Row>
        <Table<ParkingOccupancyLot>
          style={{ marginTop: 16 }}
          rowKey="lot_id"
          size="small"
          loading={now.isFetching}
          dataSource={items}
          pagination={false}
          scroll={{ x: 'max-content' }}
          data-testid="parkingoccupancy-table"
          columns={[
            { title: '停车场', dataIndex: 'lot_title', fixed: 'left' },
            { title: '车位总数', dataIndex: 'total_spaces', align: 'right' },
            { title: '在场车辆', dataIndex: 'inside', align: 'right' },
            { title: '其中临时车', dataIndex: 'inside_temp', align: 'right' },
            { title: '空余', dataIndex: 'free', align: 'right' },
            { title: '占用率', dataIndex: 'rate', align: 'right', render: (v: string) => (v ? `${v}%` : '-') },
            {
              title: '车位 空闲 / 出租 / 出售',
              key: 'spaces',
              align: 'right',
              render: (_: unknown, r) => `${r.spaces_idle} / ${r.spaces_rented} / ${r.spaces_sold}`,
            },
            {
              title: '月租 7 天内到期',
              dataIndex: 'expiring_7',
              align: 'right',
              render: (n: number, r) => <Expiring n={n} lot={r.lot_id} filter="expiring=7" />,
            },
            {
              title: '15 天内',
              dataIndex: 'expiring_15',
              align: 'right',
              render: (n: number, r) => <Expiring n={n} lot={r.lot_id} filter="expiring=15" />,
            },
            {
              title: '30 天内',
              dataIndex: 'expiring_30',
              align: 'right',
              render: (n: number, r) => <Expiring n={n} lot={r.lot_id} filter="expiring=30" />,
            },
            {
              title: '已过期',
              dataIndex: 'expired',
              align: 'right',
              render: (n: number, r) => <Expiring n={n} lot={r.lot_id} filter="expired=Y" />,
            },
          ]}
          summary={() =>
            t && (
              <Table.Summary.Row data-testid="parkingoccupancy-totals">
                <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
                <Table.Summary.Cell index={1} align="right">
                  {t.total_spaces}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={2} align="right">
                  {t.inside}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={3} align="right">
                  {t.inside_temp}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={4} align="right">
                  {t.free}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={5} align="right">
                  {t.rate ? `${t.rate}%` : '-'}
                </Table.Summary.Cell>
                <Table.Summary.Cell
                  index={6}
                  align="right"
                >{`${t.spaces_idle} / ${t.spaces_rented} / ${t.spaces_sold}`}</Table.Summary.Cell>
                <Table.Summary.Cell index={7} align="right">
                  <Expiring n={t.expiring_7} lot={0} filter="expiring=7" />
                </Table.Summary.Cell>
                <Table.Summary.Cell index={8} align="right">
                  <Expiring n={t.expiring_15} lot={0} filter="expiring=15" />
                </Table.Summary.Cell>
                <Table.Summary.Cell index={9} align="right">
                  <Expiring n={t.expiring_30} lot={0} filter="expiring=30" />
                </Table.Summary.Cell>
                <Table.Summary.Cell index={10} align="right">
                  <Expiring n={t.expired} lot={0} filter="expired=Y" />
                </Table.Summary.Cell>
              </Table.Summary.Row>
            )
          }
        />
      </Card>
      <Card
        title="分时在场车辆"
        extra={
          <Space wrap>
            <DatePicker
              value={day}
              allowClear={false}
              inputReadOnly
              disabledDate={(d) => d.isAfter(dayjs(), 'day')}
              onChange={(d) => d && setDay(d)}
              data-testid="parkinghourly-day"
            />
            <SmallSelect
              widget={{ small: 'carpark_small_list' }}
              values={{}}
              value={lot}
              onChange={(v) => setLot(typeof v === 'number' ? v : undefined)}
              allowClear
              placeholder="全部停车场"
              style={{ width: 180 }}
              testId="parkinghourly-lot"
            />
          </Space>
        }
      >
        {hourly.data && (
          <Space size="large" wrap style={{ marginBottom: 12 }} data-testid="parkinghourly-figures">
            <Statistic title="最高在场" value={hourly.data.peak} suffix={hourly.data.peak_hour ? `辆（${hourly.data.peak_hour}）` : '辆'} />
            <Statistic title="入场" value={hourly.data.entries} suffix="辆次" />
            <Statistic title="出场" value={hourly.data.exits} suffix="辆次" />
          </Space>
        )}
        <EChart option={option} height={280} testId="parkinghourly-chart" />
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          在场车辆为每个整点时场内的车辆（整点前入场、尚未出场）；入场、出场为该小时内的车次。今天只统计到当前小时。
        </Typography.Paragraph>
      </Card>
    </Space>
  );
}
