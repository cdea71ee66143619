import { useCallback, useMemo, useState } from 'react';
import { Button, Descriptions, Drawer, Space, Typography, type DescriptionsProps } from 'antd';
import { GiftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { mallOrder, mallOrderFlow, type MallOrderItem } from '@wuye/contract/cards/mall';
import type { TransitionDef, WorkflowDef } from '@wuye/contract/kit/workflow';
import { call } from '../../api/client';
import { formatMoney } from '../../components/Money';
import { invalidateResource, ResourcePage, WorkflowActions, WorkflowTimeline } from '../../components/resource';
import MallRedeem from './MallRedeem';
import { Cover, OrderStatusTag } from './mallParts';

/**
 * The order's transitions as its delivery allows: a pickup is completed when picked up (never
 * shipped); a delivery is shipped before it is completed.
 */
function flowFor(row: MallOrderItem): { def: WorkflowDef } {
  const { ship, done, cancel } = mallOrderFlow.def.transitions;
  const transitions: Record<string, TransitionDef> =
    row.delivery_mode === 'pickup' ? { done, cancel } : row.status === 'P' ? { ship, cancel } : { done };
  return { def: { ...mallOrderFlow.def, transitions } };
}

/** A row as the workflow buttons take it. */
const asRow = (o: MallOrderItem) => o as unknown as { id: number } & Record<string, unknown>;

/** The order's facts, those that apply to it: a delivery's address, a shipped one's express, a cancelled one's reason. */
function detailItems(o: MallOrderItem): DescriptionsProps['items'] {
  const lines: Array<[string, string, boolean]> = [
    ['会员', `${o.realname} ${o.mobile}`, true],
    ['参考价', `${formatMoney(o.price, { unit: '元' })}（每件）`, true],
    ['领取方式', o.delivery_mode_ch, true],
    ['收货人', `${o.contact_name} ${o.contact_mobile}`, o.delivery_mode === 'delivery'],
    ['收货地址', o.address, o.delivery_mode === 'delivery'],
    ['快递', `${o.express_company} ${o.express_no}`, o.express_no !== ''],
    ['备注', o.remark, o.remark !== ''],
    ['取消原因', o.cancel_reason, o.status === 'C'],
    ['兑换时间', `${o.create_time}（${o.created_by}）`, true],
    ['发货时间', `${o.shipped_at}（${o.shipped_by}）`, o.shipped_at !== ''],
    ['完成时间', `${o.done_at}（${o.done_by}）`, o.done_at !== ''],
    ['取消时间', `${o.cancelled_at}（${o.cancelled_by}）`, o.cancelled_at !== ''],
  ];
  return lines.filter(([, , shown]) => shown).map(([label, children]) => ({ key: label, label, children }));
}

/** What the detail shows of an order: its lines, points, delivery and the status timeline. */
function OrderDetail({ id, onClose, onChanged }: { id: number | null; onClose: () => void; onChanged: () => void }) {
  const order = useQuery({
    queryKey: ['res', 'mallorder', 'detail', id],
    queryFn: () => call('mallorderinfo', { id: id! }),
    enabled: id !== null,
  });
  const o = order.data;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={o ? `兑换订单 ${o.order_no}` : '兑换订单'}
      size={Math.min(520, window.innerWidth)}
      destroyOnHidden
      extra={o && <OrderStatusTag row={o} />}
      footer={o && <WorkflowActions flow={flowFor(o)} row={asRow(o)} size="middle" onDone={onChanged} />}
    >
      {o && (
        <div data-testid="mallorder-detail">
          <Space align="start" size="middle" style={{ marginBottom: 16 }}>
            <Cover url={o.cover} size={72} />
            <Space orientation="vertical" size={2}>
              <Typography.Text strong>{o.goods_name}</Typography.Text>
              <Typography.Text type="secondary">
                {o.spec_name} × {o.quantity}
              </Typography.Text>
              <Typography.Text>
                {o.points} 积分 × {o.quantity} ={' '}
                <Typography.Text strong type="danger" data-testid="mallorder-detail-points">
                  {o.points_total} 积分
                </Typography.Text>
              </Typography.Text>
            </Space>
          </Space>
          <Descriptions column={1} size="small" bordered items={detailItems(o)} />
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            处理记录
          </Typography.Title>
          <WorkflowTimeline flow={mallOrderFlow} id={o.id} />
        </div>
      )}
    </Drawer>
  );
}

/**
 * /carpark/mallorderlist (兑换订单, 积分商城; docs/product.md#member-cards): the members' mall orders
 * with filters (order no, member, goods, status, date), export, 兑换 for a member at the office,
 * and per order 发货 (a delivery: express company and number), 完成 and 取消 (points and stock given
 * back) with their confirmations; 详情 opens the order's lines, points and status timeline.
 */
export default function MallOrderList() {
  const queryClient = useQueryClient();
  const [redeeming, setRedeeming] = useState(false);
  const [detail, setDetail] = useState<number | null>(null);
  // a transition changes the order's row and (a cancel) the goods' stock
  const changed = useCallback(() => {
    void invalidateResource(queryClient, 'mallorder');
    void invalidateResource(queryClient, 'goods');
  }, [queryClient]);
  const columns = useMemo(
    () => ({
      goods_name: {
        render: (v: string, r: MallOrderItem) => (
          <Space size={8}>
            <Cover url={r.cover} size={32} />
            <span>{v}</span>
          </Space>
        ),
      },
      status_ch: { render: (_: string, r: MallOrderItem) => <OrderStatusTag row={r} /> },
      points_total: { render: (v: number) => <Typography.Text strong>{v}</Typography.Text> },
    }),
    [],
  );
  return (
    <>
      <ResourcePage<MallOrderItem>
        resource={mallOrder}
        title="兑换订单"
        idColumn={false}
        columns={columns}
        toolbar={
          <Button type="primary" icon={<GiftOutlined />} onClick={() => setRedeeming(true)} data-testid="mallorder-redeem">
            为会员兑换
          </Button>
        }
        rowActions={(row) => (
          <>
            <Button size="small" type="link" onClick={() => setDetail(row.id)} data-testid={`mallorder-detail-${row.id}`}>
              详情
            </Button>
            <WorkflowActions flow={flowFor(row)} row={asRow(row)} onDone={changed} />
          </>
        )}
      />
      <MallRedeem
        open={redeeming}
        onClose={() => setRedeeming(false)}
        onDone={(id) => {
          setRedeeming(false);
          setDetail(id);
        }}
      />
      <OrderDetail id={detail} onClose={() => setDetail(null)} onChanged={changed} />
    </>
  );
}
