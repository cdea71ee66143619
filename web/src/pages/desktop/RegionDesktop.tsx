import { AccountBookOutlined, HomeOutlined, TeamOutlined, WalletOutlined, WarningOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Row } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { formatMoney } from '../../utils/formatMoney';
import { call } from '../../api/client';
import { useFeeDashboard } from '../../api/feeDashboard';
import { useSystem } from '../../stores/system';
import FigureCard from '../dashboard/FigureCard';
import { PendingTodosPanel, ShortcutsPanel } from '../dashboard/panels';
import '../dashboard/dashboard.css';
import './desktop.css';

/** The daily pages of the counter, those the user may open. */
const DAILY = ['/desktop/cashier', '/fees/feebilllist', '/fees/payment', '/basismembers/index', '/roomlist', '/fees/feebillworkadd'];

const yuan = (v: string | undefined) => formatMoney(v, { unit: '¥', empty: '-' });

/**
 * 小区桌面: the signed-in community's day on one screen — today's takings by method, this month's
 * collection (feedashboard, as the home page's card), what the community owes with late fees
 * (regiondesktop), its rooms and owners; the open to-dos, the daily pages, the last ten receipts.
 */
export default function RegionDesktop() {
  const navigate = useNavigate();
  const region = useSystem((s) => s.info?.region_title);
  const figures = useQuery({
    queryKey: ['regiondesktop'],
    queryFn: () => call('regiondesktop', {}, { silent: true }),
    refetchInterval: 60_000,
  });
  const month = useFeeDashboard();
  const recent = useQuery({
    queryKey: ['regiondesktop-payments'],
    queryFn: () => call('paymentlist', { page: 1, limit: 10, sort: 'desc' }, { silent: true }),
    refetchInterval: 60_000,
  });
  const d = figures.data;
  const m = month.data;
  return (
    <div className="region-desktop" data-testid="region-desktop">
      <h2 className="region-desktop-title">{region ? `${region} · 小区桌面` : '小区桌面'}</h2>
      <Row gutter={[12, 12]} data-testid="desktop-figures">
        <Col xs={24} sm={12} xl={6}>
          <FigureCard
            testId="desktop-today"
            loading={figures.isLoading}
            title="今日收款"
            value={yuan(d?.today.amount)}
            icon={<WalletOutlined />}
            color="#36a3f7"
            footer={
              d ? (
                <span data-testid="desktop-today-methods">
                  {d.today.items.length === 0
                    ? '今日暂无收款'
                    : d.today.items.map((i) => `${i.label} ${yuan(i.amount)}（${i.count}笔）`).join('　')}
                </span>
              ) : null
            }
            onClick={() => void navigate('/fees/payment')}
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <FigureCard
            testId="desktop-month"
            loading={month.isLoading}
            title={`本月实收${m ? `（${m.month}）` : ''}`}
            value={yuan(m?.received)}
            icon={<AccountBookOutlined />}
            color="#34bfa3"
            footer={m ? `应收 ${yuan(m.receivable)}，收缴率 ${m.rate}%` : null}
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <FigureCard
            testId="desktop-arrears"
            loading={figures.isLoading}
            title="当前欠费（含滞纳金）"
            value={yuan(d?.arrears.total)}
            icon={<WarningOutlined />}
            color="#f4516c"
            footer={d ? `${d.arrears.rooms} 户 ${d.arrears.bill_count} 笔；其中滞纳金 ${yuan(d.arrears.late_fee)}` : null}
            onClick={() => void navigate('/fees/feebilllist')}
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <FigureCard
            testId="desktop-rooms"
            loading={figures.isLoading}
            title="房屋 / 业主"
            value={d ? `${d.rooms.total} 套` : '-'}
            icon={<HomeOutlined />}
            color="#8d6fe0"
            footer={
              d ? (
                <span>
                  入住 {d.rooms.occupied}（含出租 {d.rooms.by_state.rented}），空置 {d.rooms.vacant}
                  {d.rooms.by_state.renovating > 0 ? `，装修中 ${d.rooms.by_state.renovating}` : ''}；
                  <TeamOutlined /> 业主 {d.owners} 人
                </span>
              ) : null
            }
            onClick={() => void navigate('/roomlist')}
          />
        </Col>
      </Row>
      <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
        <Col xs={24} lg={14}>
          <PendingTodosPanel />
        </Col>
        <Col xs={24} lg={10}>
          <ShortcutsPanel paths={DAILY} />
        </Col>
      </Row>
      <Card
        size="small"
        style={{ marginTop: 12 }}
        title="最近收款"
        loading={recent.isLoading}
        data-testid="desktop-recent"
        extra={
          <Button type="link" size="small" onClick={() => void navigate('/fees/payment')}>
            全部
          </Button>
        }
      >
        {/* a plain table in its own scrolling box: antd's Table would bring pagination onto the desktop */}
        {recent.data && recent.data.items.length > 0 ? (
          <div className="region-desktop-recent">
            <table>
              <thead>
                <tr>
                  <th>收据号</th>
                  <th>房屋</th>
                  <th>缴款人</th>
                  <th className="num">实收（元）</th>
                  <th>方式</th>
                  <th>收银员</th>
                  <th>时间</th>
                </tr>
              </thead>
              <tbody>
                {recent.data.items.map((p) => (
                  <tr key={p.id}>
                    <td>{p.receipt_no}</td>
                    <td>{p.address}</td>
                    <td>{p.payer_name || '-'}</td>
                    <td className="num">{formatMoney(p.paid_amount)}</td>
                    <td>{p.pay_type_ch}</td>
                    <td>{p.cashier_name}</td>
                    <td>{p.create_time.slice(5, 16)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无收款" />
        )}
      </Card>
    </div>
  );
}
