import type { ButtonProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { App, Avatar, Button, Form, Modal, Space, Tag, Typography } from 'antd';
import { SyncOutlined, UserOutlined, WechatOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { HouseSearchItem } from '@wuye/contract';
import { wxFan, WX_UNAUTHORIZED, type WxFanItem } from '@wuye/contract/cards/wxfans';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { TextPromptModal } from '../../components/TextPromptModal';
import { invalidateResource, MembersSelect, ResourcePage, resourceKey, useCanWrite } from '../../components/resource';
import RoomOwnerSearch from '../fees/RoomOwnerSearch';

/**
 * 绑定业主: the owner search (a name, a mobile, its last four digits or a room number), then the
 * person of the room found (the one the search named, chosen already); OK binds the follower.
 */
function BindDialog({ fan, onClose, onDone }: { fan: WxFanItem | null; onClose: () => void; onDone: () => void }) {
  const [house, setHouse] = useState<HouseSearchItem | null>(null);
  const [memberId, setMemberId] = useState<number>();
  const [busy, setBusy] = useState(false);
  // the room's people as the picker below reads them (the same query, answered once): the one the search named is chosen
  const people = useQuery({
    queryKey: [...resourceKey('member'), 'living', house?.hid],
    queryFn: () => call('memberlist', { hid: house!.hid, living: 'Y', limit: 50 }, { silent: true }),
    enabled: !!house,
    retry: false,
    refetchOnWindowFocus: false,
  });
  useEffect(() => {
    const named = house && people.data?.items.find((m) => m.realname === house.realname);
    if (named) setMemberId((v) => v ?? named.id);
  }, [house, people.data]);
  const close = () => {
    setHouse(null);
    setMemberId(undefined);
    onClose();
  };
  const bind = async () => {
    if (!fan || !memberId) return;
    setBusy(true);
    try {
      noticeSuccess((await request('wxfansbind', { id: fan.id, member_id: memberId })).return_msg);
      close();
      onDone();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={!!fan}
      title="绑定业主"
      onCancel={close}
      onOk={() => void bind()}
      okText="绑定"
      okButtonProps={{ disabled: !memberId, loading: busy, 'data-testid': 'wxfan-bind-ok' } as ButtonProps}
      destroyOnHidden
      width={640}
      modalRender={(node) => <div data-testid="wxfan-bind-dialog">{node}</div>}
    >
      <Typography.Paragraph type="secondary" style={{ wordBreak: 'break-all' }}>
        粉丝 {fan?.openid}
        {fan?.remark ? `（${fan.remark}）` : ''}
      </Typography.Paragraph>
      <RoomOwnerSearch
        testId="wxfan-owner-search"
        onPick={(h) => {
          setHouse(h);
          setMemberId(undefined);
        }}
      />
      {house && (
        <Form layout="vertical" style={{ marginTop: 16 }}>
          <Form.Item label={`${house.address} 的住户`} required>
            <MembersSelect
              hid={house.hid}
              value={memberId}
              onChange={setMemberId}
              testId="wxfan-bind-member"
              placeholder={`请选择，如 ${house.realname}`}
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/**
 * /carpark/wxfanslist (公众号粉丝; docs/product.md#wx-followers): the official account's followers
 * as the platform gives them (no nickname or avatar since 2021-12-27: 未授权), 同步粉丝 from the
 * platform (a sandbox until one is set up), a remark, and binding a follower to an owner (which
 * the owner drawer's WeChat icon shows) or unbinding it. The card staff's; never a merchant's.
 */
export default function WxFansList() {
  const canWrite = useCanWrite(wxFan.def.roles.write);
  const queryClient = useQueryClient();
  const { modal } = App.useApp();
  const [syncing, setSyncing] = useState(false);
  const [binding, setBinding] = useState<WxFanItem | null>(null);
  const [remarking, setRemarking] = useState<WxFanItem | null>(null);
  const refresh = () => void invalidateResource(queryClient, wxFan.def.name);

  const sync = async () => {
    setSyncing(true);
    try {
      const res = await request('wxfanssync', {});
      noticeSuccess(res.return_msg, '同步完成');
      refresh();
    } catch {
      /* shown by the client */
    } finally {
      setSyncing(false);
    }
  };
  const unbind = (fan: WxFanItem) =>
    modal.confirm({
      title: '解除绑定',
      content: `解除该粉丝与业主${fan.realname}的绑定？${fan.realname}不再有其他绑定的粉丝时，其微信绑定状态变为未绑定。`,
      okText: '解绑',
      okButtonProps: { danger: true, 'data-testid': 'wxfan-unbind-ok' } as ButtonProps,
      onOk: async () => {
        noticeSuccess((await request('wxfansunbind', { id: fan.id })).return_msg);
        refresh();
      },
    });

  const columns = useMemo(
    () => ({
      openid: {
        render: (v: string, r: WxFanItem) => (
          <Space>
            <Avatar size={32} src={r.avatar || undefined} icon={<UserOutlined />} />
            <Space orientation="vertical" size={0}>
              {r.nickname ? (
                <span>{r.nickname}</span>
              ) : (
                <Typography.Text type="secondary" data-testid={`wxfan-unauthorized-${r.id}`}>
                  {WX_UNAUTHORIZED}
                </Typography.Text>
              )}
              <Typography.Text copyable={{ text: v }} style={{ fontSize: 12, whiteSpace: 'nowrap' }} type="secondary">
                {v.slice(0, 14)}…
              </Typography.Text>
            </Space>
          </Space>
        ),
      },
      unionid: { render: (v: string) => v || <Typography.Text type="secondary">—</Typography.Text>, ellipsis: true },
      tags: {
        render: (v: string[]) => (
          <Space size={[0, 4]} wrap>
            {v.map((t) => (
              <Tag key={t}>{t}</Tag>
            ))}
          </Space>
        ),
      },
      realname: {
        render: (v: string, r: WxFanItem) =>
          v ? (
            <Space orientation="vertical" size={0}>
              <Space size={4}>
                <WechatOutlined style={{ color: '#07c160' }} />
                <span>{v}</span>
              </Space>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {r.mobile}
              </Typography.Text>
            </Space>
          ) : (
            <Typography.Text type="secondary">未绑定</Typography.Text>
          ),
      },
      address: { ellipsis: true },
      channel: { render: (v: string) => v || <Typography.Text type="secondary">—</Typography.Text> },
    }),
    [],
  );

  return (
    <>
      <ResourcePage<WxFanItem>
        resource={wxFan}
        title="公众号粉丝"
        columns={columns}
        toolbar={
          <Button type="primary" icon={<SyncOutlined />} loading={syncing} onClick={() => void sync()} data-testid="wxfan-sync">
            同步粉丝
          </Button>
        }
        rowActions={(r) =>
          canWrite && (
            <>
              {r.member_id === null && r.subscribed === 'Y' && (
                <Button size="small" type="primary" ghost onClick={() => setBinding(r)} data-testid={`wxfan-bind-${r.id}`}>
                  绑定业主
                </Button>
              )}
              {r.member_id !== null && (
                <Button size="small" danger onClick={() => unbind(r)} data-testid={`wxfan-unbind-${r.id}`}>
                  解绑
                </Button>
              )}
              <Button size="small" onClick={() => setRemarking(r)} data-testid={`wxfan-remark-${r.id}`}>
                备注
              </Button>
            </>
          )
        }
      />
      <BindDialog fan={binding} onClose={() => setBinding(null)} onDone={refresh} />
      <TextPromptModal<WxFanItem>
        open={!!remarking}
        title="设置备注"
        label="备注"
        required="请输入备注"
        maxLength={30}
        placeholder="最多 30 字，同时写到公众号"
        testIds={{ text: 'wxfan-remark-text', ok: 'wxfan-remark-ok' }}
        send={(remark) => request('wxfansremark', { id: remarking!.id, remark })}
        onDone={() => {
          setRemarking(null);
          refresh();
        }}
        onCancel={() => setRemarking(null)}
      />
    </>
  );
}
