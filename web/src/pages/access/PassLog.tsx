import { DatePicker, Form, Image, Input, Select } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { PASS_METHOD, PASS_RESULT, type PassItem } from '@wuye/contract';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, SmallSelect } from '../../components/resource';

interface Filters {
  keyword?: string;
  device_id?: number;
  mode?: string;
  result?: string;
  date?: [Dayjs, Dayjs] | null;
}
const toFilters = (v: Filters) => ({
  keyword: v.keyword || undefined,
  device_id: v.device_id || undefined,
  mode: (v.mode || undefined) as never,
  result: (v.result || undefined) as never,
  start_date: v.date?.[0]?.format('YYYY-MM-DD'),
  end_date: v.date?.[1]?.format('YYYY-MM-DD'),
  sort: 'desc' as const,
});

/** /carpark/currentlog (通行记录; docs/product.md#access-control): every pass, newest first, with its export. */
export default function PassLog() {
  const list = useList('accesspasslist', { sort: 'desc' });
  const columns: TableColumnsType<PassItem> = [
    { key: 'rec_time', title: '通行时间', dataIndex: 'rec_time', width: 170 },
    { key: 'device_title', title: '设备', dataIndex: 'device_title', width: 150 },
    { key: 'person_name', title: '人员', dataIndex: 'person_name', width: 100, render: (v: string) => v || '陌生人' },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 180 },
    { key: 'method', title: '方式', dataIndex: 'method_ch', width: 90 },
    { key: 'similarity', title: '相似度', dataIndex: 'similarity', width: 80 },
    { key: 'snapshot', title: '抓拍', dataIndex: 'snapshot', width: 80, render: (v: string) => (v ? <Image width={40} src={v} /> : '—') },
    { key: 'result', title: '结果', dataIndex: 'result', width: 80, render: (v: string) => <EnumTag enum={PASS_RESULT} value={v} /> },
  ];
  return (
    <TablePage<PassItem, Filters>
      testId="pass-page"
      title="通行记录"
      list={list}
      columns={columns}
      rowKey="id"
      totalText={(total) => (list.answer?.more ? `共 ${total}+ 条，请按日期范围缩小` : `共 ${total} 条`)}
      onSearch={(v) => list.setFilters(toFilters(v))}
      onExport={(v) => {
        const { sort: _sort, ...f } = toFilters(v);
        return runExport('accesspassexport', f);
      }}
      filters={
        <>
          <Form.Item name="keyword" label="人员">
            <Input allowClear maxLength={30} placeholder="姓名（需选日期，不超过 31 天）" data-testid="pass-filter-keyword" />
          </Form.Item>
          <Form.Item name="device_id" label="设备">
            <SmallSelect widget={{ small: 'accessdevice_small_list' }} values={{}} allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="mode" label="方式">
            <Select allowClear style={{ width: 110 }} options={enumOptions(PASS_METHOD)} />
          </Form.Item>
          <Form.Item name="result" label="结果">
            <Select allowClear style={{ width: 90 }} options={enumOptions(PASS_RESULT)} />
          </Form.Item>
          <Form.Item name="date" label="日期">
            <DatePicker.RangePicker />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1000 }, size: 'middle' }}
    />
  );
}
