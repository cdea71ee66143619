import { useState } from 'react';
import { Button, Card, Radio, Result, Space, Spin } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { PaymentInfo } from '@wuye/contract/fees';
import { call } from '../../api/client';
import { useAppStore } from '../../stores/app';
import PaymentVoid, { useMayVoid } from './PaymentVoid';
import './receipt.css';

type Layout = 'a5' | 'thermal';

/** The rooms a receipt paid (one receipt may pay several rooms of one owner), in the order of its lines. */
const roomsOf = (p: PaymentInfo) => [...new Set(p.items.map((i) => i.address))];

function A5({ p }: { p: PaymentInfo }) {
  const rooms = roomsOf(p);
  const many = rooms.length > 1;
  return (
    <div className="receipt receipt-a5" data-testid="receipt">
      <h2>{p.receipt_title}</h2>
      {p.status === 'V' && (
        <div className="receipt-void" data-testid="receipt-void">
          已作废：{p.void_reason}（{p.voided_by} {p.void_time}）
        </div>
      )}
      <div className="meta">
        <span>收据号：{p.receipt_no}</span>
        <span data-testid="receipt-rooms">房屋：{many ? rooms.join('、') : p.address}</span>
        <span>缴费人：{p.payer_name || '—'}</span>
        <span>日期：{p.create_time}</span>
      </div>
      <table>
        <thead>
          <tr>
            {many && <th>房屋</th>}
            <th>收费项目</th>
            <th>账期</th>
            <th>计费周期</th>
            <th>金额(元)</th>
            <th>滞纳金(元)</th>
          </tr>
        </thead>
        <tbody>
          {p.items.map((i) => (
            <tr key={i.bill_id}>
              {many && <td>{i.address}</td>}
              <td>{i.title}</td>
              <td>{i.period}</td>
              <td>{i.daterange}</td>
              <td className="num">{i.fee}</td>
              <td className="num">{i.late_fee}</td>
            </tr>
          ))}
          <tr>
            <td colSpan={many ? 4 : 3}>
              应收 {p.receivable}
              {'\u3000'}滞纳金 {p.late_fee}
              {'\u3000'}优惠 {p.discount}
              {'\u3000'}余额抵扣 {p.balance_used}
            </td>
            <td colSpan={2} className="num">
              合计 {p.total}
            </td>
          </tr>
          <tr>
            <td colSpan={many ? 6 : 5}>
              金额大写：<b data-testid="receipt-capital">{p.capital_amount}</b>
            </td>
          </tr>
          <tr>
            <td colSpan={many ? 6 : 5}>
              支付方式：{p.pay_type_ch}
              {'\u3000'}实收：{p.paid_amount} 元{p.to_balance !== '0.00' ? `\u3000转入余额：${p.to_balance} 元` : ''}
              {p.remark ? `\u3000备注：${p.remark}` : ''}
            </td>
          </tr>
        </tbody>
      </table>
      <div className="meta">
        <span>收款人：{p.cashier_name}</span>
        <span>单位盖章：</span>
      </div>
      {p.receipt_footnote && (
        <div className="footnote" data-testid="receipt-footnote">
          {p.receipt_footnote}
        </div>
      )}
    </div>
  );
}

function Thermal({ p }: { p: PaymentInfo }) {
  const many = roomsOf(p).length > 1;
  return (
    <div className="receipt receipt-thermal" data-testid="receipt">
      <h2>{p.receipt_title}</h2>
      {p.status === 'V' && (
        <div className="receipt-void" data-testid="receipt-void">
          已作废：{p.void_reason}（{p.voided_by} {p.void_time}）
        </div>
      )}
      <hr />
      <div className="meta">
        <div>收据号：{p.receipt_no}</div>
        <div data-testid="receipt-rooms">房屋：{many ? roomsOf(p).join('、') : p.address}</div>
        <div>时间：{p.create_time}</div>
      </div>
      <hr />
      <table>
        <tbody>
          {p.items.map((i) => (
            <tr key={i.bill_id}>
              <td>
                {many && `${i.address} `}
                {i.title} {i.period}
              </td>
              <td className="num">{i.fee}</td>
            </tr>
          ))}
          {p.late_fee !== '0.00' && (
            <tr>
              <td>滞纳金</td>
              <td className="num">{p.late_fee}</td>
            </tr>
          )}
          {p.discount !== '0.00' && (
            <tr>
              <td>优惠</td>
              <td className="num">-{p.discount}</td>
            </tr>
          )}
          {p.balance_used !== '0.00' && (
            <tr>
              <td>余额抵扣</td>
              <td className="num">-{p.balance_used}</td>
            </tr>
          )}
        </tbody>
      </table>
      <hr />
      <div>合计：{p.total} 元</div>
      <div>
        大写：<span data-testid="receipt-capital">{p.capital_amount}</span>
      </div>
      <div>
        {p.pay_type_ch}实收：{p.paid_amount} 元
      </div>
      {p.to_balance !== '0.00' && <div>转入余额：{p.to_balance} 元</div>}
      <div>收银员：{p.cashier_name}</div>
      {p.receipt_footnote && (
        <>
          <hr />
          <div className="footnote" data-testid="receipt-footnote">
            {p.receipt_footnote}
          </div>
        </>
      )}
    </div>
  );
}

/** Receipt print page (/fees/print/receipt/:id): A5 or 80 mm thermal, amount in Chinese capitals. */
export default function ReceiptPrint() {
  const id = Number(useParams().id);
  const mobile = useAppStore((s) => s.device) === 'mobile';
  // a phone shows the narrow slip unless the user chose a layout before
  const [chosen, setLayout] = useState<Layout | null>(() => localStorage.getItem('receiptLayout') as Layout | null);
  const layout: Layout = chosen ?? (mobile ? 'thermal' : 'a5');
  const info = useQuery({ queryKey: ['paymentinfo', id], queryFn: () => call('paymentinfo', { id }), enabled: id > 0, retry: false });
  const mayVoid = useMayVoid();
  const [voiding, setVoiding] = useState(false);
  const print = () => {
    void call('paymentprint', { id }, { silent: true }).catch(() => undefined);
    window.print();
  };
  if (info.isLoading) return <Spin />;
  if (!info.data) return <Result status="warning" title="收费记录不存在" />;
  return (
    <Card>
      <Space className="receipt-toolbar">
        <Radio.Group
          value={layout}
          data-testid="receipt-layout"
          onChange={(e) => {
            setLayout(e.target.value as Layout);
            localStorage.setItem('receiptLayout', e.target.value as string);
          }}
          options={[
            { value: 'a5', label: 'A5 收据' },
            { value: 'thermal', label: '80mm 小票' },
          ]}
          optionType="button"
        />
        <Button type="primary" icon={<PrinterOutlined />} onClick={print} data-testid="receipt-print">
          打印
        </Button>
        {mayVoid(info.data) && (
          <Button danger onClick={() => setVoiding(true)} data-testid="receipt-void-open">
            作废
          </Button>
        )}
      </Space>
      <PaymentVoid
        payment={voiding ? info.data : null}
        onClose={(voided) => {
          setVoiding(false);
          if (voided) void info.refetch();
        }}
      />
      <div className="receipt-scroll">{layout === 'a5' ? <A5 p={info.data} /> : <Thermal p={info.data} />}</div>
    </Card>
  );
}
