import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Col, DatePicker, Descriptions, Empty, Form, Input, Row, Select, Space, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { formatMoney, MoneyStatistic } from '../../components/Money';
import MoneyInput from '../../components/MoneyInput';
import SafeButton from '../../components/SafeButton';
import { fenOf, settlePayment, sumFen, yuan } from './money';
import { useIdempotentSubmit } from './useIdempotentSubmit';
import { usePayType } from './usePayType';
import { RoomSelects, type RoomPick } from './shared';
import RoomOwnerSearch from './RoomOwnerSearch';
import { useSmallList } from '../../components/resource';

interface Line {
  key: number;
  item_id?: number;
  title: string;
  cost_type: string;
  month: Dayjs;
  amount: string;
}

const FREE = -1;
let lineKey = 0;
const newLine = (): Line => ({ key: ++lineKey, title: '', cost_type: 'other', month: dayjs(), amount: '' });

/** Temporary charges (/fees/quickpay, 临时收费): one-off charges for a room, paid and receipted in one step. */
export default function QuickPay() {
  const navigate = useNavigate();
  const things = useSmallList('feethinglist', {}).items;
  const costTypes = useSmallList('feebill_cate_small_list', {}).items;
  const [place, setPlace] = useState<RoomPick>({});
  const hid = place.hid;
  const house = useQuery({
    queryKey: ['housebalance', hid],
    queryFn: () => call('housebalance', { hid: hid! }),
    enabled: !!hid,
    retry: false,
  });
  const [lines, setLines] = useState<Line[]>(() => [newLine()]);
  const pay = usePayType('quickpay-pay-type');
  const { payType, payRef } = pay;
  const [useBalance, setUseBalance] = useState(false);
  const [paid, setPaid] = useState('');
  const [payer, setPayer] = useState('');
  const [remark, setRemark] = useState('');
  const { submitting, submit, newAttempt } = useIdempotentSubmit();
  useEffect(() => newAttempt(), [newAttempt, lines, payType, pay.payMethodId, payRef, useBalance, paid, payer, hid]);

  const setLine = (key: number, patch: Partial<Line>) => setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const pickItem = (l: Line, id: number) => {
    const item = things.find((i) => i.id === id);
    // a fixed amount pre-fills the line; other pricings are typed in
    setLine(
      l.key,
      id === FREE
        ? { item_id: undefined, title: '' }
        : {
            item_id: id,
            title: item?.title ?? '',
            amount: item?.pricing === 'fixed' ? item.unit_price.replace(/(\.\d{2})\d*$/, '$1') : l.amount,
          },
    );
  };

  const total = sumFen(lines.map((l) => l.amount || '0'));
  const balance = fenOf(house.data?.balance);
  const settled = settlePayment({ total, balance, useBalance, payType, paid, hasOwner: !!house.data?.member_id });
  const { due, paidFen, toBalance } = settled;
  const problem = !hid
    ? '请先选择房屋'
    : lines.some((l) => !l.item_id && !l.title.trim())
      ? '请选择收费项目或填写收费名称'
      : lines.some((l) => fenOf(l.amount) <= 0n)
        ? '请填写大于 0 的收费金额'
        : settled.problem || pay.problem;

  const touched = paid !== '' || lines.some((l) => l.amount !== '' || l.title.trim() !== '' || l.item_id !== undefined);

  const confirm = async () => {
    if (problem || !hid || submitting) return;
    const answer = await submit((idempotency_key) =>
      request('quickpay', {
        hid,
        pay_type: payType,
        pay_method_id: pay.payMethodId,
        pay_ref: payRef,
        use_balance: useBalance,
        paid_amount: yuan(paidFen),
        payer_name: payer.trim(),
        remark,
        idempotency_key,
        lines: lines.map((l) => ({
          ...(l.item_id ? { item_id: l.item_id } : { title: l.title.trim(), cost_type: l.cost_type }),
          period: l.month.format('YYYY-MM'),
          amount: l.amount,
        })),
      }),
    );
    if (!answer) return;
    noticeSuccess(`${answer.return_msg ?? '收费成功'}，收据号 ${answer.data.receipt_no}`);
    setLines([newLine()]);
    setPaid('');
    setRemark('');
    pay.reset();
    void navigate(`/fees/print/receipt/${answer.data.id}`);
  };

  const columns: TableColumnsType<Line> = [
    {
      title: '收费项目',
      key: 'item',
      width: 280,
      render: (_, l) => (
        <Space wrap>
          <Select
            style={{ width: 150 }}
            value={l.item_id ?? FREE}
            onChange={(id: number) => pickItem(l, id)}
            data-testid={`quickpay-item-${l.key}`}
            options={[{ value: FREE, label: '自定义名称' }, ...things.map((i) => ({ value: i.id, label: i.title }))]}
            showSearch={{ optionFilterProp: 'label' }}
          />
          {!l.item_id && (
            <>
              <Input
                style={{ width: 120 }}
                maxLength={30}
                placeholder="收费名称"
                value={l.title}
                onChange={(e) => setLine(l.key, { title: e.target.value })}
                data-testid={`quickpay-title-${l.key}`}
              />
              <Select
                style={{ width: 100 }}
                value={l.cost_type}
                onChange={(cost_type: string) => setLine(l.key, { cost_type })}
                options={costTypes.map((c) => ({ value: c.cost_type, label: c.title }))}
              />
            </>
          )}
        </Space>
      ),
    },
    {
      title: '账期',
      key: 'month',
      width: 130,
      render: (_, l) => (
        <DatePicker
          picker="month"
          inputReadOnly
          allowClear={false}
          style={{ width: 110 }}
          value={l.month}
          onChange={(m: Dayjs | null) => m && setLine(l.key, { month: m })}
        />
      ),
    },
    {
      title: '金额（元）',
      key: 'amount',
      width: 130,
      render: (_, l) => (
        <MoneyInput
          style={{ width: 110 }}
          value={l.amount}
          onChange={(amount) => setLine(l.key, { amount })}
          data-testid={`quickpay-amount-${l.key}`}
        />
      ),
    },
    {
      title: '',
      key: 'op',
      width: 50,
      render: (_, l) =>
        lines.length > 1 && (
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))}
            aria-label="删除"
          />
        ),
    },
  ];

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle" data-testid="quickpay-page">
      <Card title="临时收费">
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <span>选择房屋：</span>
            <RoomSelects value={place} onChange={setPlace} testId="quickpay-room" />
          </Space>
          <RoomOwnerSearch onPick={(h) => setPlace({ bid: h.bid, tid: h.tid, hid: h.hid })} testId="quickpay-search" />
          {house.data && (
            <Descriptions size="small" column={{ xs: 1, sm: 3 }} data-testid="quickpay-house">
              <Descriptions.Item label="房屋">{house.data.address}</Descriptions.Item>
              <Descriptions.Item label="业主">{house.data.owner_name || '未登记'}</Descriptions.Item>
              <Descriptions.Item label="余额">{formatMoney(house.data.balance, { unit: '元' })}</Descriptions.Item>
            </Descriptions>
          )}
        </Space>
      </Card>
      {!hid ? (
        <Card>
          <Empty description="请先选择房屋或搜索业主" />
        </Card>
      ) : (
        <Row gutter={16}>
          <Col xs={24} xl={15}>
            <Card
              title="收费明细"
              extra={
                <Button icon={<PlusOutlined />} onClick={() => setLines((ls) => [...ls, newLine()])} data-testid="quickpay-add-line">
                  添加一项
                </Button>
              }
            >
              <div data-testid="quickpay-lines">
                <Table<Line>
                  rowKey="key"
                  size="small"
                  columns={columns}
                  dataSource={lines}
                  pagination={false}
                  scroll={{ x: 'max-content' }}
                />
              </div>
            </Card>
          </Col>
          <Col xs={24} xl={9}>
            <Card title="收款" data-testid="quickpay-totals">
              <Row gutter={8}>
                <Col span={12}>
                  <MoneyStatistic title="合计" value={total} data-testid="quickpay-total" />
                </Col>
                <Col span={12}>
                  <MoneyStatistic title="应缴金额" value={due} contentStyle={{ color: '#cf1322' }} data-testid="quickpay-due" />
                </Col>
              </Row>
              <Form layout="horizontal" labelCol={{ flex: '76px' }} wrapperCol={{ flex: '1 1 0' }} style={{ marginTop: 16 }}>
                {pay.fields()}
                <Form.Item label="余额抵扣">
                  <Checkbox checked={useBalance} onChange={(e) => setUseBalance(e.target.checked)} disabled={balance === 0n}>
                    使用余额（可用 {formatMoney(balance, { unit: '元' })}）
                  </Checkbox>
                </Form.Item>
                <Form.Item label="实收金额">
                  <MoneyInput value={paid} onChange={setPaid} placeholder={yuan(due)} data-testid="quickpay-paid" />
                </Form.Item>
                {toBalance > 0n && (
                  <Form.Item label="转入余额">
                    <span>{formatMoney(toBalance, { unit: '元' })}</span>
                  </Form.Item>
                )}
                <Form.Item label="缴费人">
                  <Input
                    value={payer}
                    maxLength={30}
                    onChange={(e) => setPayer(e.target.value)}
                    placeholder={house.data?.owner_name || '缴费人姓名'}
                    data-testid="quickpay-payer"
                  />
                </Form.Item>
                <Form.Item label="备注">
                  <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.target.value)} />
                </Form.Item>
              </Form>
              {/* nothing to warn about before anything was typed; the button waits meanwhile */}
              {problem && touched && (
                <Alert type="warning" showIcon title={problem} style={{ marginBottom: 12 }} data-testid="quickpay-problem" />
              )}
              <SafeButton
                type="primary"
                block
                size="large"
                loading={submitting}
                disabled={!!problem || submitting}
                onClick={() => void confirm()}
                data-testid="quickpay-confirm"
              >
                确认收款 {formatMoney(paidFen, { unit: '元' })}
              </SafeButton>
            </Card>
          </Col>
        </Row>
      )}
    </Space>
  );
}
