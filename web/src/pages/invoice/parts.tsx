/**
 * The invoice area's small read-only tables inside a dialog or a detail drawer: an invoice's
 * preview, its lines, an application's lines. Not lists of records (eslint allow-list).
 */
import { Table, Typography } from 'antd';
import type { InvoiceApplyRow, InvoiceLineRow, InvoicePreview, InvoicePreviewLine } from '@wuye/contract/invoice/invoices';
import { fenToYuan, toFen } from '@wuye/contract/money';
import { Money, moneyColumn } from '../../components/Money';

type PreviewRow = InvoicePreviewLine & { key: string; discountLine?: boolean };

/** The invoices an issue would make: per invoice its lines by item and rate, tax separated, a discount line under a discounted one. */
export function PreviewTables({ preview }: { preview: InvoicePreview }) {
  return (
    <div data-testid="invoice-preview">
      {preview.invoices.map((inv, n) => {
        const rows: PreviewRow[] = inv.lines.flatMap((l, i) => {
          const line: PreviewRow = { ...l, key: `${i}` };
          if (!l.discount || l.discount === '0.00') return [line];
          return [line, { ...l, key: `${i}-d`, discountLine: true }];
        });
        return (
          <div key={inv.line_ids.join(',')} style={{ marginBottom: 12 }}>
            {preview.invoices.length > 1 && (
              <Typography.Text strong>
                第 {n + 1} 张，共 {preview.invoices.length} 张
              </Typography.Text>
            )}
            <Table<PreviewRow>
              size="small"
              rowKey="key"
              pagination={false}
              scroll={{ x: 'max-content' }}
              dataSource={rows}
              columns={[
                {
                  title: '项目名称',
                  dataIndex: 'goods_name',
                  render: (v: string, r) => (r.discountLine ? <Typography.Text type="secondary">{v}（折扣）</Typography.Text> : `*${v}`),
                },
                { title: '税率', dataIndex: 'rate_ch', width: 80 },
                {
                  title: '金额（含税，元）',
                  key: 'amount',
                  align: 'right',
                  render: (_, r) => <Money value={r.discountLine ? `-${r.discount}` : (addMoney(r.amount, r.discount) ?? r.amount)} />,
                },
                moneyColumn('不含税金额', 'ex_tax', { render: (v: string, r) => (r.discountLine ? '' : <Money value={v} />) }),
                moneyColumn('税额', 'tax', { render: (v: string, r) => (r.discountLine ? '' : <Money value={v} />) }),
              ]}
              summary={() => (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0} colSpan={2}>
                    合计
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right">
                    <Money value={inv.amount} />
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">
                    <Money value={inv.ex_tax} />
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right">
                    <Money value={inv.tax} />
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              )}
            />
          </div>
        );
      })}
    </div>
  );
}

/** Two decimals added in fen (the gross of a discounted line: its amount after discount plus the discount). */
function addMoney(a: string, b: string): string | null {
  try {
    return fenToYuan(toFen(a) + toFen(b));
  } catch {
    return null;
  }
}

/** An invoice's lines: receipt, room, item, period, tax separated, and what red invoices took back. */
export function InvoiceLinesTable({ lines, red }: { lines: InvoiceLineRow[]; red?: boolean }) {
  return (
    <Table<InvoiceLineRow>
      size="small"
      rowKey="id"
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={lines}
      data-testid="invoice-lines"
      columns={[
        { title: '收据号', dataIndex: 'receipt_no', width: 110 },
        { title: '房屋', dataIndex: 'address', width: 150 },
        { title: '收费项目', dataIndex: 'item_title', width: 120 },
        { title: '账期', dataIndex: 'period', width: 150 },
        { title: '开票项目', dataIndex: 'goods_name', width: 120 },
        { title: '税率', dataIndex: 'rate_ch', width: 70 },
        moneyColumn('金额', 'amount', { width: 110 }),
        moneyColumn('折扣', 'discount', { width: 90 }),
        moneyColumn('不含税', 'ex_tax', { width: 110 }),
        moneyColumn('税额', 'tax', { width: 90 }),
        ...(red ? [] : [moneyColumn<InvoiceLineRow>('已红冲', 'reversed', { width: 100 })]),
      ]}
    />
  );
}

/** An application's lines: receipt, item, period, amount asked for. */
export function ApplyLinesTable({ lines, loading }: { lines: InvoiceApplyRow['lines']; loading?: boolean }) {
  return (
    <Table<InvoiceApplyRow['lines'][number]>
      loading={loading}
      size="small"
      rowKey="id"
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={lines}
      data-testid="invoiceapply-lines"
      columns={[
        { title: '收据号', dataIndex: 'receipt_no', width: 110 },
        { title: '收费项目', dataIndex: 'item_title', width: 130 },
        { title: '账期', dataIndex: 'period', width: 160 },
        moneyColumn('申请金额', 'amount', { width: 110 }),
      ]}
    />
  );
}
