import { useState, type Key } from 'react';
import { Button, Card, Col, DatePicker, Row, Space, Statistic, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import type { ChargeReportRow } from '@wuye/contract';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { MoneyStatistic, moneyColumn } from '../../components/Money';
import { SmallSelect } from '../../components/resource';
import { useDayPresets } from '../invoice/shared';

/** /carpark/chargereport (充电报表; docs/product.md#charging-piles): sessions, energy and income per pile and day over a date range, and its export. */
export default function ReportPage() {
  const presets = useDayPresets();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => presets.find((p) => p.label === '本月')!.value);
  const [chargerId, setChargerId] = useState<number | undefined>();
  const days = { start_date: range[0].format('YYYY-MM-DD'), end_date: range[1].format('YYYY-MM-DD') };
  const q = useQuery({
    queryKey: ['chargereportlist', days, chargerId],
    queryFn: () => call('chargereportlist', { ...days, charger_id: chargerId }),
  });
  const columns: TableColumnsType<ChargeReportRow> = [
    { key: 'day', title: '日期', dataIndex: 'day', width: 120 },
    { key: 'charger', title: '充电桩', dataIndex: 'charger_title', width: 160 },
    { key: 'sessions', title: '订单数', dataIndex: 'sessions', width: 90, align: 'right' },
    { key: 'energy', title: '电量(kWh)', dataIndex: 'energy_kwh', width: 120, align: 'right' },
    moneyColumn<ChargeReportRow>('收入', 'income', { width: 120 }),
  ];
  return (
    <Card title="充电报表" data-testid="chargereport-page">
      <Space wrap style={{ marginBottom: 16 }}>
        <DatePicker.RangePicker
          style={{ width: 250 }}
          value={range}
          presets={presets}
          allowClear={false}
          inputReadOnly
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          data-testid="chargereport-range"
        />
        <SmallSelect
          widget={{ small: 'charger_small_list' }}
          values={{}}
          placeholder="全部充电桩"
          allowClear
          style={{ width: 180 }}
          testId="chargereport-charger"
          value={chargerId}
          onChange={(v: unknown) => setChargerId((v as number | undefined) ?? undefined)}
        />
        <Button onClick={() => void runExport('chargereportexport', { ...days, charger_id: chargerId })} data-testid="chargereport-export">
          导出
        </Button>
      </Space>
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col span={8}>
          <Statistic title="订单数" value={q.data?.sessions ?? 0} />
        </Col>
        <Col span={8}>
          <Statistic title="电量(kWh)" value={q.data?.energy_kwh ?? '0.000'} />
        </Col>
        <Col span={8}>
          <MoneyStatistic title="收入" value={q.data?.income ?? '0.00'} />
        </Col>
      </Row>
      <Table<ChargeReportRow>
        rowKey={(r): Key => `${r.day}-${r.charger_id}`}
        size="small"
        data-testid="chargereport-table"
        loading={q.isLoading}
        columns={columns}
        dataSource={q.data?.items ?? []}
        pagination={{ pageSize: 31 }}
      />
    </Card>
  );
}
