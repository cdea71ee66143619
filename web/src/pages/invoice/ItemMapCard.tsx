import { useState } from 'react';
import { App, Button, Form, Input, Modal, Radio, Select, Space, Tag, type ButtonProps } from 'antd';
import type { TableColumnsType } from 'antd';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  INVOICE_ITEM_SUGGESTIONS,
  INVOICE_RATE,
  INVOICE_SPECIAL,
  invoiceItemMapFields,
  type InvoiceItemMapRow,
} from '@wuye/contract/invoice/invoices';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { FEE_ROLES } from '@wuye/contract/fees/roles';
import { useCanWrite, useSmallList, zodRule } from '../../components/resource';
import { validValues } from '../../utils/forms';

interface MapValues {
  goods_name: string;
  tax_code: string;
  rate: string;
  tax_included: 'Y' | 'N';
  special: string;
  unit: string;
}
interface Filters {
  title?: string;
  cost_type?: string;
  mapped?: '' | 'Y' | 'N';
}

const f = invoiceItemMapFields;

/** The values the mapping form opens with: the row's mapping, or the suggestion for its cost type. */
export function mappingStart(row: InvoiceItemMapRow): MapValues {
  if (row.mapped === 'Y')
    return {
      goods_name: row.goods_name,
      tax_code: row.tax_code,
      rate: row.rate,
      tax_included: row.tax_included === 'N' ? 'N' : 'Y',
      special: row.special || 'none',
      unit: row.unit,
    };
  const s = INVOICE_ITEM_SUGGESTIONS[row.cost_type] ?? INVOICE_ITEM_SUGGESTIONS.other!;
  return { goods_name: s.goods_name, tax_code: s.tax_code, rate: s.rate, tax_included: 'Y', special: 'none', unit: '' };
}

