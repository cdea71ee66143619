import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Col,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  Modal,
  Radio,
  Row,
  Select,
  Space,
  Spin,
  Typography,
  type ButtonProps,
} from 'antd';
import { useQuery } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { fenToYuan, toFen } from '@wuye/contract/money';
import { INVOICE_COLOR, INVOICE_STATUS, RED_REASON, type InvoiceInfo, type InvoiceLineRow } from '@wuye/contract/invoice/invoices';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { Money, formatMoney } from '../../components/Money';
import MoneyInput from '../../components/MoneyInput';
import { EnumTag } from '../../components/resource';
import { validValues } from '../../utils/forms';
import { InvoiceLinesTable } from './parts';
import { amountProblem } from './shared';

/** One invoice in full, loaded while a dialog about it is open. */
function useInvoiceInfo(id: number | null) {
  return useQuery({
    queryKey: ['invoiceinfo', id],
    queryFn: () => call('invoiceinfo', { id: id! }),
    enabled: id !== null,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** 详情: the invoice's buyer, seller, amounts, lines, its red invoices and where it was pushed. */
export function InvoiceDetail({ id, onClose }: { id: number | null; onClose: () => void }) {
  const q = useInvoiceInfo(id);
  const inv = q.data;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size="large"
      destroyOnHidden
      title={inv ? `发票 ${inv.invoice_no || inv.serial}` : '发票详情'}
      data-testid="invoice-detail"
    >
      {q.isLoading ? (
        <Spin />
      ) : inv ? (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {inv.status === 'F' && inv.message && <Alert type="error" showIcon title="开票失败" description={inv.message} />}
          <Descriptions size="small" bordered column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label="发票号码">{inv.invoice_no || '-'}</Descriptions.Item>
            <Descriptions.Item label="流水号">{inv.serial}</Descriptions.Item>
            <Descriptions.Item label="种类">
              {inv.kind_ch} <EnumTag enum={INVOICE_COLOR} value={inv.color} />
            </Descriptions.Item>
            <Descriptions.Item label="状态">
              <EnumTag enum={INVOICE_STATUS} value={inv.status} />
            </Descriptions.Item>
            {inv.color === 'R' && <Descriptions.Item label="原蓝票">{inv.blue_no || '-'}</Descriptions.Item>}
            {inv.color === 'R' && (
              <Descriptions.Item label="红冲原因">
                {inv.red_reason_ch}
                {inv.remark ? `：${inv.remark}` : ''}
              </Descriptions.Item>
            )}
            <Descriptions.Item label="购买方">{inv.buyer_title}</Descriptions.Item>
            <Descriptions.Item label="纳税人识别号">{inv.buyer_tax_no || '-'}</Descriptions.Item>
            <Descriptions.Item label="地址电话">{inv.buyer_address_phone || '-'}</Descriptions.Item>
            <Descriptions.Item label="开户行及账号">{inv.buyer_bank_account || '-'}</Descriptions.Item>
            <Descriptions.Item label="销售方">{inv.seller_name}</Descriptions.Item>
            <Descriptions.Item label="销方税号">{inv.seller_tax_no}</Descriptions.Item>
            <Descriptions.Item label="价税合计">
              <Money value={inv.amount} unit="元" />
            </Descriptions.Item>
            <Descriptions.Item label="不含税 / 税额">
              <Money value={inv.ex_tax} /> / <Money value={inv.tax} />
            </Descriptions.Item>
            {inv.color === 'B' && (
              <Descriptions.Item label="已红冲">
                <Money value={inv.reversed} unit="元" />
              </Descriptions.Item>
            )}
            <Descriptions.Item label="开票人">
              {inv.issuer} · {inv.issue_time || inv.create_time}
            </Descriptions.Item>
            {inv.color === 'B' && !!inv.remark && <Descriptions.Item label="备注">{inv.remark}</Descriptions.Item>}
          </Descriptions>
          <Typography.Title level={5}>开票明细</Typography.Title>
          <InvoiceLinesTable lines={inv.lines} red={inv.color === 'R'} />
          {inv.color === 'B' && (
            <>
              <Typography.Title level={5}>红字发票</Typography.Title>
              {inv.reds.length === 0 ? (
                <Typography.Text type="secondary">无</Typography.Text>
              ) : (
                inv.reds.map((r) => (
                  <div key={r.id} className="invoice-title-item" data-testid={`invoice-detail-red-${r.id}`}>
                    <span>
                      {r.invoice_no || r.serial} · {r.red_reason_ch} · {r.issue_time || r.create_time}
                    </span>
                    <Space>
                      <Money value={r.amount} unit="元" />
                      <EnumTag enum={INVOICE_STATUS} value={r.status} />
                    </Space>
                  </div>
                ))
              )}
            </>
          )}
          <Typography.Title level={5}>推送记录</Typography.Title>
          {inv.pushes.length === 0 ? (
            <Typography.Text type="secondary">无</Typography.Text>
          ) : (
            inv.pushes.map((p, i) => (
              <div key={i} className="invoice-title-item">
                <span>
                  {p.channel_ch} {p.target}
                </span>
                <Typography.Text type="secondary">
                  {p.status} · {p.create_user} · {p.create_time}
                </Typography.Text>
              </div>
            ))
          )}
        </Space>
      ) : (
        <Empty />
      )}
    </Drawer>
  );
}

interface PushValues {
  push: 'email' | 'sms';
  target: string;
}

/** 重新推送: to an email or a mobile, prefilled from the buyer. */
export function PushDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const q = useInvoiceInfo(id);
  const [form] = Form.useForm<PushValues>();
  const [saving, setSaving] = useState(false);
  const push = Form.useWatch('push', form) ?? 'email';
  const inv = q.data;
  useEffect(() => {
    if (!inv) return;
    const channel = inv.push === 'sms' || (!inv.buyer_email && inv.buyer_mobile) ? 'sms' : 'email';
    form.setFieldsValue({ push: channel, target: channel === 'sms' ? inv.buyer_mobile : inv.buyer_email });
  }, [inv, form]);
  const save = async () => {
    if (id === null) return;
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const answer = await request('invoicepush', {
        id,
        push: v.push,
        email: v.push === 'email' ? v.target.trim() : '',
        mobile: v.push === 'sms' ? v.target.trim() : '',
      });
      noticeSuccess(answer.return_msg);
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={id !== null}
      title="重新推送"
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      okText="推送"
      destroyOnHidden
      forceRender
      okButtonProps={{ 'data-testid': 'invoice-push-ok' } as ButtonProps}
    >
      <Form<PushValues> form={form} layout="vertical" initialValues={{ push: 'email', target: '' }}>
        <Form.Item name="push" label="推送方式">
          <Radio.Group
            options={[
              { value: 'email', label: '邮箱' },
              { value: 'sms', label: '短信' },
            ]}
            onChange={(e) => form.setFieldValue('target', e.target.value === 'sms' ? (inv?.buyer_mobile ?? '') : (inv?.buyer_email ?? ''))}
            data-testid="invoice-push-channel"
          />
        </Form.Item>
        <Form.Item
          name="target"
          label={push === 'sms' ? '手机号' : '邮箱'}
          rules={[
            { required: true, message: push === 'sms' ? '请输入手机号' : '请输入邮箱' },
            push === 'sms' ? { pattern: /^1\d{10}$/, message: '手机号格式不正确' } : { type: 'email', message: '邮箱格式不正确' },
          ]}
        >
          <Input maxLength={push === 'sms' ? 11 : 100} data-testid="invoice-push-target" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface RedValues {
  reason: string;
  remark?: string;
  whole: 'all' | 'part';
}

/** What is left to reverse of a blue line. */
const lineLeft = (l: InvoiceLineRow) => fenToYuan(toFen(l.amount) - toFen(l.reversed || '0'));

/** 红冲: the whole invoice, or amounts of chosen lines, with a reason. */
export function RedDialog({ id, onClose, onDone }: { id: number | null; onClose: () => void; onDone: () => void }) {
  const q = useInvoiceInfo(id);
  const inv: InvoiceInfo | undefined = q.data;
  const [form] = Form.useForm<RedValues>();
  const [amounts, setAmounts] = useState<Record<number, string>>({});
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState('');
  const whole = Form.useWatch('whole', form) ?? 'all';
  const lines = useMemo(() => (inv?.lines ?? []).filter((l) => toFen(l.amount) > toFen(l.reversed || '0')), [inv]);
  useEffect(() => {
    setAmounts({});
    setProblem('');
  }, [id]);
  const partial = lines.filter((l) => amounts[l.id]);
  const problems = Object.fromEntries(partial.map((l) => [l.id, amountProblem(amounts[l.id], lineLeft(l))]));
  const partTotal = partial.reduce((n, l) => (problems[l.id] ? n : n + toFen(amounts[l.id]!)), 0n);
  const left = inv ? fenToYuan(toFen(inv.amount) - toFen(inv.reversed || '0')) : '0.00';

  const busy = useRef(false);
  const save = async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      await reverse();
    } finally {
      busy.current = false;
    }
  };
  const reverse = async () => {
    if (id === null || !inv) return;
    setProblem('');
    const v = await validValues(form);
    if (!v) return;
    if (v.whole === 'part') {
      if (partial.length === 0) return setProblem('请填写要红冲的金额');
      if (partial.some((l) => problems[l.id])) return setProblem('请核对红冲金额');
    }
    setSaving(true);
    try {
      const answer = await request('invoicered', {
        id,
        reason: v.reason as never,
        remark: v.remark ?? '',
        lines: v.whole === 'part' ? partial.map((l) => ({ id: l.id, amount: amounts[l.id]! })) : [],
      });
      noticeSuccess(answer.return_msg);
      onDone();
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={id !== null}
      title={inv ? `红冲 · ${inv.invoice_no || inv.serial}` : '红冲'}
      width={760}
      onCancel={onClose}
      onOk={() => void save()}
      okText={
        whole === 'all' ? `全额红冲 ${formatMoney(left, { unit: '元' })}` : `红冲 ${formatMoney(fenToYuan(partTotal), { unit: '元' })}`
      }
      okButtonProps={{ danger: true, 'data-testid': 'invoice-red-ok', disabled: !inv } as ButtonProps}
      confirmLoading={saving}
      destroyOnHidden
      forceRender
      modalRender={(node) => <div data-testid="invoice-red-dialog">{node}</div>}
    >
      {!inv ? (
        <Spin />
      ) : (
        <>
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={`数电发票不能作废，红冲将开具一张负数发票，红冲的金额回到待开票，可重新开具。${inv.buyer_title} · 价税合计 ${formatMoney(inv.amount, { unit: '元' })}，已红冲 ${formatMoney(inv.reversed || '0', { unit: '元' })}`}
          />
          <Form<RedValues> form={form} layout="vertical" initialValues={{ whole: 'all' }}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="reason" label="红冲原因" rules={[{ required: true, message: '请选择红冲原因' }]}>
                  <Select options={enumOptions(RED_REASON)} data-testid="invoice-red-reason" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="whole" label="红冲范围">
                  <Radio.Group
                    options={[
                      { value: 'all', label: '全额' },
                      { value: 'part', label: '部分' },
                    ]}
                    data-testid="invoice-red-whole"
                  />
                </Form.Item>
              </Col>
            </Row>
            {whole === 'part' &&
              lines.map((l) => (
                <Row key={l.id} gutter={8} align="middle" style={{ marginBottom: 8 }}>
                  <Col xs={24} md={14}>
                    {l.address} · {l.item_title} · {l.period}
                    <br />
                    <Typography.Text type="secondary" className="invoice-hint">
                      金额 {formatMoney(l.amount)} · 已红冲 {formatMoney(l.reversed || '0')} · 可红冲 {formatMoney(lineLeft(l))}
                    </Typography.Text>
                  </Col>
                  <Col xs={24} md={10}>
                    <Form.Item
                      style={{ marginBottom: 0 }}
                      validateStatus={problems[l.id] ? 'error' : undefined}
                      help={problems[l.id] || undefined}
                    >
                      <MoneyInput
                        prefix="¥"
                        placeholder="不红冲留空"
                        value={amounts[l.id]}
                        onChange={(v) => setAmounts((a) => ({ ...a, [l.id]: v }))}
                        data-testid={`invoice-red-amount-${l.id}`}
                      />
                    </Form.Item>
                  </Col>
                </Row>
              ))}
            <Form.Item name="remark" label="备注">
              <Input.TextArea rows={2} maxLength={200} data-testid="invoice-red-remark" />
            </Form.Item>
          </Form>
          {problem && <Alert type="error" showIcon title={problem} data-testid="invoice-red-problem" />}
        </>
      )}
    </Modal>
  );
}
