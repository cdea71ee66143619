import { useCallback, useEffect, useState } from 'react';
import { App, Button, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import type { SessionItem } from '@wuye/contract/auth';
import { call, request } from '../../api/client';
import { useDialogs } from '../../stores/dialogs';
import { useUser } from '../../stores/user';
import { loginUrl } from '../../utils/auth';

/** A browser's name and system from its User-Agent, enough to recognise it. */
export function browserOf(ua: string): string {
  if (!ua) return '未知';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /MicroMessenger/.test(ua)
      ? '微信'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Firefox\//.test(ua)
          ? 'Firefox'
          : /Safari\//.test(ua)
            ? 'Safari'
            : ua.split(/[ /]/)[0]!;
  const system = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad/.test(ua)
        ? 'iOS'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return system ? `${browser} · ${system}` : browser;
}

/**
 * 登录设备: the account's open sessions (consoles and board windows), where and when each signed
 * in and was last used; any of them, or all but this one, can be ended at once.
 */
export default function SessionsDialog() {
  const { message } = App.useApp();
  const [items, setItems] = useState<SessionItem[] | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => useDialogs.getState().setSessionsOpen(false);

  const load = useCallback(() => {
    call('sessionlist', {}).then(
      (d) => setItems(d.items),
      () => setItems([]),
    );
  }, []);
  useEffect(load, [load]);

  const end = async (payload: { id: number } | { others: 'Y' }, current = false) => {
    setBusy(true);
    try {
      const answer = await request('sessiondel', payload);
      void message.success(answer.return_msg);
      if (current) {
        // this browser's own session ended: as a logout
        close();
        await useUser.getState().logout();
        window.location.assign(loginUrl(window.location.pathname + window.location.search));
        return;
      }
      load();
    } catch {
      // the client toasted the reason
    } finally {
      setBusy(false);
    }
  };

  const others = (items ?? []).filter((s) => !s.current).length;
  return (
    <Modal
      open
      title="登录设备"
      width={860}
      onCancel={close}
      footer={
        <Space>
          <Popconfirm title="结束当前以外的全部会话？" onConfirm={() => void end({ others: 'Y' })} okText="结束" cancelText="取消">
            <Button danger disabled={!others || busy} data-testid="sessions-end-others">
              结束其他会话
            </Button>
          </Popconfirm>
          <Button onClick={close}>关闭</Button>
        </Space>
      }
    >
      <div data-testid="sessions-dialog">
        <Table<SessionItem>
          size="small"
          rowKey="id"
          loading={items === null}
          dataSource={items ?? []}
          pagination={false}
          columns={[
            {
              title: '类型',
              key: 'kind',
              width: 110,
              render: (_, s) => (
                <Space size={4}>
                  {s.kind === 'board' ? <Tag color="purple">看板</Tag> : <Tag color="blue">控制台</Tag>}
                  {s.current && <Tag color="green">当前</Tag>}
                </Space>
              ),
            },
            { title: '浏览器', key: 'ua', render: (_, s) => <span title={s.user_agent}>{browserOf(s.user_agent)}</span> },
            { title: '登录地址', dataIndex: 'ip', width: 130 },
            { title: '登录时间', dataIndex: 'create_time', width: 160 },
            { title: '最近使用', dataIndex: 'last_seen_time', width: 160 },
            {
              title: '操作',
              key: 'op',
              width: 80,
              render: (_, s) => (
                <Popconfirm
                  title={s.current ? '结束当前会话即退出登录，继续？' : '结束这个会话？'}
                  onConfirm={() => void end({ id: s.id }, s.current)}
                  okText="结束"
                  cancelText="取消"
                >
                  <Button type="link" size="small" danger disabled={busy} data-testid={`session-end-${s.id}`}>
                    结束
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </div>
    </Modal>
  );
}
