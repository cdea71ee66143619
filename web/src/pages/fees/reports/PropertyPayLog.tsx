import { DatePicker, Form, Input, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import type { PropertyPayLogRow } from '@wuye/contract/fees';
import { useList } from '../../../api/useList';
import TablePage from '../../../components/TablePage';
import { moneyColumn } from '../../../components/Money';

interface Filters {
  dates?: [Dayjs, Dayjs] | null;
  keyword?: string;
}

/** 物业费缴费明细 (/feecounts/propertypaylog). */
export default function PropertyPayLog() {
  const list = useList('propertypaylog', { sort: 'desc' });
  const columns: TableColumnsType<PropertyPayLogRow> = [
    {
      title: '收据号',
      dataIndex: 'receipt_no',
      render: (no: string, r) =>
        r.voided ? (
          <>
            {no} <Tag color="default">已作废</Tag>
          </>
        ) : (
          no
        ),
    },
    { title: '房屋', dataIndex: 'address' },
    { title: '缴费人', dataIndex: 'payer_name' },
    { title: '收费项目', dataIndex: 'title' },
    { title: '账期', dataIndex: 'period' },
    moneyColumn('金额', 'fee'),
    moneyColumn('滞纳金', 'late_fee'),
    { title: '支付方式', dataIndex: 'pay_type_ch' },
    { title: '收银员', dataIndex: 'cashier_name' },
    { title: '时间', dataIndex: 'create_time' },
  ];
  return (
    <TablePage<PropertyPayLogRow, Filters>
      testId="propertypaylog-page"
      title="物业费缴费明细"
      list={list}
      columns={columns}
      rowKey={(r) => `${r.payment_id}-${r.period}-${r.title}`}
      onSearch={(v) =>
        list.setFilters({
          sort: 'desc',
          start_date: v.dates?.[0]?.format('YYYY-MM-DD'),
          end_date: v.dates?.[1]?.format('YYYY-MM-DD'),
          keyword: v.keyword,
        })
      }
      filters={
        <>
          <Form.Item name="dates" label="日期">
            <DatePicker.RangePicker style={{ maxWidth: 260 }} inputReadOnly />
          </Form.Item>
          <Form.Item name="keyword" label="关键字">
            <Input allowClear placeholder="房号/业主" />
          </Form.Item>
        </>
      }
    />
  );
}
