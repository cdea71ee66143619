import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Select, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { CARD_ROLES } from '@wuye/contract/cards/roles';
import {
  MEMBER_COUPON_PURPOSE,
  MEMBER_COUPON_STATUS,
  memberCouponGiven,
  type MemberCouponCheck,
  type MemberCouponItem,
} from '@wuye/contract/cards/coupons';
import { request } from '../../api/client';
import MoneyInput from '../../components/MoneyInput';
import { Money } from '../../components/Money';
import { TextPromptModal } from '../../components/TextPromptModal';
import { EnumTag, invalidateResource, ResourcePage, useCanWrite } from '../../components/resource';

interface CheckValues {
  code?: string;
  amount?: string;
  purpose?: string;
}

/** 核验: a code checked for an amount and a purpose; the coupon is never changed by it. */
function VerifyBox() {
  const [form] = Form.useForm<CheckValues>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<MemberCouponCheck | null>(null);
  const check = async (v: CheckValues) => {
    setBusy(true);
    try {
      const answer = await request('cardverify', { code: v.code ?? '', amount: v.amount || '', purpose: (v.purpose ?? '') as never });
      setResult(answer.data);
    } catch {
      setResult(null);
    } finally {
      setBusy(false);
    }
  };
  const c = result?.coupon;
  return (
    <Card size="small" title="核验券码" style={{ marginBottom: 12 }} data-testid="couponverify">
      <Form<CheckValues> form={form} layout="inline" onFinish={(v) => void check(v)} style={{ rowGap: 8 }}>
        <Form.Item name="code" rules={[{ required: true, whitespace: true, message: '请输入券码' }]}>
          <Input allowClear maxLength={20} placeholder="12 位券码" style={{ width: 170 }} data-testid="couponverify-code" />
        </Form.Item>
        <Form.Item name="amount">
          <MoneyInput allowClear placeholder="订单金额（选填）" style={{ width: 150 }} data-testid="couponverify-amount" />
        </Form.Item>
        <Form.Item name="purpose">
          <Select allowClear placeholder="用途（选填）" style={{ width: 130 }} options={enumOptions(MEMBER_COUPON_PURPOSE)} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} icon={<SafetyCertificateOutlined />} data-testid="couponverify-check">
            核验
          </Button>
        </Form.Item>
      </Form>
      {result && c && (
        <div style={{ marginTop: 12 }} data-testid="couponverify-result">
          <Alert
            type={result.usable ? 'success' : 'warning'}
            showIcon
            title={result.usable ? '可以使用' : `不能使用：${result.reason}`}
            description={
              result.usable && result.discount !== '0.00' ? (
                <span>
                  本单可优惠 <Money value={result.discount} unit="元" />
                </span>
              ) : undefined
            }
            style={{ marginBottom: 8 }}
          />
          <Descriptions size="small" column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="优惠券">{c.template_name}</Descriptions.Item>
            <Descriptions.Item label="优惠内容">{c.rule_text}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <EnumTag enum={MEMBER_COUPON_STATUS} value={c.status} />
            </Descriptions.Item>
            <Descriptions.Item label="会员">
              {c.realname} {c.mobile}
            </Descriptions.Item>
            <Descriptions.Item label="有效期">
              {c.valid_from} 至 {c.valid_to}
            </Descriptions.Item>
            <Descriptions.Item label="适用商户">{result.merchants}</Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary">核验不会使用这张券；使用在收银或商户收款时完成。</Typography.Text>
        </div>
      )}
    </Card>
  );
}

/**
 * /carpark/cardgetlists (领券记录; docs/product.md#member-coupons): every coupon given, with its
 * state, and where and on which order it was used; filters by code, member, template, state, source
 * and day; export. 核验 checks a code without using it; 作废 (with a reason) ends an unused one.
 */
export default function CouponGetList() {
  const queryClient = useQueryClient();
  const canVoid = useCanWrite(CARD_ROLES.coupons);
  const [voiding, setVoiding] = useState<MemberCouponItem | null>(null);
  return (
    <>
      <VerifyBox />
      <ResourcePage<MemberCouponItem>
        resource={memberCouponGiven}
        title="领券记录"
        idColumn={false}
        columns={{
          code: { render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
          void_reason: { ellipsis: true },
        }}
        rowActions={(row) =>
          canVoid &&
          row.status === 'U' && (
            <Button size="small" type="link" danger onClick={() => setVoiding(row)} data-testid={`membercoupongiven-void-${row.id}`}>
              作废
            </Button>
          )
        }
      />
      <TextPromptModal<MemberCouponItem>
        open={!!voiding}
        title={voiding ? `作废优惠券 ${voiding.code}` : ''}
        label="作废原因"
        required="请填写作废原因"
        maxLength={200}
        danger
        testIds={{ text: 'couponvoid-reason', ok: 'couponvoid-ok' }}
        send={(reason) => request('cardvoid', { id: voiding!.id, reason })}
        onDone={() => {
          setVoiding(null);
          void invalidateResource(queryClient, 'membercoupongiven');
          void invalidateResource(queryClient, 'membercoupon');
        }}
        onCancel={() => setVoiding(null)}
      >
        {voiding && (
          <Typography.Paragraph type="secondary">
            {voiding.realname} 的「{voiding.template_name}」，作废后不能再使用。
          </Typography.Paragraph>
        )}
      </TextPromptModal>
    </>
  );
}
