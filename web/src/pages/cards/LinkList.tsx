import { useMemo, useState } from 'react';
import { AutoComplete, Button, Card, Descriptions, Form, Input, Modal, Popover, Space, Tag, Typography } from 'antd';
import { CheckOutlined, CopyOutlined, QrcodeOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { HouseSearchItem } from '@wuye/contract';
import { CARD_LINK_CHANNELS, CARD_LINK_KIND, cardLink, type CardLinkItem } from '@wuye/contract/cards/links';
import { CARD_ROLES } from '@wuye/contract/cards/roles';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import QrImage from '../../components/QrImage';
import {
  EnumTag,
  MembersSelect,
  ResourcePage,
  SmallSelect,
  invalidateResource,
  useCanWrite,
  useResourceForm,
  type Widgets,
} from '../../components/resource';
import { useIdempotentSubmit } from '../fees/useIdempotentSubmit';
import RoomOwnerSearch from '../fees/RoomOwnerSearch';

type InputProps = { value?: string | number; onChange?: (v: unknown) => void; 'data-testid'?: string };

/** The claim address a member opens: the server's (PUBLIC_URL), or this console's host before the path. */
const claimUrl = (url: string) => (url.startsWith('/') ? `${window.location.origin}${url}` : url);

const channelOptions = CARD_LINK_CHANNELS.map((c) => ({ value: c }));

/** 渠道: one of the usual channels, or any other word. */
function ChannelInput({ value, onChange, 'data-testid': testId }: InputProps) {
  return (
    <AutoComplete
      value={value as string | undefined}
      onChange={onChange}
      options={channelOptions}
      // a word of one's own closes the suggestions
      filterOption={(input, option) => !input || String(option?.value).includes(input)}
      placeholder="如 公众号菜单"
      maxLength={20}
      allowClear
      data-testid={testId}
    />
  );
}

/** The card or the coupon a link claims: its dropdown shows while 领取内容 names it, fixed once added. */
function targetWidget(kind: 'card' | 'coupon', small: string, editing: boolean) {
  return function Target({ value, onChange, 'data-testid': testId }: InputProps) {
    const current = Form.useWatch('kind', Form.useFormInstance()) as string | undefined;
    if (current !== kind) return <Typography.Text type="secondary">领取{CARD_LINK_KIND[kind].text}时选择</Typography.Text>;
    return (
      <SmallSelect
        widget={{ small }}
        values={{}}
        value={value}
        onChange={onChange}
        disabled={editing}
        placeholder={`请选择${CARD_LINK_KIND[kind].text}`}
        testId={testId}
      />
    );
  };
}

/** The link's QR code and its address, to copy or to print on a poster. */
function LinkQr({ row }: { row: CardLinkItem }) {
  const url = claimUrl(row.url);
  return (
    <Space size={4}>
      <Popover
        trigger="click"
        title={`${row.target_name} · ${row.channel}`}
        content={
          <Space orientation="vertical" align="center" data-testid={`cardslink-qr-${row.id}`}>
            <QrImage text={url} size={200} testId={`cardslink-qr-image-${row.id}`} />
            <Typography.Text type="secondary" style={{ fontSize: 12, maxWidth: 220 }} ellipsis={{ tooltip: url }}>
              {url}
            </Typography.Text>
          </Space>
        }
      >
        <Button size="small" icon={<QrcodeOutlined />} data-testid={`cardslink-showqr-${row.id}`}>
          二维码
        </Button>
      </Popover>
      <Typography.Text
        copyable={{
          text: url,
          icon: [
            <span key="copy" data-testid={`cardslink-copy-${row.id}`}>
              <CopyOutlined /> 复制链接
            </span>,
            <span key="done">
              <CheckOutlined /> 已复制
            </span>,
          ],
          tooltips: false,
        }}
      />
    </Space>
  );
}

/**
 * 代领: staff claim through a link for a member at the counter: the owner search finds the room,
 * the people living there are offered; a card link may take the card's number (blank: the system
 * gives one). Once per opening of the dialog, however often it is sent.
 */
function ClaimDialog({ link, onClose }: { link: CardLinkItem; onClose: (claimed: boolean) => void }) {
  const [house, setHouse] = useState<HouseSearchItem | null>(null);
  const [memberId, setMemberId] = useState<number | undefined>();
  const [cardNo, setCardNo] = useState('');
  const { submitting, submit, newAttempt } = useIdempotentSubmit();
  const save = async () => {
    if (!memberId) return;
    const answer = await submit((idempotency_key) =>
      request('cardslinkclaim', { token: link.token, member_id: memberId, card_no: cardNo.trim(), idempotency_key }),
    );
    if (!answer) return;
    noticeSuccess(answer.return_msg);
    onClose(true);
  };
  return (
    <Modal
      open
      title={`代领 · ${link.target_name}`}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      okText="确认领取"
      confirmLoading={submitting}
      okButtonProps={{ disabled: !memberId, 'data-testid': 'cardslink-claim-ok' } as never}
      destroyOnHidden
      width={600}
      modalRender={(node) => <div data-testid="cardslink-claim">{node}</div>}
    >
      <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="领取内容">
          <EnumTag enum={CARD_LINK_KIND} value={link.kind} /> {link.target_name}
        </Descriptions.Item>
        <Descriptions.Item label="渠道">{link.channel}</Descriptions.Item>
      </Descriptions>
      {house ? (
        <div style={{ marginBottom: 12 }}>
          <Typography.Text strong data-testid="cardslink-claim-house">
            {house.address}
          </Typography.Text>
          <Button
            size="small"
            type="link"
            onClick={() => {
              setHouse(null);
              setMemberId(undefined);
              newAttempt();
            }}
          >
            重新搜索
          </Button>
        </div>
      ) : (
        <div style={{ marginBottom: 12 }}>
          <RoomOwnerSearch onPick={setHouse} testId="cardslink-claim-search" />
        </div>
      )}
      <Form layout="vertical" disabled={!house}>
        <Form.Item label="会员" required>
          <MembersSelect
            hid={house?.hid}
            value={memberId}
            onChange={(id) => {
              setMemberId(id);
              newAttempt();
            }}
            placeholder="先搜索业主或房屋"
            testId="cardslink-claim-member"
          />
        </Form.Item>
        {link.kind === 'card' && (
          <Form.Item label="卡号" extra="不填由系统生成；每位会员只能有一张在用的会员卡">
            <Input
              value={cardNo}
              maxLength={32}
              onChange={(e) => {
                setCardNo(e.target.value);
                newAttempt();
              }}
              data-testid="cardslink-claim-cardno"
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/** The channels' links and claims, in all and today. */
function ChannelSummary() {
  const channels = useQuery({ queryKey: ['cardslink', 'channels'], queryFn: () => call('cardslinkchannels', {}) });
  const items = channels.data?.items ?? [];
  if (!items.length) return null;
  return (
    <Card size="small" style={{ marginBottom: 12 }} title="各渠道领取" data-testid="cardslink-channels">
      <Space wrap size={[8, 8]}>
        {items.map((c) => (
          <Tag key={c.channel} style={{ padding: '4px 10px', fontSize: 13 }} data-testid="cardslink-channel">
            <Typography.Text strong>{c.channel}</Typography.Text> · {c.links} 个链接 · 领取 {c.claims}
            <Typography.Text type="secondary">（今日 {c.claims_today}）</Typography.Text>
          </Tag>
        ))}
      </Space>
    </Card>
  );
}

/**
 * /carpark/cardslink (领卡链接; docs/product.md#card-links): links and QR codes that claim a member
 * card or a coupon, each with its channel, and their claims in all and today. Setting them up takes
 * `cardset`; 代领 (a claim for a member at the counter) those who open cards; the card staff read.
 */
export default function LinkList() {
  const queryClient = useQueryClient();
  const form = useResourceForm(cardLink);
  const editing = form.editing !== null && form.editing !== 'new';
  const canClaim = useCanWrite(CARD_ROLES.issue);
  const canManage = useCanWrite(cardLink.def.roles.write);
  const [claiming, setClaiming] = useState<CardLinkItem | null>(null);
  const widgets = useMemo(
    () =>
      ({
        channel: ChannelInput,
        card_template_id: targetWidget('card', 'cardtemplate_small_list', editing),
        coupon_template_id: targetWidget('coupon', 'cards_small_list', editing),
      }) as unknown as Widgets,
    [editing],
  );
  const changed = () => {
    void invalidateResource(queryClient, cardLink.def.name);
    void queryClient.invalidateQueries({ queryKey: ['cardslink', 'channels'] });
  };
  const setStatus = async (row: CardLinkItem, status: 'Y' | 'N') => {
    const answer = await request('cardslinkedit', { id: row.id, channel: row.channel, status, remark: row.remark }).catch(() => null);
    if (!answer) return;
    noticeSuccess(status === 'N' ? '已停止投放' : '已恢复投放');
    changed();
  };
  return (
    <>
      <ChannelSummary />
      <ResourcePage<CardLinkItem>
        resource={cardLink}
        title="领卡链接"
        form={form}
        widgets={widgets}
        filterWidgets={{ channel: ChannelInput } as unknown as Widgets}
        columns={{
          target_name: { render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
          claims: { align: 'right', render: (v: number, r) => <span data-testid={`cardslink-claims-${r.id}`}>{v}</span> },
          claims_today: { align: 'right', render: (v: number, r) => <span data-testid={`cardslink-today-${r.id}`}>{v}</span> },
        }}
        extraColumns={[{ key: 'qr', title: '二维码 / 链接', width: 190, render: (_: unknown, r: CardLinkItem) => <LinkQr row={r} /> }]}
        rowActions={(row) => (
          <>
            {canClaim && row.status === 'Y' && (
              <Button size="small" type="primary" ghost onClick={() => setClaiming(row)} data-testid={`cardslink-claim-${row.id}`}>
                代领
              </Button>
            )}
            {canManage && (
              <Button
                size="small"
                onClick={() => void setStatus(row, row.status === 'Y' ? 'N' : 'Y')}
                data-testid={`cardslink-toggle-${row.id}`}
              >
                {row.status === 'Y' ? '停止' : '恢复'}
              </Button>
            )}
          </>
        )}
      />
      {claiming && (
        <ClaimDialog
          link={claiming}
          onClose={(claimed) => {
            setClaiming(null);
            if (claimed) changed();
          }}
        />
      )}
    </>
  );
}
