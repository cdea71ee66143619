import { useState } from 'react';
import { Button, Card, DatePicker, Empty, Space, Typography } from 'antd';
import { PrinterOutlined, WalletOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import type { HouseSearchItem } from '@wuye/contract';
import { formatMoney } from '../../utils/formatMoney';
import { call } from '../../api/client';
import RoomOwnerSearch from './RoomOwnerSearch';
import './receipt.css';

/**
 * 合并账单 (/fees/conbill): an owner's unpaid bills across the rooms he owns, by room with subtotals
 * and a total, printable, with the way to the cashier desk. `?hid=` opens a room's owner at once.
 */
export default function ConBill() {
  const navigate = useNavigate();
  // a room named in the address (/fees/conbill?hid=) opens its owner's sheet at once
  const [params] = useSearchParams();
  const fromUrl = Number(params.get('hid')) || 0;
  const [picked, setPicked] = useState<Pick<HouseSearchItem, 'hid'> | null>(fromUrl ? { hid: fromUrl } : null);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const payload = picked && {
    hid: picked.hid,
    start_period: range?.[0]?.format('YYYY-MM') ?? '',
    end_period: range?.[1]?.format('YYYY-MM') ?? '',
  };
  const q = useQuery({
    queryKey: ['conbill', payload],
    queryFn: () => call('conbill', payload!),
    enabled: payload !== null,
    retry: false,
  });
  const d = q.data;
  return (
    <Card title="合并账单" data-testid="conbill-page">
      <div className="receipt-toolbar">
        <Space orientation="vertical" style={{ width: '100%' }}>
          <RoomOwnerSearch onPick={setPicked} testId="conbill-search" />
          <Space wrap>
            <DatePicker.RangePicker
              picker="month"
              allowEmpty={[true, true]}
              placeholder={['开始账期', '结束账期']}
              inputReadOnly
              value={range}
              onChange={(v) => setRange(v)}
              data-testid="conbill-range"
            />
            <Button
              type="primary"
              icon={<PrinterOutlined />}
              disabled={!d?.rooms.length}
              onClick={() => window.print()}
              data-testid="conbill-print"
            >
              打印
            </Button>
            <Button
              icon={<WalletOutlined />}
              disabled={!d?.rooms.length}
              onClick={() => void navigate(`/desktop/cashier?hid=${d!.hid}`)}
              data-testid="conbill-pay"
            >
              去收银台缴费
            </Button>
          </Space>
        </Space>
      </div>
      {!d && <Empty description="请先搜索并选择业主" />}
      {d && (
        <div className="receipt" style={{ maxWidth: '200mm', padding: 8 }} data-testid="conbill-sheet">
          <h2>合并账单</h2>
          <div className="meta">
            <span>业主：{d.owner_name || '（无业主）'}</span>
            <span>{d.mobile}</span>
            <span>截至 {d.today}</span>
          </div>
          {d.rooms.length === 0 && <Typography.Paragraph>没有未缴账单</Typography.Paragraph>}
          {d.rooms.map((r) => (
            <div key={r.hid} style={{ marginBottom: 12, overflowX: 'auto' }} data-testid="conbill-room">
              <b>{r.address}</b>
              <table>
                <thead>
                  <tr>
                    <th>收费项目</th>
                    <th>账期</th>
                    <th>状态</th>
                    <th>金额（元）</th>
                    <th>滞纳金（元）</th>
                    <th>小计（元）</th>
                  </tr>
                </thead>
                <tbody>
                  {r.bills.map((b) => (
                    <tr key={b.id}>
                      <td>{b.title}</td>
                      <td>{b.period}</td>
                      <td>{b.status_ch}</td>
                      <td className="num">{formatMoney(b.fee)}</td>
                      <td className="num">{formatMoney(b.late_fee)}</td>
                      <td className="num">{formatMoney(b.total)}</td>
                    </tr>
                  ))}
                  <tr>
                    <td colSpan={3}>本房屋小计</td>
                    <td className="num">{formatMoney(r.subtotal.fee)}</td>
                    <td className="num">{formatMoney(r.subtotal.late_fee)}</td>
                    <td className="num" data-testid="conbill-subtotal">
                      {formatMoney(r.subtotal.total)}
                    </td>
                  </tr>
                </tbody>
              </table>
            </div>
          ))}
          <p style={{ textAlign: 'right' }} data-testid="conbill-total">
            共 {d.totals.bill_count} 笔，金额 {formatMoney(d.totals.fee)} 元，滞纳金 {formatMoney(d.totals.late_fee)} 元，合计{' '}
            <b>{formatMoney(d.totals.total)}</b> 元
          </p>
        </div>
      )}
    </Card>
  );
}
