import { Button, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import type { TableColumnsType } from 'antd';
import { SYNC_STATE, enumEntry, type SyncRow } from '@wuye/contract';
import { request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { useCanWrite } from '../../components/resource';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import { GrantStatus } from './grantParts';

const COLORS: Record<string, string> = { held: 'success', pending: 'processing', failed: 'error', deleting: 'warning' };

/**
 * /carpark/face_user_synclog (人员下发; docs/product.md#access-control): people by devices, each
 * cell held, pending or failed with the device's error; 重试全部失败 sends the failed ones again now;
 * 导出失败 exports the errors.
 */
export default function SyncLog() {
  const canWrite = useCanWrite(ACCESS_ROLES.staff);
  const list = useList('accesssynclist', { sort: 'desc' });
  const devices = list.answer?.devices ?? [];
  const columns: TableColumnsType<SyncRow> = [
    { key: 'person_name', title: '人员', dataIndex: 'person_name', width: 100, fixed: 'left' },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 170 },
    {
      key: 'status',
      title: '授权状态',
      width: 110,
      render: (_, r) => <GrantStatus row={{ ...r, revoked: r.status_ch === '已注销' ? 'Y' : 'N' }} />,
    },
    ...devices.map((d) => ({
      key: `d${d.id}`,
      title: (
        <span>
          {d.title}
          {d.online === 'N' && <Tag style={{ marginLeft: 4 }}>离线</Tag>}
        </span>
      ),
      width: 150,
      render: (_: unknown, r: SyncRow) => {
        const c = r.cells.find((x) => x.device_id === d.id);
        if (!c) return <span style={{ color: '#bbb' }}>—</span>;
        const tag = (
          <Tag color={COLORS[c.state]} data-testid={`sync-${r.grant_id}-${d.id}`}>
            {enumEntry(SYNC_STATE, c.state)?.text ?? c.state}
          </Tag>
        );
        return c.last_error ? <Tooltip title={c.last_error}>{tag}</Tooltip> : tag;
      },
    })),
  ];
  const retry = async () => {
    try {
      const answer = await request('accesssyncretry', {});
      noticeSuccess(answer.return_msg);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };
  return (
    <TablePage<SyncRow, { keyword?: string; state?: string }>
      testId="sync-page"
      title="人员下发情况"
      list={list}
      columns={columns}
      rowKey="grant_id"
      onSearch={(v) => list.setFilters({ keyword: v.keyword || undefined, state: (v.state || undefined) as never, sort: 'desc' })}
      onExport={(v) => runExport('accesssyncexport', { keyword: v.keyword ?? '' })}
      toolbar={
        <Space>
          {canWrite && (
            <Button onClick={() => void retry()} data-testid="sync-retry">
              重试全部失败
            </Button>
          )}
          <Button onClick={list.reload}>刷新</Button>
        </Space>
      }
      filters={
        <>
          <Form.Item name="keyword" label="人员">
            <Input allowClear maxLength={30} placeholder="姓名、房屋" />
          </Form.Item>
          <Form.Item name="state" label="下发状态">
            <Select
              allowClear
              style={{ width: 120 }}
              options={[
                { value: 'failed', label: '有失败' },
                { value: 'pending', label: '有下发中' },
                { value: 'held', label: '有已下发' },
              ]}
              data-testid="sync-filter-state"
            />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 400 + devices.length * 150 }, size: 'middle' }}
    />
  );
}
