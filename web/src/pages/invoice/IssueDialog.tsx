import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Checkbox, Col, Empty, Form, Input, Modal, Radio, Row, Spin, Typography, type ButtonProps } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { enumOptions, enumText } from '@wuye/contract/kit/resource';
import {
  INVOICE_KIND,
  INVOICE_PUSH,
  TITLE_KIND,
  buyerFields,
  type Buyer,
  type InvoiceKind,
  type InvoicePush,
  type InvoiceTitleRow,
  type InvoiceWaitRow,
  type TitleKind,
} from '@wuye/contract/invoice/invoices';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { Money, formatMoney } from '../../components/Money';
import MoneyInput from '../../components/MoneyInput';
import { zodRule } from '../../components/resource';
import { validValues } from '../../utils/forms';
import { PreviewTables } from './parts';
import { amountProblem, distinct } from './shared';
import { useIdempotentSubmit } from '../fees/useIdempotentSubmit';

interface BuyerValues {
  kind: TitleKind;
  title: string;
  tax_no?: string;
  address_phone?: string;
  bank_account?: string;
  email?: string;
  mobile?: string;
  save_title?: boolean;
  invoice_kind: InvoiceKind;
  push: InvoicePush;
  remark?: string;
}

export type IssueMode = 'issue' | 'apply';

/**
 * 开票 (or 申请开票) for chosen waiting lines: an amount per line (what is left by default), a
 * saved title of the lines' owners or a buyer typed here, the kind, the push, a remark; the
 * preview of the invoices it makes (by item and rate, tax separated); then invoiceissue, or
 * invoiceapplyadd for a cashier's application that finance reviews.
 */