/** 收费项目开票映射: every fee item with what it is called on an invoice, its tax code and rate (或 未设置). */
export default function ItemMapCard() {
  const list = useList('invoiceitemmaplist', {});
  // the cost types are the fee area's small list: read by those who may (an invoicing clerk alone filters by title)
  const readsFees = useCanWrite(FEE_ROLES.read);
  const costTypes = useSmallList('feebill_cate_small_list', readsFees ? {} : null).items;
  const actionFixed = useActionFixed();
  const { modal } = App.useApp();
  const [form] = Form.useForm<MapValues>();
  const [editing, setEditing] = useState<InvoiceItemMapRow | null>(null);
  const [saving, setSaving] = useState(false);

  const open = (row: InvoiceItemMapRow) => {
    setEditing(row);
    form.setFieldsValue(mappingStart(row));
  };
  const save = async () => {
    if (!editing) return;
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const answer = await request('invoiceitemmapset', { item_id: editing.item_id, ...v, unit: v.unit ?? '' } as never);
      noticeSuccess(answer.return_msg);
      setEditing(null);
      list.reload();
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  const clear = (row: InvoiceItemMapRow) =>
    void modal.confirm({
      title: '清除开票映射',
      content: `清除「${row.item_title}」的开票映射后，该项目的费用不能开票，直到重新设置。确定清除？`,
      okText: '清除',
      okButtonProps: { danger: true, 'data-testid': 'itemmap-del-confirm' } as ButtonProps,
      cancelText: '取消',
      onOk: async () => {
        const answer = await request('invoiceitemmapdel', { item_id: row.item_id });
        noticeSuccess(answer.return_msg);
        list.reload();
      },
    });

  const columns: TableColumnsType<InvoiceItemMapRow> = [
    { title: '收费项目', dataIndex: 'item_title', width: 160, fixed: actionFixed ? 'left' : undefined },
    { title: '费用类型', dataIndex: 'cost_type_ch', width: 100 },
    {
      title: '开票项目名称',
      dataIndex: 'goods_name',
      width: 170,
      render: (v: string, r) => (r.mapped === 'Y' ? v : <Tag data-testid={`itemmap-unset-${r.item_id}`}>未设置</Tag>),
    },
    { title: '税收分类编码', dataIndex: 'tax_code', width: 190 },
    { title: '税率', dataIndex: 'rate_ch', width: 90 },
    { title: '含税', dataIndex: 'tax_included', width: 70, render: (v: string) => (v === 'Y' ? '含税' : v === 'N' ? '不含税' : '') },
    { title: '特殊计税', dataIndex: 'special_ch', width: 100 },
    { title: '单位', dataIndex: 'unit', width: 70 },
    { title: '更新时间', dataIndex: 'update_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 140,
      fixed: actionFixed,
      render: (_, r) => (
        <Space size={4}>
          <Button
            size="small"
            type={r.mapped === 'Y' ? 'default' : 'primary'}
            onClick={() => open(r)}
            data-testid={`itemmap-set-${r.item_id}`}
          >
            {r.mapped === 'Y' ? '编辑' : '设置'}
          </Button>
          {r.mapped === 'Y' && (
            <Button size="small" danger onClick={() => clear(r)} data-testid={`itemmap-del-${r.item_id}`}>
              清除
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <TablePage<InvoiceItemMapRow, Filters>
        testId="itemmap-page"
        title="收费项目开票映射"
        list={list}
        columns={columns}
        rowKey="item_id"
        onSearch={(v) =>
          list.setFilters({ title: v.title?.trim() || undefined, cost_type: v.cost_type || undefined, mapped: v.mapped ?? '' })
        }
        filters={
          <>
            <Form.Item name="title" label="收费项目">
              <Input allowClear maxLength={30} style={{ width: 150 }} data-testid="itemmap-filter-title" />
            </Form.Item>
            <Form.Item name="cost_type" label="费用类型" hidden={!readsFees}>
              <Select
                allowClear
                style={{ width: 130 }}
                options={costTypes.map((c) => ({ value: c.cost_type, label: c.title }))}
                data-testid="itemmap-filter-cost_type"
              />
            </Form.Item>
            <Form.Item name="mapped" label="映射">
              <Select
                allowClear
                style={{ width: 110 }}
                options={[
                  { value: 'Y', label: '已设置' },
                  { value: 'N', label: '未设置' },
                ]}
                data-testid="itemmap-filter-mapped"
              />
            </Form.Item>
          </>
        }
      />
      <Modal
        open={editing !== null}
        title={editing ? `开票映射 · ${editing.item_title}` : ''}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        confirmLoading={saving}
        okButtonProps={{ 'data-testid': 'itemmap-save' } as ButtonProps}
        forceRender
        modalRender={(node) => <div data-testid="itemmap-form">{node}</div>}
      >
        <Form<MapValues> form={form} layout="vertical">
          <Form.Item name="goods_name" label="开票项目名称" rules={[zodRule(f.goods_name, '开票项目名称')]}>
            <Input maxLength={40} data-testid="itemmap-goods_name" />
          </Form.Item>
          <Form.Item
            name="tax_code"
            label="税收分类编码"
            rules={[zodRule(f.tax_code, '税收分类编码')]}
            extra="19位数字，如物业管理服务 3040801010000000000；请与税务顾问核对"
          >
            <Input maxLength={19} inputMode="numeric" data-testid="itemmap-tax_code" />
          </Form.Item>
          <Form.Item name="rate" label="税率" rules={[zodRule(f.rate, '税率', true)]}>
            <Select options={enumOptions(INVOICE_RATE)} data-testid="itemmap-rate" />
          </Form.Item>
          <Form.Item name="tax_included" label="金额含税">
            <Radio.Group
              options={[
                { value: 'Y', label: '含税' },
                { value: 'N', label: '不含税' },
              ]}
            />
          </Form.Item>
          <Form.Item name="special" label="特殊计税">
            <Select options={enumOptions(INVOICE_SPECIAL)} data-testid="itemmap-special" />
          </Form.Item>
          <Form.Item name="unit" label="单位" rules={[zodRule(f.unit, '单位')]}>
            <Input maxLength={10} placeholder="如 月、平方米" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
