import { Button, Card, Result, Space, Spin } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { formatMoney } from '../../utils/formatMoney';
import { call } from '../../api/client';
import './receipt.css';

const money = (v: string) => formatMoney(v);

/** The printed 交班单 (/fees/print/shift/:id): the shift's figures by pay method and its receipts. */
export default function ShiftPrint() {
  const id = Number(useParams().id);
  const info = useQuery({ queryKey: ['shiftinfo', id], queryFn: () => call('shiftinfo', { id }), enabled: id > 0, retry: false });
  if (info.isLoading) return <Spin />;
  const s = info.data;
  if (!s) return <Result status="warning" title="交班单不存在" />;
  return (
    <Card>
      <Space className="receipt-toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="shift-print">
          打印
        </Button>
      </Space>
      <div className="receipt-scroll">
        <div className="receipt receipt-a5" data-testid="shift-sheet">
          <h2>{s.region_title} 交班单</h2>
          <div className="meta">
            <span>收银员：{s.cashier_name}</span>
            <span>
              班次：{s.start_time} 至 {s.end_time}
            </span>
          </div>
          <table>
            <thead>
              <tr>
                <th>支付方式</th>
                <th>笔数</th>
                <th>实收（元）</th>
                <th>余额抵扣（元）</th>
              </tr>
            </thead>
            <tbody>
              {s.methods.map((m) => (
                <tr key={m.pay_type}>
                  <td>{m.pay_type_ch}</td>
                  <td className="num">{m.count}</td>
                  <td className="num">{money(m.amount)}</td>
                  <td className="num">{money(m.balance_used)}</td>
                </tr>
              ))}
              <tr>
                <td>合计</td>
                <td className="num">{s.receipts}</td>
                <td className="num" data-testid="shift-sheet-total">
                  {money(s.receipts_amount)}
                </td>
                <td className="num">{money(s.balance_used)}</td>
              </tr>
              <tr>
                <td colSpan={4}>
                  退款 {s.refunds} 笔 {money(s.refunds_amount)} 元{'\u3000'}作废 {s.voided} 笔 {money(s.voided_amount)} 元
                  {s.remark ? `\u3000备注：${s.remark}` : ''}
                </td>
              </tr>
            </tbody>
          </table>
          <table>
            <thead>
              <tr>
                <th>收据号</th>
                <th>房屋</th>
                <th>支付方式</th>
                <th>实收（元）</th>
                <th>状态</th>
                <th>时间</th>
              </tr>
            </thead>
            <tbody>
              {s.items.map((p) => (
                <tr key={p.id}>
                  <td>{p.receipt_no}</td>
                  <td>{p.address}</td>
                  <td>{p.pay_type_ch}</td>
                  <td className="num">{money(p.paid_amount)}</td>
                  <td>{p.status_ch}</td>
                  <td>{p.create_time.slice(11, 16)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="meta">
            <span>交班人：{s.cashier_name}</span>
            <span>接收人（财务）：</span>
            <span>交班时间：{s.create_time}</span>
          </div>
        </div>
      </div>
    </Card>
  );
}
