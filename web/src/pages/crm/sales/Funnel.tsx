import { useState } from 'react';
import { Card, DatePicker, Form, Progress, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { CRM_STAGE, PIPELINE, type CrmFunnelRow } from '@wuye/contract/crm/sales';
import { call } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import TablePage from '../../../components/TablePage';
import { SmallSelect } from '../../../components/resource';
import { useDayPresets } from '../../invoice/shared';
import { useSalesManager } from './parts';
import './sales.css';

interface Filters {
  range: [Dayjs, Dayjs];
  consultant_id?: number;
}

const wire = (f: Filters) => ({
  start_date: f.range[0].format('YYYY-MM-DD'),
  end_date: f.range[1].format('YYYY-MM-DD'),
  consultant_id: f.consultant_id ?? ('' as never),
});

const columns: TableColumnsType<CrmFunnelRow> = [
  { title: '置业顾问', dataIndex: 'consultant_name', width: 110, fixed: 'left' },
  ...PIPELINE.map((s) => ({ title: CRM_STAGE[s].text, dataIndex: s, width: 80, align: 'right' as const })),
  { title: '无效', dataIndex: 'invalid', width: 80, align: 'right' },
  { title: '签约转化率', dataIndex: 'conversion', width: 110, align: 'right', render: (v: string) => (v ? `${v}%` : '—') },
];

/**
 * /crm/intention (销售漏斗; docs/product.md#crm-sales): the customers entered in a period (the last
 * 90 days by default) and how many reached each stage or went further, as bars with each stage's rate of the
 * one before, and by consultant with the totals; a consultant sees their own, a manager everyone's.
 */
export default function Funnel() {
  const presets = useDayPresets();
  const manager = useSalesManager();
  // the last 90 days: a sale takes weeks from the first call to the contract
  const initial: Filters = { range: [dayjs().subtract(89, 'day'), dayjs()] };
  const [filters, setFilters] = useState<Filters>(initial);
  const payload = wire(filters);
  const q = useQuery({ queryKey: ['crmfunnel', payload], queryFn: () => call('crmfunnel', payload), retry: false });
  const rows = q.data ? [...q.data.rows, q.data.total] : [];
  const top = q.data?.stages[0]?.count ?? 0;
  return (
    <>
      <Card variant="borderless" title="销售漏斗" style={{ marginBottom: 12 }} data-testid="crm-funnel-bars">
        {(q.data?.stages ?? []).map((s, i) => (
          <div key={s.stage} className="crm-funnel-bar" data-testid={`crm-funnel-${s.stage}`}>
            <span className="crm-funnel-bar-label">{s.stage_ch}</span>
            <div className="crm-funnel-bar-track">
              <Progress
                percent={top ? (s.count * 100) / top : 0}
                showInfo={false}
                strokeColor={['#1677ff', '#4096ff', '#69b1ff', '#faad14', '#52c41a', '#389e0d'][i]}
              />
            </div>
            <Typography.Text strong style={{ width: 56, textAlign: 'right' }}>
              {s.count}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ width: 76, textAlign: 'right' }}>
              {i === 0 ? '' : s.rate ? `${s.rate}%` : '—'}
            </Typography.Text>
          </div>
        ))}
        <Typography.Text type="secondary">
          按期间内录入（报备）的客户统计，到达某阶段或更靠后的都计入该阶段；百分比为相对上一阶段的转化率。
        </Typography.Text>
      </Card>
      <TablePage<CrmFunnelRow, Filters>
        title="按置业顾问"
        testId="crm-funnel-page"
        list={{
          items: rows,
          total: rows.length,
          loading: q.isFetching,
          page: 1,
          limit: Math.max(10, rows.length),
          setPage: () => undefined,
        }}
        columns={columns}
        rowKey={(r) => String(r.consultant_id ?? r.consultant_name)}
        initialFilters={initial}
        onSearch={(v) => setFilters({ ...v, range: v.range ?? initial.range })}
        onExport={(v) => runExport('crmfunnelexport', wire({ ...v, range: v.range ?? initial.range }))}
        filters={
          <>
            <Form.Item name="range" label="录入时间">
              <DatePicker.RangePicker
                presets={presets}
                allowClear={false}
                inputReadOnly
                style={{ maxWidth: 260 }}
                data-testid="crm-funnel-range"
              />
            </Form.Item>
            {manager && (
              <Form.Item name="consultant_id" label="置业顾问">
                <SmallSelect
                  widget={{ small: 'crmconsultant_small_list' }}
                  values={{}}
                  allowClear
                  placeholder="全部置业顾问"
                  style={{ width: 180 }}
                />
              </Form.Item>
            )}
          </>
        }
        tableProps={{ size: 'small', scroll: { x: 'max-content' } }}
      />
    </>
  );
}
