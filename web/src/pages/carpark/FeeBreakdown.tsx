import { Descriptions, Space, Table, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import type { TempFeeBreakdown, TempFeeWindow } from '@wuye/contract/carpark/tempFee';
import { Money, moneyColumn } from '../../components/Money';
import { formatMoney } from '../../utils/formatMoney';

/** Minutes as 2小时10分钟. */
export const minutesText = (m: number) => (m >= 60 ? `${Math.floor(m / 60)}小时${m % 60 ? `${m % 60}分钟` : ''}` : `${m}分钟`);

/** A temporary stay's price, part by part (docs/product.md#temporary-car-fees): the calculator's and a stay's. */
/** `narrow`: a column of a wider screen (the booth's), three figures a row instead of four. */
export function FeeBreakdown({
  b,
  version,
  testId,
  narrow = false,
}: {
  b: TempFeeBreakdown;
  version?: string;
  testId: string;
  narrow?: boolean;
}) {
  const windows: TableColumnsType<TempFeeWindow> = [
    { title: '时段', key: 'range', render: (_, w) => `${w.from} 至 ${w.to}`, width: 300 },
    { title: '分钟', dataIndex: 'minutes', width: 70 },
    {
      title: '首段',
      key: 'first',
      width: 120,
      render: (_, w) => `${formatMoney(w.first_price)}（${w.first_band === 'peak' ? '高峰' : '平峰'}）`,
    },
    { title: '续段', key: 'steps', width: 150, render: (_, w) => `高峰${w.peak_steps}段 · 平峰${w.off_steps}段` },
    moneyColumn('续段金额', 'steps_amount', { width: 110 }),
    moneyColumn('封顶减免', 'capped', { width: 110 }),
    moneyColumn('小计', 'amount', { width: 100 }),
  ];
  return (
    <div>
      <Descriptions size="small" bordered column={narrow ? { xs: 1, sm: 2, xl: 3 } : { xs: 1, sm: 2, md: 4 }}>
        <Descriptions.Item label="应付">
          <b data-testid={`${testId}-due`}>
            <Money value={b.due} unit="¥" />
          </b>
        </Descriptions.Item>
        <Descriptions.Item label="停车时长">{minutesText(b.duration_minutes)}</Descriptions.Item>
        <Descriptions.Item label="计费时长">{minutesText(b.billed_minutes)}</Descriptions.Item>
        <Descriptions.Item label="免费时长">{b.free_minutes ? minutesText(b.free_minutes) : '—'}</Descriptions.Item>
        <Descriptions.Item label="首段">
          <span data-testid={`${testId}-normal`}>
            <Money value={b.normal} />
          </span>
        </Descriptions.Item>
        <Descriptions.Item label="超时">
          <span data-testid={`${testId}-over`}>
            <Money value={b.over} />
          </span>
        </Descriptions.Item>
        <Descriptions.Item label="封顶减免">
          <Money value={b.capped} />
        </Descriptions.Item>
        <Descriptions.Item label="停车劵减免">
          <span data-testid={`${testId}-coupons-off`}>
            <Money value={b.coupon_amount} />
          </span>
          {b.coupon_minutes > 0 && `（减${b.coupon_minutes}分钟）`}
        </Descriptions.Item>
        {version && (
          <Descriptions.Item label="计费版本" span={4}>
            {version}
          </Descriptions.Item>
        )}
      </Descriptions>
      {b.coupons.length > 0 && (
        <Space wrap style={{ marginTop: 8 }}>
          {b.coupons.map((c, i) => (
            <Tag key={i} color="processing">
              {c.title}：减 {formatMoney(c.effect, { unit: '元' })}
            </Tag>
          ))}
        </Space>
      )}
      {b.windows.length > 0 && (
        <Table<TempFeeWindow>
          style={{ marginTop: 8 }}
          rowKey="from"
          size="small"
          columns={windows}
          dataSource={b.windows}
          pagination={false}
          scroll={{ x: 960 }}
          data-testid={`${testId}-windows`}
        />
      )}
    </div>
  );
}
