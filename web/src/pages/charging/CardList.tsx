import { useState } from 'react';
import { Button, Card, DatePicker, Form, Modal, Table } from 'antd';
import type { ButtonProps, TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { chargeCard, type ChargeCardItem, type ChargeCardOrderItem } from '@wuye/contract';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import { moneyColumn } from '../../components/Money';
import { ResourcePage, useResourceList } from '../../components/resource';
import { MemberPicker } from './parts';

/**
 * /carpark/chargecards (充电月卡; docs/product.md#charging-piles): the month cards (months, price,
 * hours a day) and the members' cards; 购买 pays a card from the member's balance, and its hours a
 * day of charging are free.
 */
export default function CardList() {
  const cards = useResourceList(chargeCard);
  const orders = useList('chargecardorderlist', {});
  const [buying, setBuying] = useState<ChargeCardItem | null>(null);
  const [form] = Form.useForm();
  const buy = async () => {
    if (!buying) return;
    const v = (await form.validateFields()) as { member_id: number; start_date?: Dayjs };
    try {
      const answer = await request('chargecardbuy', {
        card_id: buying.id,
        member_id: v.member_id,
        start_date: v.start_date ? v.start_date.format('YYYY-MM-DD') : '',
      });
      noticeSuccess(answer.return_msg);
      setBuying(null);
      form.resetFields();
      orders.reload();
      cards.reload();
    } catch {
      /* shown by the client */
    }
  };
  const columns: TableColumnsType<ChargeCardOrderItem> = [
    { key: 'card', title: '月卡', dataIndex: 'card_title', width: 140 },
    { key: 'realname', title: '会员', dataIndex: 'realname', width: 100 },
    { key: 'mobile', title: '手机号', dataIndex: 'mobile', width: 120 },
    moneyColumn<ChargeCardOrderItem>('实收', 'paid', { width: 100 }),
    { key: 'hours', title: '每日小时', dataIndex: 'hours_per_day', width: 90, align: 'right' },
    { key: 'start', title: '开始', dataIndex: 'start_date', width: 110 },
    { key: 'end', title: '结束', dataIndex: 'end_date', width: 110 },
    { key: 'time', title: '购买时间', dataIndex: 'create_time', width: 170 },
  ];
  return (
    <>
      <ResourcePage<ChargeCardItem>
        resource={chargeCard}
        title="充电月卡"
        rowActions={(row) =>
          row.status === 'Y' && (
            <Button size="small" type="link" onClick={() => setBuying(row)} data-testid={`chargecard-buy-${row.id}`}>
              购买
            </Button>
          )
        }
      />
      <Card title="月卡订单" style={{ marginTop: 16 }}>
        <Table<ChargeCardOrderItem>
          rowKey="id"
          size="small"
          data-testid="chargecardorder-table"
          loading={orders.loading}
          columns={columns}
          dataSource={orders.items}
          pagination={{ current: orders.page, pageSize: orders.limit, total: orders.total, onChange: (p, l) => orders.setPage(p, l) }}
        />
      </Card>
      {buying && (
        <Modal
          open
          title={`购买充电月卡「${buying.title}」`}
          onCancel={() => setBuying(null)}
          onOk={() => void buy()}
          okText="从余额支付"
          okButtonProps={{ 'data-testid': 'chargecard-buy-save' } as ButtonProps}
          destroyOnHidden
        >
          <Form form={form} layout="vertical">
            <Form.Item name="member_id" label="会员" rules={[{ required: true, message: '请选择会员' }]}>
              <MemberPicker testId="chargecard-buy-member" />
            </Form.Item>
            <Form.Item name="start_date" label="开始日期" extra="不填：今天起，或接在该会员现有月卡之后">
              <DatePicker inputReadOnly style={{ width: '100%' }} />
            </Form.Item>
          </Form>
          <p>
            {buying.months} 个月，每日 {buying.hours_per_day} 小时免费充电，价格 {buying.price} 元
          </p>
        </Modal>
      )}
    </>
  );
}
