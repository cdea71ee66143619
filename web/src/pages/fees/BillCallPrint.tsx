import { Button, Card, Result, Spin } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { formatMoney } from '../../utils/formatMoney';
import './receipt.css';

/** Arrears notices, one per page (/fees/print_billcall and /fees/print_billcallmx?hids=1,2). */
export default function BillCallPrint({ detailed }: { detailed: boolean }) {
  const [params] = useSearchParams();
  const hids = (params.get('hids') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => n > 0)
    .slice(0, 500);
  const method = detailed ? 'print_billcallmx' : 'print_billcall';
  const q = useQuery({ queryKey: [method, hids], queryFn: () => call(method, { hids }), enabled: hids.length > 0, retry: false });
  if (q.isLoading) return <Spin />;
  if (!q.data?.notices.length) return <Result status="info" title="没有需要催缴的账单" />;
  const d = q.data;
  return (
    <Card>
      <div className="receipt-toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="call-print-go">
          打印
        </Button>
      </div>
      <div className="receipt receipt-scroll" data-testid="billcall-notices">
        {d.notices.map((n) => (
          <div key={n.hid} className="receipt-a5" style={{ pageBreakAfter: 'always' }}>
            <h2>缴费通知单</h2>
            <p>
              尊敬的 {n.address} 业主{n.owner_name ? ` ${n.owner_name}` : ''}：
            </p>
            <p>
              截至 {d.print_date}，您尚有 {n.bill_count} 笔费用（{n.first_period} 至 {n.last_period}）未缴纳，欠费 {formatMoney(n.arrears)}{' '}
              元，滞纳金 {formatMoney(n.late_fee)} 元，合计 <b>{formatMoney(n.total)}</b> 元（大写：{n.capital_amount}
              ）。请您尽快到物业服务中心或通过线上渠道缴纳。
            </p>
            {n.bills && (
              <table>
                <thead>
                  <tr>
                    <th>收费项目</th>
                    <th>账期</th>
                    <th>计费周期</th>
                    <th>应缴日期</th>
                    <th>金额（元）</th>
                    <th>滞纳金（元）</th>
                  </tr>
                </thead>
                <tbody>
                  {n.bills.map((b) => (
                    <tr key={b.id}>
                      <td>{b.title}</td>
                      <td>{b.period}</td>
                      <td>{b.daterange}</td>
                      <td>{b.due_date}</td>
                      <td className="num">{formatMoney(b.fee)}</td>
                      <td className="num">{formatMoney(b.late_fee)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <p style={{ textAlign: 'right', marginTop: 24 }}>
              {d.region_title} 物业服务中心{d.region_phone ? `\u3000电话：${d.region_phone}` : ''}
              <br />
              {d.print_date}
            </p>
          </div>
        ))}
      </div>
    </Card>
  );
}

export const BillCallSummary = () => <BillCallPrint detailed={false} />;
export const BillCallDetail = () => <BillCallPrint detailed />;
