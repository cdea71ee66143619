import { useMemo, useState } from 'react';
import { Button, Card, Space, Table, Typography, type TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { COUPON_USE_STATUS, type CouponUseGroupRow, type CouponUseRow } from '@wuye/contract/cards/reports';
import { call } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { moneyColumn } from '../../../components/Money';
import EnumTag from '../../../components/resource/EnumTag';
import EChart from '../../fees/EChart';
import ReportCard from '../../fees/reports/ReportCard';
import { seriesTooltip, valueAxis } from '../../fees/chartUnits';
import { Figures, MerchantFilter, OptionFilter, ReportTable, TotalsRow, useMonthRange, useReportOptions } from './parts';

const PAGE = 10;

/**
 * 优惠券核销 (/feecounts/card_verification, businesscount; docs/product.md#card-reports): the range's
 * coupon redemptions by day (chart), by coupon and store (with totals), and each one with its order;
 * one given back by a refunded order counts as used and as 已退回, its amounts no longer.
 */
export default function CardVerification() {
  const { days, picker } = useMonthRange();
  const [merchantId, setMerchantId] = useState<number>();
  const [templateId, setTemplateId] = useState<number>();
  const options = useReportOptions();
  const payload = { ...days, merchant_id: merchantId, template_id: templateId };
  // the detail's page, back to the first whenever a filter changes
  const filterKey = JSON.stringify(payload);
  const [paged, setPaged] = useState({ filterKey, page: 1 });
  const page = paged.filterKey === filterKey ? paged.page : 1;
  const q = useQuery({ queryKey: ['card_verification', payload], queryFn: () => call('card_verification', payload), retry: false });
  const listPayload = { ...payload, page, limit: PAGE, sort: 'desc' as const };
  const list = useQuery({
    queryKey: ['card_verificationlist', listPayload],
    queryFn: () => call('card_verificationlist', listPayload),
    retry: false,
    placeholderData: keepPreviousData,
  });
  const byDay = useMemo(() => q.data?.by_day ?? [], [q.data]);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: ['核销', '已退回', '优惠金额'], bottom: 0 },
      grid: { left: 48, right: 64, top: 40, bottom: 56 },
      xAxis: { type: 'category', data: byDay.map((r) => r.day) },
      yAxis: [valueAxis('笔', { minInterval: 1 }), valueAxis('元', { splitLine: { show: false } })],
      series: [
        { name: '核销', type: 'bar', data: byDay.map((r) => r.used_count), tooltip: seriesTooltip('笔') },
        { name: '已退回', type: 'bar', data: byDay.map((r) => r.released_count), tooltip: seriesTooltip('笔') },
        { name: '优惠金额', type: 'line', yAxisIndex: 1, data: byDay.map((r) => r.discount), tooltip: seriesTooltip('元') },
      ],
    }),
    [byDay],
  );
  const t = q.data?.totals;
  const groupColumns: TableColumnsType<CouponUseGroupRow> = [
    { title: '优惠券', dataIndex: 'template_name', width: 160, fixed: 'left' },
    { title: '类型', dataIndex: 'kind_ch', width: 80 },
    { title: '商户', dataIndex: 'merchant', width: 130 },
    { title: '核销张数', dataIndex: 'used_count', width: 90, align: 'right' },
    { title: '已退回', dataIndex: 'released_count', width: 80, align: 'right' },
    moneyColumn('订单金额', 'order_amount', { width: 120 }),
    moneyColumn('优惠金额', 'discount', { width: 120 }),
  ];
  const useColumns: TableColumnsType<CouponUseRow> = [
    { title: '券码', dataIndex: 'code', width: 130 },
    { title: '优惠券', dataIndex: 'template_name', width: 150 },
    { title: '会员', dataIndex: 'realname', width: 90 },
    { title: '商户', dataIndex: 'merchant', width: 120 },
    {
      title: '订单号',
      dataIndex: 'order_no',
      width: 180,
      render: (v: string) => <Link to={`/carpark/orderinfo?order_no=${encodeURIComponent(v)}`}>{v}</Link>,
    },
    moneyColumn('订单金额', 'amount', { width: 110 }),
    moneyColumn('优惠金额', 'discount', { width: 110 }),
    { title: '核销时间', dataIndex: 'used_at', width: 170 },
    { title: '状态', dataIndex: 'status', width: 80, render: (v: string) => <EnumTag enum={COUPON_USE_STATUS} value={v} /> },
  ];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ReportCard
        title="优惠券核销"
        testId="card-verification-page"
        onExport={() => runExport('card_verificationexport', { ...payload, view: 'summary' })}
        filters={
          <>
            {picker}
            <MerchantFilter value={merchantId} onChange={setMerchantId} testId="card-verification-merchant" />
            <OptionFilter
              placeholder="优惠券"
              value={templateId}
              onChange={setTemplateId}
              width={170}
              options={(options?.templates ?? []).map((m) => ({ value: m.id, label: m.title }))}
              testId="card-verification-template"
            />
          </>
        }
      >
        {t && (
          <Figures
            testId="card-verification-totals"
            items={[
              ['核销张数', t.used_count],
              ['已退回', t.released_count],
              ['订单金额', t.order_amount],
              ['优惠金额', t.discount],
            ]}
          />
        )}
        <EChart option={option} testId="card-verification-chart" />
        <ReportTable<CouponUseGroupRow>
          rows={q.data?.items ?? []}
          columns={groupColumns}
          loading={q.isFetching}
          testId="card-verification-table"
          totals={
            t && <TotalsRow span={3} cells={[t.used_count, t.released_count, t.order_amount, t.discount]} testId="card-verification-sums" />
          }
        />
      </ReportCard>
      <Card
        title="核销明细"
        data-testid="card-verification-uses"
        extra={
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void runExport('card_verificationexport', { ...payload, view: 'detail' })}
            data-testid="card-verification-export-detail"
          >
            导出明细
          </Button>
        }
      >
        <Table<CouponUseRow>
          rowKey="key"
          size="small"
          scroll={{ x: 'max-content' }}
          loading={list.isFetching}
          dataSource={list.data?.items ?? []}
          columns={useColumns}
          pagination={{
            current: page,
            pageSize: PAGE,
            total: list.data?.total ?? 0,
            showSizeChanger: false,
            onChange: (p) => setPaged({ filterKey, page: p }),
            showTotal: (n) => <Typography.Text type="secondary">共 {n} 条</Typography.Text>,
          }}
        />
      </Card>
    </Space>
  );
}
