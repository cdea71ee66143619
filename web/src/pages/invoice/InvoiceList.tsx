import { useEffect, useState } from 'react';
import { App, Button, DatePicker, Form, Input, Select, Space, Tag, Tooltip, Typography, type ButtonProps } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useSearchParams } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { INVOICE_COLOR, INVOICE_KIND, INVOICE_STATUS, type InvoiceRow } from '@wuye/contract/invoice/invoices';
import { call, request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import { MoneyStatistic, moneyColumn } from '../../components/Money';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { INVOICE_ROLES } from '@wuye/contract/invoice/roles';
import { EnumTag, useCanWrite } from '../../components/resource';
import { printFile, saveFile } from '../../utils/files';
import { InvoiceDetail, PushDialog, RedDialog } from './InvoiceDialogs';
import { useDayPresets, wireRange } from './shared';
import './invoice.css';

interface Filters {
  keyword?: string;
  status?: '' | InvoiceRow['status'];
  color?: '' | InvoiceRow['color'];
  kind?: '' | InvoiceRow['kind'];
  created?: [Dayjs, Dayjs] | null;
}

/** How often the list asks again while an invoice on the page is still with the provider (开票中). */
const POLL_MS = 2000;

/** 已开发票 (/invoice/invoicelist): blue and red invoices, their state with the provider, PDF, push, retry and reversal. */
export default function InvoiceList() {
  const [params, setParams] = useSearchParams();
  const paymentId = Number(params.get('payment_id')) || undefined;
  const list = useList(
    'invoicelist',
    { sort: 'desc', payment_id: paymentId },
    { refetchInterval: (answer) => (answer?.items.some((r) => r.status === 'W') ? POLL_MS : false) },
  );
  const polling = list.items.some((r) => r.status === 'W');
  // the page stays mounted (keepAlive): a link to another receipt's invoices narrows it again
  const { filters, setFilters } = list;
  useEffect(() => {
    if (paymentId && paymentId !== filters.payment_id) setFilters({ ...filters, payment_id: paymentId });
  }, [paymentId, filters, setFilters]);
  const presets = useDayPresets();
  const actionFixed = useActionFixed();
  // the cashiers read the invoices and their PDFs; push, retry, reversal and the export are the invoicing staff's
  const staff = useCanWrite(INVOICE_ROLES.staff);
  const { modal } = App.useApp();
  const [detail, setDetail] = useState<number | null>(null);
  const [pushing, setPushing] = useState<number | null>(null);
  const [reversing, setReversing] = useState<number | null>(null);
  const [downloading, setDownloading] = useState<number | null>(null);
  const sums = list.answer?.sums;

  const toWire = (v: Filters, payment_id = paymentId) => ({
    keyword: v.keyword?.trim() || undefined,
    status: v.status ?? '',
    color: v.color ?? '',
    kind: v.kind ?? '',
    created: wireRange(v.created),
    payment_id,
  });
  const clearPayment = () => {
    params.delete('payment_id');
    params.delete('receipt_no');
    setParams(params, { replace: true });
    list.setFilters({ ...list.filters, payment_id: undefined });
  };
  const pdf = async (r: InvoiceRow, print = false) => {
    setDownloading(r.id);
    try {
      const file = await call('invoicepdf', { id: r.id });
      if (print) printFile(file);
      else saveFile(file);
    } catch {
      /* shown by the client */
    } finally {
      setDownloading(null);
    }
  };
  const retry = (r: InvoiceRow) =>
    void modal.confirm({
      title: '重新开具',
      content: `按原抬头和金额重新开具这张发票（${r.buyer_title}）？`,
      okText: '重试',
      cancelText: '取消',
      okButtonProps: { 'data-testid': 'invoice-retry-confirm' } as ButtonProps,
      onOk: async () => {
        const answer = await request('invoiceretry', { id: r.id });
        noticeSuccess(answer.return_msg);
        list.reload();
      },
    });

  const columns: TableColumnsType<InvoiceRow> = [
    {
      title: '发票号码',
      dataIndex: 'invoice_no',
      width: 190,
      fixed: actionFixed ? 'left' : undefined,
      render: (v: string, r) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setDetail(r.id)} data-testid={`invoice-no-${r.id}`}>
          {v || r.serial}
        </Button>
      ),
    },
    { title: '开票日期', dataIndex: 'issue_time', width: 110, render: (v: string, r) => (v || r.create_time).slice(0, 10) },
    { title: '种类', dataIndex: 'kind', width: 100, render: (v: string) => <EnumTag enum={INVOICE_KIND} value={v} /> },
    {
      title: '蓝/红',
      dataIndex: 'color',
      width: 80,
      render: (v: string, r) =>
        v === 'R' && r.blue_no ? (
          <Tooltip title={`原蓝票 ${r.blue_no}`}>
            <span>
              <EnumTag enum={INVOICE_COLOR} value={v} />
            </span>
          </Tooltip>
        ) : (
          <EnumTag enum={INVOICE_COLOR} value={v} />
        ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 200,
      render: (v: string, r) => (
        <Space size={4} data-testid={`invoice-status-${r.id}`} data-status={v}>
          <EnumTag enum={INVOICE_STATUS} value={v} />
          {v === 'F' && r.message && (
            <Typography.Text type="danger" className="invoice-hint" ellipsis={{ tooltip: r.message }} style={{ maxWidth: 120 }}>
              {r.message}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: '购买方', dataIndex: 'buyer_title', width: 180, ellipsis: true },
    { title: '纳税人识别号', dataIndex: 'buyer_tax_no', width: 180 },
    moneyColumn('不含税金额', 'ex_tax', { width: 150 }),
    moneyColumn('税额', 'tax', { width: 110 }),
    moneyColumn('价税合计', 'amount', { width: 140 }),
    {
      title: '房屋',
      dataIndex: 'rooms',
      width: 150,
      ellipsis: { showTitle: false },
      render: (v: string) => (
        <Tooltip title={v} placement="topLeft">
          {v}
        </Tooltip>
      ),
    },
    {
      title: '收据',
      dataIndex: 'receipts',
      width: 130,
      ellipsis: { showTitle: false },
      render: (v: string, r) => (
        <Tooltip title={`${r.line_count} 条费用：${v}`} placement="topLeft">
          {v}
        </Tooltip>
      ),
    },
    { title: '开票人', dataIndex: 'issuer', width: 90 },
    {
      title: '操作',
      key: 'op',
      width: 250,
      fixed: actionFixed,
      render: (_, r) => {
        const issued = r.status === 'Y' || r.status === 'P' || r.status === 'R';
        return (
          <Space size={0} wrap>
            <Button size="small" type="link" onClick={() => setDetail(r.id)} data-testid={`invoice-info-${r.id}`}>
              详情
            </Button>
            {issued && (
              <Button
                size="small"
                type="link"
                loading={downloading === r.id}
                onClick={() => void pdf(r)}
                data-testid={`invoice-pdf-${r.id}`}
              >
                下载PDF
              </Button>
            )}
            {issued && (
              <Button size="small" type="link" onClick={() => void pdf(r, true)} data-testid={`invoice-print-${r.id}`}>
                打印
              </Button>
            )}
            {staff && (r.status === 'Y' || r.status === 'P') && (
              <Button size="small" type="link" onClick={() => setPushing(r.id)} data-testid={`invoice-push-${r.id}`}>
                重新推送
              </Button>
            )}
            {staff && r.status === 'F' && (
              <Button size="small" type="link" onClick={() => retry(r)} data-testid={`invoice-retry-${r.id}`}>
                重试
              </Button>
            )}
            {staff && r.color === 'B' && (r.status === 'Y' || r.status === 'P') && (
              <Button size="small" type="link" danger onClick={() => setReversing(r.id)} data-testid={`invoice-red-${r.id}`}>
                红冲
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <TablePage<InvoiceRow, Filters>
        testId="invoicelist-page"
        title="已开发票"
        // a background check of invoices 开票中 does not cover the table with a spinner every two seconds
        list={{ ...list, loading: list.loading && !polling }}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters({ sort: 'desc', ...toWire(v) })}
        onExport={staff ? (v) => runExport('invoiceexport', toWire(v)) : undefined}
        filters={
          <>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear maxLength={40} placeholder="发票号码、购买方" style={{ width: 170 }} data-testid="invoicelist-keyword" />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 110 }} options={enumOptions(INVOICE_STATUS)} data-testid="invoicelist-status" />
            </Form.Item>
            <Form.Item name="color" label="蓝/红">
              <Select allowClear style={{ width: 90 }} options={enumOptions(INVOICE_COLOR)} data-testid="invoicelist-color" />
            </Form.Item>
            <Form.Item name="kind" label="种类">
              <Select allowClear style={{ width: 120 }} options={enumOptions(INVOICE_KIND)} data-testid="invoicelist-kind" />
            </Form.Item>
            <Form.Item name="created" label="开票日期">
              <DatePicker.RangePicker presets={presets} inputReadOnly style={{ maxWidth: 260 }} />
            </Form.Item>
          </>
        }
        toolbar={
          paymentId && list.filters.payment_id ? (
            <Tag closable onClose={clearPayment} color="processing" data-testid="invoicelist-payment">
              收据 {params.get('receipt_no') || `#${paymentId}`} 的发票
            </Tag>
          ) : null
        }
        tableProps={{
          title: () =>
            sums ? (
              <Space size="large" wrap className="invoice-sums" data-testid="invoicelist-sums">
                <MoneyStatistic title="价税合计" value={sums.amount} />
                <MoneyStatistic title="不含税金额" value={sums.ex_tax} />
                <MoneyStatistic title="税额" value={sums.tax} />
              </Space>
            ) : null,
        }}
      />
      <InvoiceDetail id={detail} onClose={() => setDetail(null)} />
      <PushDialog id={pushing} onClose={() => setPushing(null)} />
      <RedDialog id={reversing} onClose={() => setReversing(null)} onDone={list.reload} />
    </>
  );
}
