import { Button, DatePicker, Form, Input, Select, Space, Tooltip } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { COMMAND_STATE, type RoomSyncItem } from '@wuye/contract';
import { enumOptions } from '@wuye/contract/kit/resource';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import { request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { useActionFixed } from '../../components/TablePage/useActionFixed';
import { EnumTag, SmallSelect, useCanWrite } from '../../components/resource';

interface Filters {
  device_id?: number;
  state?: string;
  keyword?: string;
  date?: [Dayjs, Dayjs] | null;
}
const toFilters = (v: Filters) => ({
  device_id: v.device_id || undefined,
  state: (v.state || undefined) as never,
  keyword: v.keyword || undefined,
  start_date: v.date?.[0]?.format('YYYY-MM-DD'),
  end_date: v.date?.[1]?.format('YYYY-MM-DD'),
});

/**
 * /carpark/room_construct_sync_log (房屋结构同步; docs/product.md#room-codes): every room code sent
 * to a door, newest first, with its state, tries and the device's error; 重新同步 sends a failed one
 * again now, 重试全部失败 all of them.
 */
export default function RoomSyncLog() {
  const canWrite = useCanWrite(ACCESS_ROLES.staff);
  const actionFixed = useActionFixed();
  const list = useList('roomsynclist', {});
  const retry = async (id?: number) => {
    try {
      const answer = await request('roomsyncretry', id ? { id } : {});
      noticeSuccess(answer.return_msg);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };
  const columns: TableColumnsType<RoomSyncItem> = [
    { key: 'create_time', title: '下发时间', dataIndex: 'create_time', width: 170 },
    { key: 'device_title', title: '设备', dataIndex: 'device_title', width: 150 },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 170 },
    { key: 'action', title: '指令', dataIndex: 'action_ch', width: 90 },
    { key: 'code', title: '房号编码', dataIndex: 'code', width: 120 },
    { key: 'call_no', title: '呼叫号', dataIndex: 'call_no', width: 110, render: (v: string) => v || '—' },
    {
      key: 'state',
      title: '状态',
      dataIndex: 'state',
      width: 90,
      render: (v: string, r) => {
        const tag = (
          <span data-testid={`roomsync-state-${r.id}`}>
            <EnumTag enum={COMMAND_STATE} value={v} />
          </span>
        );
        return r.last_error ? <Tooltip title={r.last_error}>{tag}</Tooltip> : tag;
      },
    },
    { key: 'attempts', title: '次数', dataIndex: 'attempts', width: 70 },
    { key: 'last_error', title: '说明', dataIndex: 'last_error', width: 140, render: (v: string) => v || '—' },
    { key: 'acked_at', title: '应答时间', dataIndex: 'acked_at', width: 170, render: (v: string) => v || '—' },
    ...(canWrite
      ? [
          {
            key: 'actions',
            title: '操作',
            width: 100,
            fixed: actionFixed,
            render: (_: unknown, r: RoomSyncItem) =>
              r.state === 'failed' ? (
                <Button type="link" size="small" onClick={() => void retry(r.id)} data-testid={`roomsync-retry-${r.id}`}>
                  重新同步
                </Button>
              ) : null,
          },
        ]
      : []),
  ];
  return (
    <TablePage<RoomSyncItem, Filters>
      testId="roomsync-page"
      title="房屋结构同步"
      list={list}
      columns={columns}
      rowKey="id"
      onSearch={(v) => list.setFilters(toFilters(v))}
      onExport={(v) => runExport('roomsyncexport', toFilters(v))}
      toolbar={
        <Space>
          {canWrite && (
            <Button onClick={() => void retry()} data-testid="roomsync-retry-all">
              重试全部失败
            </Button>
          )}
          <Button onClick={list.reload}>刷新</Button>
        </Space>
      }
      filters={
        <>
          <Form.Item name="keyword" label="房屋">
            <Input allowClear maxLength={30} placeholder="房屋、编码、呼叫号" data-testid="roomsync-filter-keyword" />
          </Form.Item>
          <Form.Item name="device_id" label="设备">
            <SmallSelect widget={{ small: 'accessdevice_small_list' }} values={{}} allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="state" label="状态">
            <Select allowClear style={{ width: 100 }} options={enumOptions(COMMAND_STATE)} data-testid="roomsync-filter-state" />
          </Form.Item>
          <Form.Item name="date" label="日期">
            <DatePicker.RangePicker />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1300 }, size: 'middle' }}
    />
  );
}
