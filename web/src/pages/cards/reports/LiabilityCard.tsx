import { Card, Space, Statistic, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { CardLiabilityRow } from '@wuye/contract/cards/reports';
import { call } from '../../../api/client';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';
import { ReportTable, TotalsRow, whole } from './parts';

/**
 * 会员权益负债 (the top of /feecounts/cardlog): what the members hold now and the property owes them:
 * balances (paid and bonus money are one pool; the bonus of recharges not refunded apart), points and
 * unused coupons, in all and by card.
 */
export default function LiabilityCard() {
  const q = useQuery({ queryKey: ['cardliability'], queryFn: () => call('cardliability', {}), retry: false });
  const t = q.data?.totals;
  return (
    <Card
      title="会员权益负债"
      loading={q.isLoading}
      extra={q.data && <Typography.Text type="secondary">截至 {q.data.as_of}</Typography.Text>}
      data-testid="card-liability"
    >
      {t && (
        <Space size="large" wrap style={{ marginBottom: 12 }}>
          <MoneyStatistic title={`会员余额（${t.balance_members} 人）`} value={t.balance} />
          <MoneyStatistic title="其中未退款充值赠送" value={t.bonus_outstanding} />
          <Statistic title={`积分（${t.points_members} 人）`} value={t.points} />
          <Statistic title="未使用优惠券" value={t.coupons_unused} suffix="张" />
          <MoneyStatistic title={`满减券面值（${t.coupons_amount_unused} 张）`} value={t.coupons_face_value} />
          <Statistic title="在用会员卡" value={t.cards} suffix="张" />
        </Space>
      )}
      <ReportTable<CardLiabilityRow>
        rows={q.data?.items ?? []}
        testId="card-liability-table"
        columns={[
          { title: '会员卡', dataIndex: 'template_name', width: 180 },
          { title: '在用卡', dataIndex: 'cards', width: 80, align: 'right' },
          moneyColumn('余额', 'balance', { width: 120 }),
          { title: '有余额人数', dataIndex: 'balance_members', width: 100, align: 'right' },
          moneyColumn('未退款赠送', 'bonus_outstanding', { width: 120 }),
          { title: '积分', dataIndex: 'points', width: 100, align: 'right', render: (v: number) => whole(v) },
          { title: '有积分人数', dataIndex: 'points_members', width: 100, align: 'right' },
          { title: '未使用券（张）', dataIndex: 'coupons_unused', width: 120, align: 'right' },
          moneyColumn('满减券面值', 'coupons_face_value', { width: 120 }),
        ]}
        totals={
          t && (
            <TotalsRow
              span={1}
              testId="card-liability-sums"
              cells={[
                t.cards,
                t.balance,
                t.balance_members,
                t.bonus_outstanding,
                t.points,
                t.points_members,
                t.coupons_unused,
                t.coupons_face_value,
              ]}
            />
          )
        }
      />
    </Card>
  );
}
