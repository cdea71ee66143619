import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Card, Descriptions, Empty, Input, List, Space, Timeline, Typography } from 'antd';
import { call } from '../../api/client';
import { Money } from '../../components/Money';

/**
 * /carpark/orderinfo?order_no= (会员订单详情; docs/product.md#member-counter): any member order by its
 * number (a counter purchase, a recharge, a mall redemption): the member, the lines, how it was
 * paid part by part, the status and its timeline.
 */
export default function OrderInfo() {
  const [params, setParams] = useSearchParams();
  const orderNo = params.get('order_no')?.trim() ?? '';
  const info = useQuery({
    queryKey: ['orderinfo', orderNo],
    queryFn: () => call('orderinfo', { order_no: orderNo }),
    enabled: !!orderNo,
    retry: false,
  });
  const o = info.data;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="orderinfo-page">
      <Card>
        <Input.Search
          defaultValue={orderNo}
          placeholder="输入订单号（消费 XF、充值 CZ、商城兑换）"
          enterButton="查询"
          maxLength={40}
          onSearch={(v) => setParams(v.trim() ? { order_no: v.trim() } : {})}
          style={{ maxWidth: 480 }}
          data-testid="orderinfo-search"
        />
      </Card>
      {!o ? (
        <Card loading={info.isLoading}>
          <Empty description={orderNo ? '订单不存在' : '请输入订单号'} />
        </Card>
      ) : (
        <>
          <Card title={`${o.kind_ch} ${o.order_no}`} extra={<Typography.Text strong>{o.status_ch}</Typography.Text>}>
            <Descriptions size="small" column={{ xs: 1, md: 3 }} data-testid="orderinfo-head">
              <Descriptions.Item label="会员">{o.member.realname}</Descriptions.Item>
              <Descriptions.Item label="手机号">{o.member.mobile}</Descriptions.Item>
              <Descriptions.Item label="会员卡">{o.member.card_no || '—'}</Descriptions.Item>
              <Descriptions.Item label="商户">{o.merchant}</Descriptions.Item>
              <Descriptions.Item label="合计">
                <Money value={o.total} unit="元" />
              </Descriptions.Item>
              <Descriptions.Item label="时间">{o.create_time}</Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title="明细">
            <List
              size="small"
              dataSource={o.lines}
              data-testid="orderinfo-lines"
              renderItem={(l) => (
                <List.Item style={{ justifyContent: 'space-between' }}>
                  <span>
                    {l.title} × {l.quantity}
                  </span>
                  <span>
                    {l.points > 0 && l.amount === '0.00'
                      ? `${l.points} 积分`
                      : `${l.amount} 元${l.points > 0 ? ` + ${l.points} 积分` : ''}`}
                  </span>
                </List.Item>
              )}
            />
          </Card>
          <Card title="支付">
            <List
              size="small"
              dataSource={o.payments}
              data-testid="orderinfo-payments"
              renderItem={(p) => (
                <List.Item style={{ justifyContent: 'space-between' }}>
                  <span>{p.label}</span>
                  <span>
                    {p.points > 0 && p.amount === '0.00'
                      ? `${p.points} 积分`
                      : `${p.amount} 元${p.points > 0 ? `（${p.points} 积分）` : ''}`}
                  </span>
                </List.Item>
              )}
            />
          </Card>
          <Card title="状态">
            <Timeline
              data-testid="orderinfo-timeline"
              items={o.timeline.map((t) => ({ content: `${t.time} ${t.text}${t.operator ? `（${t.operator}）` : ''}` }))}
            />
          </Card>
        </>
      )}
    </Space>
  );
}
