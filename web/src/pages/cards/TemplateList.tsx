import type { ComponentType } from 'react';
import { Checkbox, DatePicker, Form, InputNumber, Tag, Typography } from 'antd';
import { enumOptions } from '@wuye/contract/kit/resource';
import { ACTIVATION_FIELD, cardTemplate, type CardTemplateItem } from '@wuye/contract/cards/templates';
import { ResourcePage, type Widgets } from '../../components/resource';

type InputProps = { value?: unknown; onChange?: (v: unknown) => void; 'data-testid'?: string };

/** An input shown only while another field of the form has a value (固定日期's dates, 滚动's months); a hint otherwise. */
function onlyWhen(field: string, value: string, Input: ComponentType<InputProps>, hint: string) {
  return function OnlyWhen(props: InputProps) {
    const current = Form.useWatch(field, Form.useFormInstance()) as string | undefined;
    if (current !== value) return <Typography.Text type="secondary">{hint}</Typography.Text>;
    return <Input {...props} />;
  };
}
const Day = (p: InputProps) => <DatePicker inputReadOnly style={{ width: '100%' }} {...(p as object)} />;
const Count = (p: InputProps) => <InputNumber precision={0} min={1} style={{ width: '100%' }} {...(p as object)} />;

/** 激活信息: mobile and name always, birthday and ID number when the card asks for them. */
function Activation(props: InputProps) {
  return (
    <Checkbox.Group
      options={enumOptions(ACTIVATION_FIELD).map((o) => ({ ...o, disabled: o.value === 'mobile' || o.value === 'name' }))}
      value={(props.value as string[] | undefined) ?? ['mobile', 'name']}
      onChange={(v) => props.onChange?.(v)}
      data-testid={props['data-testid']}
    />
  );
}

const widgets = {
  activation: Activation,
  valid_start: onlyWhen('validity', 'range', Day, '固定日期时填写'),
  valid_end: onlyWhen('validity', 'range', Day, '固定日期时填写'),
  valid_days: onlyWhen('validity', 'days', Count, '领取后N天时填写'),
  expiry_months: onlyWhen('expiry', 'rolling', Count, '滚动N个月时填写'),
} as unknown as Widgets;

/**
 * /carpark/cardinfo (会员卡设置; docs/product.md#member-cards): the community's card templates: the
 * card's face, validity, activation, member discount, points and balance, and the points rules
 * (earned per yuan, redeemed N points for M yuan, expiry). Setting them up takes `cardset`; a
 * merchant (role `card`) reads them.
 */
export default function TemplateList() {
  return (
    <ResourcePage<CardTemplateItem>
      resource={cardTemplate}
      title="会员卡设置"
      widgets={widgets}
      columns={{
        name: {
          render: (v: string, r) => (
            <Tag color={r.color} style={{ marginInlineEnd: 0 }}>
              {v}
            </Tag>
          ),
        },
        points_text: { ellipsis: true },
      }}
    />
  );
}
