import { useMemo, useState } from 'react';
import { DatePicker, Select, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { INVOICE_RATE, type ElectronicReportRow } from '@wuye/contract/invoice/invoices';
import { call } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { Money, moneyColumn } from '../../../components/Money';
import ReportCard from './ReportCard';

type Row = ElectronicReportRow & { key: string };

/** 电子发票 (/feecounts/electronic, businesscount): blue and red invoices per month, item and rate, and what is left of them. */
export default function Electronic() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().startOf('year'), dayjs().endOf('year')]);
  const [rate, setRate] = useState<string>('');
  const payload = { month_from: range[0].format('YYYY-MM'), month_to: range[1].format('YYYY-MM'), rate: rate as '' };
  const q = useQuery({ queryKey: ['electroniclist', payload], queryFn: () => call('electroniclist', payload), retry: false });
  const rows: Row[] = useMemo(() => (q.data?.items ?? []).map((r) => ({ ...r, key: `${r.month}|${r.goods_name}|${r.rate}` })), [q.data]);
  const sums = q.data?.sums;
  return (
    <ReportCard
      title="电子发票"
      testId="electronic-page"
      onExport={() => runExport('electronicexport', payload)}
      filters={
        <>
          <DatePicker.RangePicker
            picker="month"
            value={range}
            allowClear={false}
            inputReadOnly
            style={{ maxWidth: 240 }}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
            data-testid="electronic-months"
          />
          <Select
            value={rate}
            style={{ width: 130 }}
            onChange={setRate}
            options={[{ value: '', label: '全部税率' }, ...enumOptions(INVOICE_RATE)]}
            data-testid="electronic-rate"
          />
        </>
      }
    >
      <Table<Row>
        rowKey="key"
        size="small"
        bordered
        scroll={{ x: 'max-content' }}
        loading={q.isFetching}
        dataSource={rows}
        pagination={false}
        data-testid="electronic-table"
        columns={[
          { title: '月份', dataIndex: 'month', width: 90, fixed: 'left' },
          { title: '开票项目', dataIndex: 'goods_name', width: 140 },
          { title: '税率', dataIndex: 'rate_ch', width: 80 },
          {
            title: '蓝字发票',
            children: [
              { title: '张数', dataIndex: 'blue_count', width: 70, align: 'right' },
              moneyColumn('价税合计', 'blue_amount', { width: 120 }),
              moneyColumn('税额', 'blue_tax', { width: 100 }),
            ],
          },
          {
            title: '红字发票',
            children: [
              { title: '张数', dataIndex: 'red_count', width: 70, align: 'right' },
              moneyColumn('价税合计', 'red_amount', { width: 120 }),
              moneyColumn('税额', 'red_tax', { width: 100 }),
            ],
          },
          {
            title: '净额',
            children: [moneyColumn('价税合计', 'net_amount', { width: 120 }), moneyColumn('税额', 'net_tax', { width: 100 })],
          },
        ]}
        summary={() =>
          sums ? (
            <Table.Summary fixed>
              <Table.Summary.Row data-testid="electronic-sums">
                <Table.Summary.Cell index={0} colSpan={3}>
                  合计
                </Table.Summary.Cell>
                <Table.Summary.Cell index={3} align="right">
                  {sums.blue_count}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={4} align="right">
                  <Money value={sums.blue_amount} />
                </Table.Summary.Cell>
                <Table.Summary.Cell index={5} align="right">
                  <Money value={sums.blue_tax} />
                </Table.Summary.Cell>
                <Table.Summary.Cell index={6} align="right">
                  {sums.red_count}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={7} align="right">
                  <Money value={sums.red_amount} />
                </Table.Summary.Cell>
                <Table.Summary.Cell index={8} align="right">
                  <Money value={sums.red_tax} />
                </Table.Summary.Cell>
                <Table.Summary.Cell index={9} align="right">
                  <Money value={sums.net_amount} />
                </Table.Summary.Cell>
                <Table.Summary.Cell index={10} align="right">
                  <Money value={sums.net_tax} />
                </Table.Summary.Cell>
              </Table.Summary.Row>
            </Table.Summary>
          ) : null
        }
      />
    </ReportCard>
  );
}
