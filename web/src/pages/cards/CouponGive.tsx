import { useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Modal, Radio, Select, Space, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberCouponTemplateItem } from '@wuye/contract/cards/coupons';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource, RoomField } from '../../components/resource';
import { useIdempotentSubmit } from '../fees/useIdempotentSubmit';

type Picked = { value: number; label: string };

/** 按会员: people found by name or mobile, several at once. */
function MemberPicker({ value, onChange }: { value: Picked[]; onChange: (v: Picked[]) => void }) {
  const [keyword, setKeyword] = useState('');
  const found = useQuery({
    queryKey: ['res', 'membercoupon', 'givemembers', keyword],
    queryFn: () => call('cardgivemembers', { keyword }, { silent: true }),
    enabled: keyword.trim() !== '',
    retry: false,
  });
  const options = useMemo(
    () =>
      (found.data?.items ?? []).map((m) => ({
        value: m.id,
        label: `${m.realname} ${m.mobile}${m.houses ? ` · ${m.houses}` : ''}`,
      })),
    [found.data],
  );
  return (
    <Select
      mode="multiple"
      labelInValue
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      value={value}
      onChange={(v) => onChange(v as Picked[])}
      options={options}
      loading={found.isFetching}
      notFoundContent={keyword ? '没有找到匹配的会员' : '输入姓名或手机号查找'}
      placeholder="输入姓名或手机号查找会员"
      style={{ width: '100%' }}
      data-testid="coupongive-members"
    />
  );
}

/** 按房屋: rooms picked one by one; their owners living there get one each. */
function HousePicker({ value, onChange }: { value: Picked[]; onChange: (v: Picked[]) => void }) {
  const [hid, setHid] = useState<number | undefined>();
  const add = async () => {
    if (!hid || value.some((h) => h.value === hid)) return;
    const room = await call('roominfo', { id: hid });
    onChange([...value, { value: hid, label: room.address }]);
    setHid(undefined);
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <RoomField value={hid} onChange={setHid} testId="coupongive-room" />
        <Button onClick={() => void add()} disabled={!hid} data-testid="coupongive-room-add">
          添加
        </Button>
      </Space>
      <div data-testid="coupongive-houses">
        {value.map((h) => (
          <Tag key={h.value} closable onClose={() => onChange(value.filter((x) => x.value !== h.value))}>
            {h.label}
          </Tag>
        ))}
      </div>
    </Space>
  );
}

/**
 * 发放 (优惠券; docs/product.md#member-coupons): staff give a template to chosen members, or to the
 * owners living in chosen houses, one each. All or nothing: the server refuses the whole give when the
 * stock runs short or someone already holds the limit; a retry of the same attempt gives once.
 */
export default function CouponGive({ template, onClose }: { template: MemberCouponTemplateItem; onClose: (given: boolean) => void }) {
  const queryClient = useQueryClient();
  const [by, setBy] = useState<'members' | 'houses'>('members');
  const [members, setMembers] = useState<Picked[]>([]);
  const [houses, setHouses] = useState<Picked[]>([]);
  const { submitting, submit, newAttempt } = useIdempotentSubmit();
  const chosen = by === 'members' ? members : houses;
  const save = async () => {
    const answer = await submit((idempotency_key) =>
      request('cardgive', {
        template_id: template.id,
        member_ids: by === 'members' ? members.map((m) => m.value) : [],
        hids: by === 'houses' ? houses.map((h) => h.value) : [],
        idempotency_key,
      }),
    );
    if (!answer) return;
    noticeSuccess(answer.return_msg);
    void invalidateResource(queryClient, 'membercoupon');
    void invalidateResource(queryClient, 'membercoupongiven');
    onClose(true);
  };
  const change =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      newAttempt();
    };
  return (
    <Modal
      open
      title={`发放「${template.name}」`}
      width={600}
      onCancel={() => onClose(false)}
      destroyOnHidden
      modalRender={(node) => <div data-testid="coupongive">{node}</div>}
      footer={[
        <Button key="cancel" onClick={() => onClose(false)}>
          取消
        </Button>,
        <Button
          key="ok"
          type="primary"
          loading={submitting}
          disabled={chosen.length === 0}
          onClick={() => void save()}
          data-testid="coupongive-ok"
        >
          发放{chosen.length ? `（${chosen.length}${by === 'members' ? ' 人' : ' 户'}）` : ''}
        </Button>,
      ]}
    >
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="优惠内容">{template.rule_text}</Descriptions.Item>
        <Descriptions.Item label="有效期">{template.validity_text}</Descriptions.Item>
        <Descriptions.Item label="剩余/库存">{template.stock_text}</Descriptions.Item>
        <Descriptions.Item label="每人限领">{template.per_person === 0 ? '不限' : `${template.per_person} 张`}</Descriptions.Item>
      </Descriptions>
      <Radio.Group
        value={by}
        onChange={(e) => change(setBy)(e.target.value as 'members' | 'houses')}
        options={[
          { value: 'members', label: '按会员' },
          { value: 'houses', label: '按房屋（发给在住业主）' },
        ]}
        style={{ marginBottom: 12 }}
        data-testid="coupongive-by"
      />
      {by === 'members' ? (
        <MemberPicker value={members} onChange={change(setMembers)} />
      ) : (
        <HousePicker value={houses} onChange={change(setHouses)} />
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        每人发放一张；库存不足或有人已达每人限领时整批不发。
      </Typography.Paragraph>
      {template.status !== 'Y' && <Alert type="warning" showIcon style={{ marginTop: 12 }} title="该优惠券已停用，不能发放" />}
    </Modal>
  );
}
