import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Modal, Radio, Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { HouseSearchItem } from '@wuye/contract';
import { MALL_DELIVERY, mallOrderAddSchema } from '@wuye/contract/cards/mall';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource, useSmallList, zodRule } from '../../components/resource';
import RoomOwnerSearch from '../fees/RoomOwnerSearch';
import './mall.css';

interface Values {
  member_id?: number;
  spec_id?: number;
  quantity: number;
  delivery_mode: 'pickup' | 'delivery';
  address: string;
  contact_name: string;
  contact_mobile: string;
  remark: string;
}

/** A fresh key per opening of the dialog: a double click or a retry redeems once. */
const newKey = () => `mall-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
const field = (k: keyof typeof mallOrderAddSchema.shape) => mallOrderAddSchema.shape[k];

/**
 * 兑换 (积分商城): staff redeem goods for a member at the property office. The owner search finds
 * the house (a name, a mobile or a room); the people living there are offered with their points;
 * then the goods' specification (on sale, with points and stock), the quantity and how the member
 * receives it. The points needed and what the member keeps are shown before it is sent; the server
 * takes the points and the stock in one transaction.
 */
export default function MallRedeem({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (orderId: number) => void }) {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const [house, setHouse] = useState<HouseSearchItem | null>(null);
  const [key, setKey] = useState(newKey);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!open) return;
    setHouse(null);
    setKey(newKey());
    form.resetFields();
  }, [open, form]);

  const settings = useQuery({ queryKey: ['mall', 'settings'], queryFn: () => call('shopmallinfo'), enabled: open });
  const members = useQuery({
    queryKey: ['mall', 'members', house?.hid],
    queryFn: () => call('mallmembers', { hid: house!.hid }),
    enabled: open && !!house,
  });
  const specs = useSmallList('mall_spec_small_list', open ? {} : null);
  const values = Form.useWatch([], form) as Partial<Values> | undefined;

  // the searched person, or the room's first (its owner), is chosen at once
  useEffect(() => {
    const items = members.data?.items;
    if (!items?.length || !house) return;
    const picked = items.find((m) => m.realname === house.realname) ?? items[0]!;
    form.setFieldsValue({ member_id: picked.id, address: house.address });
  }, [members.data, house, form]);
  useEffect(() => {
    const s = settings.data;
    if (s && open) form.setFieldValue('delivery_mode', s.pickup === 'Y' ? 'pickup' : 'delivery');
  }, [settings.data, open, form]);

  const member = members.data?.items.find((m) => m.id === values?.member_id);
  const spec = specs.items.find((s) => s.id === values?.spec_id);
  const needed = spec ? spec.points * (values?.quantity ?? 1) : 0;
  const short = !!member && !!spec && needed > member.bonus;
  const modes = useMemo(
    () =>
      enumOptions(MALL_DELIVERY).filter((o) => (o.value === 'pickup' ? settings.data?.pickup === 'Y' : settings.data?.delivery === 'Y')),
    [settings.data],
  );

  const submit = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const answer = await request('mallorderadd', {
        member_id: v.member_id!,
        spec_id: v.spec_id!,
        quantity: v.quantity,
        delivery_mode: v.delivery_mode,
        address: v.delivery_mode === 'delivery' ? v.address : '',
        contact_name: v.contact_name ?? '',
        contact_mobile: v.contact_mobile ?? '',
        remark: v.remark ?? '',
        idempotency_key: key,
      });
      noticeSuccess(answer.return_msg);
      void invalidateResource(queryClient, 'mallorder');
      void invalidateResource(queryClient, 'goods');
      void queryClient.invalidateQueries({ queryKey: ['mall', 'members'] });
      onDone(answer.data.id);
    } catch {
      /* shown by the client; the key stays, so sending again cannot redeem twice */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="为会员兑换"
      open={open}
      onCancel={onClose}
      width={640}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button
          key="ok"
          type="primary"
          loading={saving}
          disabled={!house || short}
          onClick={() => void submit()}
          data-testid="mallredeem-ok"
        >
          确认兑换
        </Button>,
      ]}
      modalRender={(node) => <div data-testid="mallredeem">{node}</div>}
    >
      {settings.data?.enabled === 'N' && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title="积分商城未开启，不能兑换" />}
      {house ? (
        <div className="mall-redeem-member" style={{ marginBottom: 12 }}>
          <Typography.Text strong data-testid="mallredeem-house">
            {house.address}
          </Typography.Text>
          <Button size="small" type="link" onClick={() => setHouse(null)} data-testid="mallredeem-rehouse">
            重新搜索
          </Button>
        </div>
      ) : (
        <div style={{ marginBottom: 12 }}>
          <RoomOwnerSearch onPick={setHouse} testId="mallredeem-search" />
        </div>
      )}
      <Form form={form} layout="vertical" initialValues={{ quantity: 1, delivery_mode: 'pickup' }} disabled={!house}>
        <Form.Item name="member_id" label="会员" rules={[{ required: true, message: '请选择会员' }]}>
          <Select
            placeholder="先搜索业主或房屋"
            loading={members.isFetching}
            options={(members.data?.items ?? []).map((m) => ({
              value: m.id,
              label: `${m.realname}（${m.relation_ch}）${m.mobile} · 积分 ${m.bonus}`,
            }))}
            data-testid="mallredeem-member"
          />
        </Form.Item>
        <Form.Item name="spec_id" label="商品" rules={[{ required: true, message: '请选择商品' }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="上架商品的规格"
            loading={specs.loading}
            options={specs.items.map((s) => ({
              value: s.id,
              label: `${s.title} · ${s.points} 积分 · 库存 ${s.stock}`,
              disabled: s.stock === 0,
            }))}
            data-testid="mallredeem-spec"
          />
        </Form.Item>
        <Space wrap size="large" align="start">
          <Form.Item name="quantity" label="数量" rules={[zodRule(field('quantity'), '数量')]}>
            <InputNumber min={1} max={Math.max(1, Math.min(99, spec?.stock ?? 99))} precision={0} data-testid="mallredeem-quantity" />
          </Form.Item>
          <Form.Item name="delivery_mode" label="领取方式">
            <Radio.Group options={modes} data-testid="mallredeem-mode" />
          </Form.Item>
        </Space>
        {values?.delivery_mode === 'delivery' && (
          <>
            <Form.Item name="address" label="收货地址" rules={[{ required: true, whitespace: true, message: '配送须填写收货地址' }]}>
              <Input maxLength={100} data-testid="mallredeem-address" />
            </Form.Item>
            <Space wrap size="large" align="start">
              <Form.Item name="contact_name" label="收货人" extra="不填为会员本人">
                <Input maxLength={20} data-testid="mallredeem-contact" />
              </Form.Item>
              <Form.Item
                name="contact_mobile"
                label="联系电话"
                extra="不填为会员的手机号"
                rules={[zodRule(field('contact_mobile'), '联系电话')]}
              >
                <Input maxLength={11} data-testid="mallredeem-phone" />
              </Form.Item>
            </Space>
          </>
        )}
        {values?.delivery_mode === 'pickup' && settings.data?.pickup_address && (
          <Typography.Paragraph type="secondary">
            自提地点：{settings.data.pickup_address}
            {settings.data.pickup_hours && `（${settings.data.pickup_hours}）`}
          </Typography.Paragraph>
        )}
        <Form.Item name="remark" label="备注">
          <Input maxLength={100} data-testid="mallredeem-remark" />
        </Form.Item>
      </Form>
      {member && spec && (
        <Alert
          type={short ? 'error' : 'info'}
          showIcon
          data-testid="mallredeem-summary"
          title={
            short
              ? `需 ${needed} 积分，${member.realname} 只有 ${member.bonus} 积分`
              : `需 ${needed} 积分，${member.realname} 现有 ${member.bonus} 积分，兑换后剩 ${member.bonus - needed} 积分`
          }
        />
      )}
    </Modal>
  );
}
