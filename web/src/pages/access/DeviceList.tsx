import { useState } from 'react';
import { Button, Drawer, Space, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import { useLocation, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { COMMAND_STATE, accessDevice, type CommandItem, type DeviceItem } from '@wuye/contract';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import { EnumTag, ResourcePage, useCanWrite, useFormFromAddress, useResourceForm, useResourceList } from '../../components/resource';

const LIST = '/carpark/current_device';
/** the list's filters stay at its own address when the page opened at …add or …edit */
const LIST_OPTIONS = { path: LIST };

/** A device's commands (open, restart, person pushes) with their state, tries, error and answer time. */
export function CommandDrawer({ device, onClose }: { device: DeviceItem; onClose: () => void }) {
  const list = useList('accesscommandlist', { device_id: device.id });
  const columns: TableColumnsType<CommandItem> = [
    { key: 'id', title: 'ID', dataIndex: 'id', width: 70 },
    { key: 'kind', title: '指令', dataIndex: 'kind_ch', width: 100 },
    { key: 'subject', title: '对象', dataIndex: 'subject', width: 100 },
    { key: 'state', title: '状态', dataIndex: 'state', width: 90, render: (v: string) => <EnumTag enum={COMMAND_STATE} value={v} /> },
    { key: 'attempts', title: '尝试', dataIndex: 'attempts', width: 60 },
    { key: 'last_error', title: '错误', dataIndex: 'last_error', width: 160 },
    { key: 'next_try_at', title: '下次重试', dataIndex: 'next_try_at', width: 170 },
    { key: 'create_time', title: '创建', dataIndex: 'create_time', width: 170 },
    { key: 'acked_at', title: '应答', dataIndex: 'acked_at', width: 170 },
    { key: 'operator', title: '操作人', dataIndex: 'operator', width: 90 },
  ];
  return (
    <Drawer
      open
      size="large"
      title={`${device.code} ${device.title} · 指令记录`}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Button onClick={list.reload} data-testid="command-refresh">
          刷新
        </Button>
      }
    >
      <Table<CommandItem>
        rowKey="id"
        size="small"
        data-testid="command-table"
        loading={list.loading}
        columns={columns}
        dataSource={list.items}
        scroll={{ x: 1200 }}
        pagination={{ current: list.page, pageSize: list.limit, total: list.total, onChange: (p, l) => list.setPage(p, l) }}
      />
    </Drawer>
  );
}

/**
 * /carpark/current_device (门禁设备; docs/product.md#access-control): the door devices with their
 * online state from heartbeats; 远程开门 and 重启 go through the command queue and the device's
 * answer shows in 指令记录. /carpark/hardwareadd (and add_device) and /carpark/hardwareedit?id= open
 * the form from a link.
 */
export default function DeviceList() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const route =
    pathname.endsWith('/hardwareadd') || pathname.endsWith('/add_device') ? 'add' : pathname.endsWith('/hardwareedit') ? 'edit' : null;
  const canWrite = useCanWrite(accessDevice.def.roles.write);
  const list = useResourceList(accessDevice, LIST_OPTIONS);
  const form = useResourceForm(accessDevice);
  const queryClient = useQueryClient();
  const [commands, setCommands] = useState<DeviceItem | null>(null);
  useFormFromAddress({
    route,
    linkId: Number(params.get('id')) || 0,
    items: list.items,
    ready: !list.loading && list.total > 0,
    form,
    listPath: LIST,
    missing: '门禁设备不存在',
  });
  const send = async (row: DeviceItem, method: 'accessdeviceopen' | 'accessdevicerestart') => {
    try {
      const answer = await request(method, { id: row.id });
      noticeSuccess(answer.return_msg);
      void queryClient.invalidateQueries({ queryKey: ['list', 'accesscommandlist'] });
      list.reload();
    } catch {
      /* shown by the client */
    }
  };
  return (
    <>
      <ResourcePage<DeviceItem>
        resource={accessDevice}
        listOptions={LIST_OPTIONS}
        title="门禁设备"
        form={form}
        rowActions={(row) => (
          <Space size={0}>
            {canWrite && (
              <>
                <Button size="small" type="link" onClick={() => void send(row, 'accessdeviceopen')} data-testid={`device-open-${row.id}`}>
                  远程开门
                </Button>
                <Button
                  size="small"
                  type="link"
                  onClick={() => void send(row, 'accessdevicerestart')}
                  data-testid={`device-restart-${row.id}`}
                >
                  重启
                </Button>
              </>
            )}
            <Button size="small" type="link" onClick={() => setCommands(row)} data-testid={`device-commands-${row.id}`}>
              指令记录
            </Button>
          </Space>
        )}
      />
      {commands && <CommandDrawer device={commands} onClose={() => setCommands(null)} />}
    </>
  );
}
