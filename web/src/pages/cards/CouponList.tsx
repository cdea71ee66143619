import { createContext, useContext, useState, type ComponentType } from 'react';
import { Button, DatePicker, Form, Input, InputNumber, Radio, Space, Tag, Typography } from 'antd';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { enumOptions, type ValueEnum } from '@wuye/contract/kit/resource';
import { CARD_ROLES } from '@wuye/contract/cards/roles';
import {
  MEMBER_COUPON_KIND,
  MEMBER_COUPON_PURPOSE,
  MEMBER_COUPON_SOURCE,
  MEMBER_COUPON_VALIDITY,
  memberCouponTemplate,
  type MemberCouponTemplateItem,
} from '@wuye/contract/cards/coupons';
import MoneyInput from '../../components/MoneyInput';
import {
  ResourcePage,
  SmallSelect,
  useCanWrite,
  useFormFromAddress,
  useResourceForm,
  useResourceList,
  type Widgets,
} from '../../components/resource';
import CouponGive from './CouponGive';

const LIST = '/carpark/cardslist';
const LIST_OPTIONS = { path: LIST };

type InputProps = { value?: unknown; onChange?: (v: unknown) => void; 'data-testid'?: string; disabled?: boolean };

/** The template being edited has given coupons: only the name, description, more stock and a later end change. */
const Locked = createContext(false);

/** An input that cannot change once a coupon of the template was given (the server refuses it too). */
function frozen(Input: ComponentType<InputProps>) {
  return function Frozen(props: InputProps) {
    return <Input {...props} disabled={useContext(Locked)} />;
  };
}

/** An input shown only while another field holds one of `values`; a hint otherwise. */
function onlyWhen(field: string, values: string[], Input: ComponentType<InputProps>, hint: string) {
  return function OnlyWhen(props: InputProps) {
    const current = Form.useWatch(field, Form.useFormInstance()) as string | undefined;
    if (!values.includes(current ?? '')) return <Typography.Text type="secondary">{hint}</Typography.Text>;
    return <Input {...props} />;
  };
}

const choice = (e: ValueEnum) =>
  function Choice(p: InputProps) {
    return (
      <Radio.Group
        options={enumOptions(e)}
        value={p.value}
        onChange={(ev) => p.onChange?.(ev.target.value)}
        disabled={p.disabled}
        data-testid={p['data-testid']}
      />
    );
  };
const Money = (p: InputProps) => <MoneyInput {...(p as object)} />;
const Count = (p: InputProps) => <InputNumber precision={0} min={1} style={{ width: '100%' }} {...(p as object)} />;
const Whole = (p: InputProps) => <InputNumber precision={0} min={0} style={{ width: '100%' }} {...(p as object)} />;
const Day = (p: InputProps) => <DatePicker inputReadOnly style={{ width: '100%' }} {...(p as object)} />;
const Stores = (p: InputProps) => (
  <SmallSelect
    widget={{ small: 'merchant_auth_small_list', multiple: true }}
    values={{}}
    placeholder="全部商户"
    allowClear
    testId={p['data-testid']}
    {...(p as object)}
  />
);

const widgets = {
  kind: frozen(choice(MEMBER_COUPON_KIND)),
  purpose: frozen(choice(MEMBER_COUPON_PURPOSE)),
  face_value: onlyWhen('kind', ['amount'], frozen(Money), '满减券时填写'),
  min_spend: onlyWhen('kind', ['amount', 'discount'], frozen(Money), '礼品券无最低消费'),
  discount_percent: onlyWhen('kind', ['discount'], frozen(Count), '折扣券时填写'),
  discount_cap: onlyWhen('kind', ['discount'], frozen(Money), '折扣券时填写'),
  gift: onlyWhen(
    'kind',
    ['gift'],
    frozen((p) => <Input maxLength={40} {...(p as object)} />),
    '礼品券时填写',
  ),
  merchant_ids: frozen(Stores),
  stock: (p: InputProps) => <InputNumber precision={0} min={1} placeholder="不限" style={{ width: '100%' }} {...(p as object)} />,
  per_person: frozen(Whole),
  give_mode: frozen(choice(MEMBER_COUPON_SOURCE)),
  validity: frozen(choice(MEMBER_COUPON_VALIDITY)),
  valid_start: onlyWhen('validity', ['range'], frozen(Day), '固定日期时填写'),
  valid_end: onlyWhen('validity', ['range'], Day, '固定日期时填写'),
  valid_days: onlyWhen('validity', ['days'], Count, '领取后N天时填写'),
} as unknown as Widgets;

/**
 * /carpark/cardslist (优惠券; docs/product.md#member-coupons): the coupon templates: 满减, 折扣 with a
 * cap, or a gift; what they pay towards, the stores, stock, limit per member, how they are given and
 * their validity. 新增 also at /carpark/cardsadd, edit at /carpark/cardsedit?id=: once a coupon is
 * given only the name, description, more stock and a later end change. 发放 gives one to chosen
 * members or houses' owners; 数据 opens /carpark/carshow. Managing them takes `cardcoupon`.
 */
export default function CouponList() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const route = pathname.endsWith('/cardsadd') ? 'add' : pathname.endsWith('/cardsedit') ? 'edit' : null;
  const list = useResourceList(memberCouponTemplate, LIST_OPTIONS);
  const form = useResourceForm(memberCouponTemplate);
  const canGive = useCanWrite(CARD_ROLES.coupons);
  const [giving, setGiving] = useState<MemberCouponTemplateItem | null>(null);
  useFormFromAddress({
    route,
    linkId: Number(params.get('id')) || 0,
    items: list.items,
    ready: !list.loading && list.total > 0,
    form,
    listPath: LIST,
    missing: '优惠券不存在',
  });
  const editing = form.editing && form.editing !== 'new' ? form.editing : null;
  return (
    <Locked.Provider value={!!editing?.locked}>
      <ResourcePage<MemberCouponTemplateItem>
        resource={memberCouponTemplate}
        listOptions={LIST_OPTIONS}
        title="优惠券"
        form={form}
        widgets={widgets}
        columns={{
          rule_text: { render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
          merchants: { ellipsis: true },
          issued: { align: 'right' },
          used: { align: 'right' },
          name: {
            render: (v: string, r) => (
              <Space size={4}>
                <span>{v}</span>
                {r.locked && <Tag style={{ marginInlineEnd: 0 }}>已发放</Tag>}
              </Space>
            ),
          },
        }}
        rowActions={(row) => (
          <Space size={0}>
            {canGive && row.status === 'Y' && row.give_mode !== 'rule' && (
              <Button size="small" type="link" onClick={() => setGiving(row)} data-testid={`membercoupon-give-${row.id}`}>
                发放
              </Button>
            )}
            <Button
              size="small"
              type="link"
              onClick={() => void navigate(`/carpark/carshow?id=${row.id}`)}
              data-testid={`membercoupon-show-${row.id}`}
            >
              数据
            </Button>
          </Space>
        )}
      />
      {giving && (
        <CouponGive
          template={giving}
          onClose={(given) => {
            setGiving(null);
            if (given) list.reload();
          }}
        />
      )}
    </Locked.Provider>
  );
}
