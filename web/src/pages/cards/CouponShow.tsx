import { Button, Card, Descriptions, Empty, Form, Select, Space, Statistic, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { MEMBER_COUPON_STATUS, MEMBER_COUPON_TEMPLATE_STATUS, type MemberCouponItem } from '@wuye/contract/cards/coupons';
import { useList } from '../../api/useList';
import { MoneyStatistic, moneyColumn } from '../../components/Money';
import TablePage from '../../components/TablePage';
import { EnumTag } from '../../components/resource';

const columns: TableColumnsType<MemberCouponItem> = [
  { title: '券码', dataIndex: 'code', width: 165, fixed: 'left' },
  { title: '会员', dataIndex: 'realname', width: 90 },
  { title: '手机号', dataIndex: 'mobile', width: 120 },
  { title: '来源', dataIndex: 'source_ch', width: 90 },
  { title: '领取时间', dataIndex: 'got_time', width: 170 },
  { title: '有效期', key: 'valid', width: 200, render: (_, r) => `${r.valid_from} 至 ${r.valid_to}` },
  { title: '状态', dataIndex: 'status', width: 90, render: (v: string) => <EnumTag enum={MEMBER_COUPON_STATUS} value={v} /> },
  { title: '使用时间', dataIndex: 'used_time', width: 170 },
  { title: '订单号', dataIndex: 'used_order_no', width: 170 },
  { title: '使用商户', dataIndex: 'used_merchant', width: 120 },
  moneyColumn<MemberCouponItem>('优惠金额', 'discount', { width: 100 }),
  { title: '作废原因', dataIndex: 'void_reason', width: 140, ellipsis: true },
];

/**
 * /carpark/carshow?id= (优惠券数据; docs/product.md#member-coupons): one template's settings and
 * figures (given, claimed, unused, used, expired, voided, the discount granted, the orders) and the
 * coupons it gave, paged and filtered by state.
 */
export default function CouponShow() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  if (!id) return <Empty description="请从优惠券列表打开" />;
  // another template's address starts afresh (its filters, its page)
  return <TemplateFigures key={id} id={id} />;
}

function TemplateFigures({ id }: { id: number }) {
  const navigate = useNavigate();
  const list = useList('carshow', { id, status: '' });
  const template = list.answer?.template;
  const f = list.answer?.figures;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        title={
          <Space>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => void navigate('/carpark/cardslist')} aria-label="返回优惠券" />
            <span>{template ? template.name : '优惠券数据'}</span>
            {template && <EnumTag enum={MEMBER_COUPON_TEMPLATE_STATUS} value={template.status} />}
          </Space>
        }
        data-testid="carshow-page"
      >
        {template && (
          <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 16 }} data-testid="carshow-template">
            <Descriptions.Item label="类型">{template.kind_ch}</Descriptions.Item>
            <Descriptions.Item label="优惠内容">
              <Typography.Text strong>{template.rule_text}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="用途">{template.purpose_ch}</Descriptions.Item>
            <Descriptions.Item label="适用商户">{template.merchants}</Descriptions.Item>
            <Descriptions.Item label="有效期">{template.validity_text}</Descriptions.Item>
            <Descriptions.Item label="剩余/库存">{template.stock_text}</Descriptions.Item>
            <Descriptions.Item label="每人限领">{template.per_person === 0 ? '不限' : `${template.per_person} 张`}</Descriptions.Item>
            <Descriptions.Item label="发放方式">{template.give_mode_ch}</Descriptions.Item>
            {template.description && <Descriptions.Item label="使用说明">{template.description}</Descriptions.Item>}
          </Descriptions>
        )}
        {f && (
          <Space size="large" wrap data-testid="carshow-figures">
            <Statistic title="已发放" value={f.given} suffix="张" />
            <Statistic title="会员领取" value={f.claimed} suffix="张" />
            <Statistic title="未使用" value={f.unused} suffix="张" />
            <Statistic title="已使用" value={f.used} suffix="张" />
            <Statistic title="已过期" value={f.expired} suffix="张" />
            <Statistic title="已作废" value={f.voided} suffix="张" />
            <MoneyStatistic title="优惠金额" value={f.discount} />
            <Statistic title="使用订单" value={f.orders} suffix="单" />
          </Space>
        )}
      </Card>
      <TablePage<MemberCouponItem, { status?: string }>
        title="已发放的券"
        testId="carshow-coupons"
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters({ id, status: (v.status ?? '') as never })}
        filters={
          <Form.Item name="status" label="状态">
            <Select allowClear style={{ width: 120 }} options={enumOptions(MEMBER_COUPON_STATUS)} data-testid="carshow-status" />
          </Form.Item>
        }
      />
    </Space>
  );
}