export default function IssueDialog({
  lines,
  mode,
  onClose,
  onDone,
}: {
  /** the chosen lines; null keeps the dialog closed */
  lines: InvoiceWaitRow[] | null;
  mode: IssueMode;
  onClose: () => void;
  onDone: () => void;
}) {
  const open = lines !== null;
  const rows = useMemo(() => lines ?? [], [lines]);
  const [form] = Form.useForm<BuyerValues>();
  const [amounts, setAmounts] = useState<Record<number, string>>({});
  const [titleId, setTitleId] = useState<number | 'typed'>('typed');
  const [saving, setSaving] = useState(false);
  const { submit: submitOnce } = useIdempotentSubmit();
  // one issue per click: a second click while the first is still being checked does nothing (the call has no idempotency key)
  const busy = useRef(false);
  const [problem, setProblem] = useState('');
  const memberIds = useMemo(() => distinct(rows.map((r) => r.member_id)), [rows]);
  const kind = Form.useWatch('invoice_kind', form) ?? 'p';
  const buyerKind = Form.useWatch('kind', form) ?? 'person';

  // the seller's defaults (kind, push) for those who may read the settings
  const settings = useQuery({
    queryKey: ['invoicesetinfo'],
    queryFn: () => call('invoicesetinfo', undefined, { silent: true }),
    enabled: open && mode === 'issue',
    retry: false,
    staleTime: 60_000,
  });
  const titles = useQuery({
    queryKey: ['res', 'invoicetitle', 'small', 'invoicetitle_small_list', memberIds],
    queryFn: () => call('invoicetitle_small_list', { member_ids: memberIds }),
    enabled: open && memberIds.length > 0,
    retry: false,
  });
  const saved: InvoiceTitleRow[] = useMemo(() => titles.data?.items ?? [], [titles.data]);

  // a new choice of lines starts afresh: each line all that is left, the owners' default title
  useEffect(() => {
    if (!lines) return;
    setAmounts(Object.fromEntries(lines.map((l) => [l.id, l.left])));
    setProblem('');
    form.resetFields();
  }, [lines, form]);
  useEffect(() => {
    if (!open) return;
    setTitleId(saved[0]?.id ?? 'typed');
  }, [open, saved]);
  useEffect(() => {
    const s = settings.data;
    if (!s || !open) return;
    form.setFieldsValue({ invoice_kind: s.default_kind, push: s.push_default });
  }, [settings.data, open, form]);

  const picks = rows.map((r) => ({ id: r.id, amount: amounts[r.id] ?? r.left }));
  const lineProblems = Object.fromEntries(rows.map((r) => [r.id, amountProblem(amounts[r.id], r.left)]));
  const allValid = rows.length > 0 && Object.values(lineProblems).every((p) => p === '');
  const preview = useQuery({
    queryKey: ['invoicepreview', picks, kind],
    queryFn: () => call('invoicepreview', { lines: picks, kind }, { silent: true }),
    enabled: open && allValid,
    retry: false,
    placeholderData: keepPreviousData,
  });
  const chosen = titleId === 'typed' ? null : (saved.find((t) => t.id === titleId) ?? null);
  const total = preview.data?.amount;

  const submit = async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      await send();
    } finally {
      busy.current = false;
    }
  };
  const send = async () => {
    setProblem('');
    if (!allValid) return setProblem('请核对每条费用的开票金额');
    const v = await validValues(form);
    if (!v) return;
    const buyer: Buyer | undefined = chosen
      ? undefined
      : {
          kind: v.kind,
          title: v.title,
          tax_no: v.tax_no ?? '',
          address_phone: v.address_phone ?? '',
          bank_account: v.bank_account ?? '',
          email: v.email ?? '',
          mobile: v.mobile ?? '',
        };
    const companyBuyer = (chosen?.kind ?? buyer?.kind) === 'company';
    if (v.invoice_kind === 's' && !companyBuyer) return setProblem('数电专票的购买方须为企业');
    if (v.invoice_kind === 's' && !(chosen ? chosen.address_phone && chosen.bank_account : buyer?.address_phone && buyer.bank_account))
      return setProblem('数电专票须填写购买方地址电话和开户行及账号');
    const email = chosen?.email ?? buyer?.email;
    const mobile = chosen?.mobile ?? buyer?.mobile;
    if (mode === 'issue' && v.push === 'email' && !email) return setProblem('推送到邮箱须填写购买方邮箱');
    if (mode === 'issue' && v.push === 'sms' && !mobile) return setProblem('推送短信须填写接收手机');
    setSaving(true);
    try {
      if (mode === 'issue') {
        // a retry after a lost answer sends the attempt's key again, and the invoices are issued once
        const answer = await submitOnce((idempotency_key) =>
          request('invoiceissue', {
            lines: picks,
            title_id: chosen?.id,
            buyer,
            save_title_member_id: !chosen && v.save_title && memberIds.length === 1 ? memberIds[0] : undefined,
            kind: v.invoice_kind,
            push: v.push,
            remark: v.remark ?? '',
            idempotency_key,
          }),
        );
        if (!answer) return;
        noticeSuccess(answer.return_msg);
      } else {
        if (memberIds.length !== 1) return setProblem('申请开票的费用须属于同一位业主');
        const answer = await request('invoiceapplyadd', {
          lines: picks,
          member_id: memberIds[0]!,
          title_id: chosen?.id,
          buyer,
          kind: v.invoice_kind,
          remark: v.remark ?? '',
        });
        noticeSuccess(answer.return_msg);
      }
      onDone();
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };

  const f = buyerFields;
  return (
    <Modal
      open={open}
      title={mode === 'issue' ? `开票 · ${rows.length} 条费用` : `申请开票 · ${rows.length} 条费用`}
      width={920}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={mode === 'issue' ? (total ? `开具 ${formatMoney(total, { unit: '元' })}` : '开具发票') : '提交申请'}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': mode === 'issue' ? 'invoice-issue-ok' : 'invoice-apply-ok', disabled: !allValid } as ButtonProps}
      destroyOnHidden
      modalRender={(node) => <div data-testid="invoice-issue-dialog">{node}</div>}
    >
      <Typography.Title level={5}>开票金额</Typography.Title>
      <div data-testid="invoice-issue-lines">
        {rows.map((r) => (
          <Row key={r.id} gutter={8} align="middle" style={{ marginBottom: 8 }} wrap>
            <Col xs={24} md={14}>
              <Typography.Text>
                {r.address} · {r.item_title} · {r.period || r.daterange}
              </Typography.Text>
              <br />
              <Typography.Text type="secondary" className="invoice-hint">
                收据 {r.receipt_no} · 实收 {formatMoney(r.received)} · 已开 {formatMoney(r.invoiced)} · 可开 {formatMoney(r.left)}
              </Typography.Text>
            </Col>
            <Col xs={24} md={10}>
              <Form.Item
                style={{ marginBottom: 0 }}
                validateStatus={lineProblems[r.id] ? 'error' : undefined}
                help={lineProblems[r.id] || undefined}
              >
                <MoneyInput
                  prefix="¥"
                  value={amounts[r.id]}
                  onChange={(v) => setAmounts((a) => ({ ...a, [r.id]: v }))}
                  data-testid={`invoice-issue-amount-${r.id}`}
                />
              </Form.Item>
            </Col>
          </Row>
        ))}
      </div>
      <Form<BuyerValues>
        form={form}
        layout="vertical"
        initialValues={{ kind: 'person', invoice_kind: 'p', push: 'none', save_title: false }}
        data-testid="invoice-issue-form"
      >
        <Typography.Title level={5}>购买方</Typography.Title>
        {(titles.isLoading || saved.length > 0) && (
          <Form.Item label="发票抬头">
            {titles.isLoading ? (
              <Spin size="small" />
            ) : (
              <Radio.Group
                value={titleId}
                onChange={(e) => setTitleId(e.target.value as number | 'typed')}
                data-testid="invoice-issue-titles"
              >
                {saved.map((t) => (
                  <Radio key={t.id} value={t.id} data-testid={`invoice-issue-title-${t.id}`} style={{ display: 'flex', marginBottom: 4 }}>
                    {t.title}（{t.kind_ch}
                    {t.tax_no ? ` ${t.tax_no}` : ''}）{t.is_default === 'Y' ? ' · 默认' : ''}
                  </Radio>
                ))}
                <Radio value="typed" data-testid="invoice-issue-title-typed" style={{ display: 'flex' }}>
                  填写新的抬头
                </Radio>
              </Radio.Group>
            )}
          </Form.Item>
        )}
        {titleId === 'typed' && (
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="kind" label="抬头类型" rules={[zodRule(f.kind, '抬头类型', true)]}>
                <Radio.Group options={enumOptions(TITLE_KIND)} data-testid="invoice-buyer-kind" />
              </Form.Item>
            </Col>
            <Col xs={24} md={16}>
              <Form.Item name="title" label="发票抬头" rules={[zodRule(f.title, '发票抬头')]}>
                <Input maxLength={64} data-testid="invoice-buyer-title" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="tax_no"
                label="纳税人识别号"
                dependencies={['kind']}
                rules={[zodRule(f.tax_no, '纳税人识别号'), { required: buyerKind === 'company', message: '企业抬头须填写纳税人识别号' }]}
              >
                <Input maxLength={20} style={{ textTransform: 'uppercase' }} data-testid="invoice-buyer-tax_no" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="address_phone" label="地址电话" rules={[zodRule(f.address_phone, '地址电话')]}>
                <Input maxLength={100} data-testid="invoice-buyer-address_phone" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="bank_account" label="开户行及账号" rules={[zodRule(f.bank_account, '开户行及账号')]}>
                <Input maxLength={100} data-testid="invoice-buyer-bank_account" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="email" label="邮箱" rules={[zodRule(f.email, '邮箱')]}>
                <Input maxLength={100} data-testid="invoice-buyer-email" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="mobile" label="接收手机" rules={[zodRule(f.mobile, '接收手机')]}>
                <Input maxLength={11} data-testid="invoice-buyer-mobile" />
              </Form.Item>
            </Col>
            {memberIds.length === 1 && (
              <Col xs={24} md={8}>
                <Form.Item name="save_title" label=" " valuePropName="checked">
                  <Checkbox data-testid="invoice-buyer-save">保存为该业主的抬头</Checkbox>
                </Form.Item>
              </Col>
            )}
          </Row>
        )}
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="invoice_kind" label="发票种类">
              <Radio.Group options={enumOptions(INVOICE_KIND)} data-testid="invoice-issue-kind" />
            </Form.Item>
          </Col>
          {mode === 'issue' && (
            <Col xs={24} md={8}>
              <Form.Item name="push" label="推送">
                <Radio.Group options={enumOptions(INVOICE_PUSH)} data-testid="invoice-issue-push" />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={mode === 'issue' ? 8 : 16}>
            <Form.Item name="remark" label="备注">
              <Input maxLength={200} data-testid="invoice-issue-remark" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      <Typography.Title level={5}>
        预览{preview.data ? `（${preview.data.invoices.length} 张 · ${enumText(INVOICE_KIND, kind)}）` : ''}
      </Typography.Title>
      {preview.data ? (
        <Spin spinning={preview.isFetching}>
          <PreviewTables preview={preview.data} />
          <Typography.Text data-testid="invoice-preview-total">
            价税合计 <Money value={preview.data.amount} unit="元" />
            （不含税 <Money value={preview.data.ex_tax} unit="元" />
            ，税额 <Money value={preview.data.tax} unit="元" />）
          </Typography.Text>
        </Spin>
      ) : preview.isError ? (
        <Alert type="error" showIcon title={(preview.error as Error).message} data-testid="invoice-preview-error" />
      ) : preview.isFetching ? (
        <Spin />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="填写开票金额后显示预览" />
      )}
      {problem && <Alert type="error" showIcon style={{ marginTop: 12 }} title={problem} data-testid="invoice-issue-problem" />}
    </Modal>
  );
}
