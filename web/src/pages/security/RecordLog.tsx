import { DatePicker, Form, Image, Input, Select, Space, Tabs, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { CHECKIN_OUTCOME, type CheckinOutcome, type PatrolCheckinRow, type PatrolEditRow } from '@wuye/contract';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag } from '../../components/resource';

const days = (d?: [Dayjs, Dayjs] | null) =>
  d ? ([d[0].format('YYYY-MM-DD'), d[1].format('YYYY-MM-DD')] as [string, string]) : ('' as const);

/** Every check-in upload as it arrived, unknown codes included. */
function RawLog() {
  const list = useList('patrolrecordlog', { sort: 'asc' });
  const columns: TableColumnsType<PatrolCheckinRow> = [
    { title: '服务器时间', dataIndex: 'server_time', width: 160 },
    { title: '设备时间', dataIndex: 'device_time', width: 160 },
    { title: '人员', dataIndex: 'guard_name', width: 90 },
    { title: '方式', dataIndex: 'method_ch', width: 80 },
    { title: '码值', dataIndex: 'code', width: 150 },
    { title: '匹配点位', dataIndex: 'point_name', width: 110 },
    {
      title: '结果',
      dataIndex: 'outcome',
      width: 100,
      render: (v: CheckinOutcome) => <EnumTag enum={CHECKIN_OUTCOME} value={v} />,
    },
    { title: '原因', dataIndex: 'reason', width: 200 },
    {
      title: 'GPS/距离',
      key: 'gps',
      width: 150,
      render: (_, r) =>
        r.lat === null ? (
          '—'
        ) : (
          <span>
            {r.lat}, {r.lng}
            {r.distance_m !== null && ` · ${r.distance_m}米`}
            {r.outside && <Tag color="warning">超出范围</Tag>}
          </span>
        ),
    },
    {
      title: '签到',
      key: 'flags',
      width: 140,
      render: (_, r) => (
        <Space size={2} wrap>
          {r.timing_ch && <Tag>{r.timing_ch}</Tag>}
          {r.out_of_order && <Tag color="warning">跳序</Tag>}
          {r.result === 'A' && <Tag color="error">异常</Tag>}
          {r.order_no && <Tag color="processing">{r.order_no}</Tag>}
        </Space>
      ),
    },
    {
      title: '照片',
      dataIndex: 'photos',
      width: 120,
      render: (v: string[]) => (
        <Image.PreviewGroup>
          {v.map((u) => (
            <Image key={u} src={u} width={32} height={32} />
          ))}
        </Image.PreviewGroup>
      ),
    },
  ];
  return (
    <TablePage<PatrolCheckinRow, { outcome?: CheckinOutcome; code?: string; day?: [Dayjs, Dayjs] | null }>
      testId="patrol-rawlog"
      list={list}
      columns={columns}
      rowKey="id"
      tableProps={{ scroll: { x: 1400 } }}
      onSearch={(f) => list.setFilters({ sort: 'asc', outcome: f.outcome ?? '', code: f.code ?? '', day: days(f.day) })}
      filters={
        <>
          <Form.Item name="outcome" label="结果">
            <Select allowClear style={{ width: 120 }} options={enumOptions(CHECKIN_OUTCOME)} data-testid="rawlog-outcome" />
          </Form.Item>
          <Form.Item name="code" label="码值">
            <Input allowClear style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="day" label="日期">
            <DatePicker.RangePicker />
          </Form.Item>
        </>
      }
    />
  );
}

/** The supervisors' corrections and the transfers. */
function EditLog() {
  const list = useList('patroleditlog', { sort: 'asc' });
  const columns: TableColumnsType<PatrolEditRow> = [
    { title: '时间', dataIndex: 'create_time', width: 160 },
    { title: '操作人', dataIndex: 'operator', width: 90 },
    { title: '任务', dataIndex: 'task_no', width: 100 },
    { title: '巡更点', dataIndex: 'point_name', width: 110 },
    { title: '修改', dataIndex: 'action_ch', width: 110 },
    { title: '原值', dataIndex: 'old_value', width: 110 },
    { title: '新值', dataIndex: 'new_value', width: 110 },
    { title: '原因', dataIndex: 'reason' },
  ];
  return (
    <TablePage<PatrolEditRow, { day?: [Dayjs, Dayjs] | null }>
      testId="patrol-editlog"
      list={list}
      columns={columns}
      rowKey="id"
      onSearch={(f) => list.setFilters({ sort: 'asc', day: days(f.day) })}
      filters={
        <Form.Item name="day" label="日期">
          <DatePicker.RangePicker />
        </Form.Item>
      }
    />
  );
}

/**
 * /security/patrolrecordlist_log (巡更日志; docs/product.md#patrols): the raw upload log (every check-in
 * as it arrived, unmatched codes with their reason) and the log of supervisors' corrections.
 */
export default function RecordLog() {
  return (
    <Tabs
      items={[
        { key: 'raw', label: '原始上传记录', children: <RawLog /> },
        { key: 'edit', label: '修改记录', children: <EditLog /> },
      ]}
    />
  );
}
