import { useState } from 'react';
import { Alert, Card, Descriptions, Space, Statistic, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import {
  LEASE_APPROVAL,
  LEASE_DEPOSIT_STATE,
  LEASE_STATUS,
  type LeaseDetail,
  type LeaseRow,
  type LeaseSchedule,
  type LeaseSettlement,
  type LeaseSchedulePeriod,
  type SchedulePeriod,
} from '@wuye/contract/crm/leases';
import { toFen } from '@wuye/contract/money';
import { Money, MoneyStatistic, formatMoney, moneyColumn } from '../../../components/Money';
import TablePage from '../../../components/TablePage';
import { EnumTag } from '../../../components/resource';

export const LIST = '/crm/leaselist';

/** The two statuses of a lease side by side: what it is doing, and where its approval stands. */
export function LeaseStatusTags({ row }: { row: Pick<LeaseRow, 'status' | 'approval_status' | 'id'> }) {
  return (
    <Space size={4} wrap data-testid={`lease-status-${row.id}`}>
      <EnumTag enum={LEASE_STATUS} value={row.status} />
      {row.status === 'D' && <EnumTag enum={LEASE_APPROVAL} value={row.approval_status} />}
    </Space>
  );
}

/** Days to the end: orange within 30, red once past (a lease in force only). */
export function DaysLeft({ row }: { row: Pick<LeaseRow, 'days_left' | 'status'> }) {
  if (!['Y', 'X', 'O'].includes(row.status)) return null;
  if (row.days_left < 0) return <Tag color="red">已过期 {-row.days_left} 天</Tag>;
  return <Tag color={row.days_left <= 30 ? 'orange' : 'default'}>剩 {row.days_left} 天</Tag>;
}

/** A schedule's periods as a table (10 a page): dates, free days, step, rent, charges, due day, and the bills once made. */
export function ScheduleTable({
  schedule,
  testId,
  title,
}: {
  schedule: Pick<LeaseSchedule, 'periods'> & { periods: Array<SchedulePeriod | LeaseSchedulePeriod> };
  testId: string;
  title?: string;
}) {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(12);
  const names = schedule.periods[0]?.charges.map((c) => c.name) ?? [];
  const billed = schedule.periods.some((p) => 'state' in p);
  const columns: TableColumnsType<SchedulePeriod | LeaseSchedulePeriod> = [
    { title: '期数', dataIndex: 'seq', width: 60, fixed: 'left' },
    { title: '起止日期', key: 'range', width: 200, render: (_, p) => `${p.start} 至 ${p.end}` },
    { title: '天数', dataIndex: 'days', width: 60, align: 'right' },
    { title: '免租天数', dataIndex: 'free_days', width: 80, align: 'right', render: (v: number) => (v ? <Tag color="green">{v}</Tag> : 0) },
    {
      title: '递增',
      dataIndex: 'step',
      width: 90,
      render: (v: number, p) =>
        v ? (
          <Tag color="blue">
            第{v}次 {formatMoney(p.rate)}
          </Tag>
        ) : (
          '—'
        ),
    },
    moneyColumn('租金', 'rent', { width: 110 }),
    ...names.map((name, i) =>
      moneyColumn(name, `charge${i}`, {
        width: 100,
        render: (_: unknown, p: SchedulePeriod) => <Money value={p.charges[i]?.amount ?? '0'} />,
      }),
    ),
    moneyColumn('本期合计', 'total', { width: 110 }),
    { title: '出账日', dataIndex: 'bill_date', width: 110 },
    { title: '应缴日', dataIndex: 'due_date', width: 110 },
    ...(billed
      ? [
          {
            title: '账单',
            key: 'state',
            width: 100,
            render: (_: unknown, p: SchedulePeriod | LeaseSchedulePeriod) => {
              const state = 'state' in p ? p.state : '';
              const color = state === '已缴清' ? 'success' : state === '已出账' ? 'processing' : state === '未出账' ? 'warning' : 'default';
              return <Tag color={color}>{state}</Tag>;
            },
          },
        ]
      : []),
  ];
  return (
    <TablePage<SchedulePeriod | LeaseSchedulePeriod>
      testId={testId}
      title={title}
      list={{
        items: schedule.periods.slice((page - 1) * limit, page * limit),
        total: schedule.periods.length,
        loading: false,
        page,
        limit,
        setPage: (p, l) => {
          setPage(p);
          if (l) setLimit(l);
        },
      }}
      columns={columns}
      rowKey="seq"
    />
  );
}

/** The totals of a schedule: rent, each charge, everything, the free days. */
export function ScheduleTotals({ schedule, monthly }: { schedule: LeaseSchedule; monthly: string }) {
  return (
    <Space size="large" wrap data-testid="lease-schedule-totals">
      <MoneyStatistic title="月租金" value={monthly} />
      <Statistic title="期数" value={schedule.periods.length} />
      <Statistic title="租期天数" value={schedule.term_days} />
      <Statistic title="免租天数" value={schedule.free_days} />
      <MoneyStatistic title="租金合计" value={schedule.totals.rent} />
      {schedule.totals.charges.map((c) => (
        <MoneyStatistic key={c.name} title={`${c.name}合计`} value={c.amount} />
      ))}
      <MoneyStatistic title="租期总额" value={schedule.totals.all} />
    </Space>
  );
}

/** A lease's terms and parties, as the detail, the approval and the check-out show them. */
export function LeaseDescriptions({ lease }: { lease: LeaseDetail }) {
  const esc =
    lease.escalation_kind === 'none'
      ? '不递增'
      : `每 ${lease.escalation_years} 年${lease.escalation_kind === 'amount' ? `加 ${formatMoney(lease.escalation_value, { unit: '元' })}/月` : `上涨 ${lease.escalation_value}%`}（按首期租金计）`;
  return (
    <Descriptions size="small" bordered column={{ xs: 1, sm: 1, md: 2 }} data-testid="lease-descriptions">
      <Descriptions.Item label="租约编号">{lease.lease_no}</Descriptions.Item>
      <Descriptions.Item label="状态">
        <LeaseStatusTags row={lease} />
      </Descriptions.Item>
      <Descriptions.Item label="租户">
        {lease.tenant_name}
        <Tag style={{ marginLeft: 8 }}>{lease.tenant_kind_ch}</Tag>
      </Descriptions.Item>
      <Descriptions.Item label="联系方式">
        {[lease.contact, lease.mobile].filter(Boolean).join(' ')}
        {lease.id_card && <Typography.Text type="secondary"> {lease.id_card}</Typography.Text>}
      </Descriptions.Item>
      <Descriptions.Item label="房屋" span={2}>
        {lease.rooms.map((r) => `${r.address}（${r.area}㎡）`).join('、')}
      </Descriptions.Item>
      <Descriptions.Item label="租期">
        {lease.start_date} 至 {lease.end_date} <DaysLeft row={lease} />
      </Descriptions.Item>
      <Descriptions.Item label="付款周期">
        {lease.cycle_months_ch}，提前 {lease.bill_ahead_days} 天出账
      </Descriptions.Item>
      <Descriptions.Item label="租金">
        {lease.rent_mode === 'A'
          ? `${formatMoney(lease.rent_price)} 元/㎡·月 × ${lease.rent_area}㎡ = ${formatMoney(lease.monthly_rent, { unit: '元' })}/月`
          : `${formatMoney(lease.monthly_rent, { unit: '元' })}/月`}
      </Descriptions.Item>
      <Descriptions.Item label="递增">{esc}</Descriptions.Item>
      <Descriptions.Item label="免租期">
        {lease.free_periods.length ? lease.free_periods.map((f) => `${f.start} 至 ${f.end}`).join('；') : '无'}
      </Descriptions.Item>
      <Descriptions.Item label="其他费用">
        {lease.charges.length ? lease.charges.map((c) => `${c.name} ${formatMoney(c.monthly, { unit: '元' })}/月`).join('；') : '无'}
      </Descriptions.Item>
      <Descriptions.Item label="押金">
        {formatMoney(lease.deposit, { unit: '元' })} <EnumTag enum={LEASE_DEPOSIT_STATE} value={lease.deposit_state} />
        {lease.deposit_kept !== '0.00' && (
          <Typography.Text type="secondary"> 扣留 {formatMoney(lease.deposit_kept, { unit: '元' })}</Typography.Text>
        )}
      </Descriptions.Item>
      <Descriptions.Item label="租期总额">{formatMoney(lease.total_amount, { unit: '元' })}</Descriptions.Item>
      <Descriptions.Item label="欠租">
        {lease.overdue === '0.00' ? '无' : <Typography.Text type="danger">{formatMoney(lease.overdue, { unit: '元' })}</Typography.Text>}
      </Descriptions.Item>
      {(lease.renew_of_no || lease.renewal_no) && (
        <Descriptions.Item label="续租">
          {lease.renew_of_no && `续自 ${lease.renew_of_no}`}
          {lease.renewal_no && `已续为 ${lease.renewal_no}`}
        </Descriptions.Item>
      )}
      {lease.approver && (
        <Descriptions.Item label="审批">
          {lease.approver} {lease.approve_time} {lease.approve_remark && `：${lease.approve_remark}`}
        </Descriptions.Item>
      )}
      {lease.ended_on && <Descriptions.Item label="结束日期">{lease.ended_on}</Descriptions.Item>}
      <Descriptions.Item label="创建">
        {lease.creator} {lease.create_time}
      </Descriptions.Item>
      {lease.remark && (
        <Descriptions.Item label="备注" span={2}>
          {lease.remark}
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}

/** A check-out's settlement: what stays owed, what is billed, deleted and refunded, the deposit and the sums. */
export function SettlementView({ s }: { s: LeaseSettlement }) {
  const section = (title: string, lines: Array<{ key: string | number; text: string; amount: string }>, empty: string, testId: string) => (
    <Card size="small" title={title} data-testid={testId}>
      {lines.length === 0 ? (
        <Typography.Text type="secondary">{empty}</Typography.Text>
      ) : (
        lines.map((l) => (
          <div key={l.key} style={{ display: 'flex', justifyContent: 'space-between', gap: 12, flexWrap: 'wrap' }}>
            <span>{l.text}</span>
            <Money value={l.amount} />
          </div>
        ))
      )}
    </Card>
  );
  const net = toFen(s.sums.net);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12} data-testid="settlement">
      {section(
        '截至退租日未缴（仍由收银台收取）',
        s.unpaid.map((b) => ({ key: b.bill_id, text: `${b.title} ${b.daterange}`, amount: b.fee })),
        '无未缴账单',
        'settlement-unpaid',
      )}
      {section(
        '本次出账（按天计算）',
        s.last.map((l, i) => ({ key: i, text: `${l.title} ${l.daterange}`, amount: l.amount })),
        '无需补出账单',
        'settlement-last',
      )}
      {section(
        '作废的未缴账单（退租日之后）',
        s.cancelled.map((b) => ({ key: b.bill_id, text: `${b.title} ${b.daterange}`, amount: b.fee })),
        '无',
        'settlement-cancelled',
      )}
      {section(
        '退还已缴（退租日之后的天数）',
        s.prepaid.map((r) => ({
          key: r.bill_id,
          text: `${r.title}（已缴 ${formatMoney(r.paid)}，收据 ${r.receipt_no}）`,
          amount: r.refund,
        })),
        '无',
        'settlement-prepaid',
      )}
      {section(
        '损坏赔偿与违约金（出账）',
        [...s.damages, ...s.penalties].map((l, i) => ({ key: i, text: `${l.kind_ch}：${l.title}`, amount: l.amount })),
        '无',
        'settlement-charges',
      )}
      <Card size="small" title="押金" data-testid="settlement-deposit">
        {s.deposit.paid ? (
          <Space size="large" wrap>
            <MoneyStatistic title={`已缴押金（收据 ${s.deposit.receipt_no}）`} value={s.deposit.amount} />
            <MoneyStatistic title="扣留" value={s.deposit.kept} />
            <MoneyStatistic title="退还" value={s.deposit.refund} contentStyle={{ color: '#1677ff' }} />
          </Space>
        ) : (
          <Typography.Text type="secondary">
            {s.deposit.amount === '0.00'
              ? '本租约无押金'
              : `押金 ${formatMoney(s.deposit.amount, { unit: '元' })} 未缴，不退还（未缴押金账单作废）`}
          </Typography.Text>
        )}
        {s.deposit.kept !== '0.00' && s.deposit.kept_reason && <div>扣留原因：{s.deposit.kept_reason}</div>}
      </Card>
      <Space size="large" wrap data-testid="settlement-sums">
        <MoneyStatistic title="租户应缴" value={s.sums.owed} />
        <MoneyStatistic title="应退租户" value={s.sums.refund} />
        <MoneyStatistic
          title={net >= 0n ? '净额：租户应缴' : '净额：应退租户'}
          value={s.sums.net.replace('-', '')}
          contentStyle={{ color: net > 0n ? '#cf1322' : '#389e0d' }}
        />
      </Space>
      {s.readings.length > 0 && (
        <Alert type="info" showIcon title={`退租抄表：${s.readings.map((r) => `${r.name} ${r.reading}`).join('，')}`} />
      )}
    </Space>
  );
}
