/**
 * Pieces the contract pages share (docs/product.md#crm-contracts): the payment plan editor with its
 * live sum against the total, the unit picker (rooms and spaces with their state and list price),
 * the type's custom fields, and the plan's table.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Col, DatePicker, Form, Input, InputNumber, Row, Select, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { fenToYuan, toFen } from '@wuye/contract/money';
import {
  INSTALMENT_NAME,
  INSTALMENT_STATE,
  UNIT_STATE,
  type CustomFieldDef,
  type InstalmentRow,
  type UnitStateRow,
} from '@wuye/contract/crm/contracts';
import { call } from '../../../api/client';
import MoneyInput from '../../../components/MoneyInput';
import { Money, formatMoney } from '../../../components/Money';
import { EnumTag } from '../../../components/resource';
import './contracts.css';

export const DAY = 'YYYY-MM-DD';
export const fenOf = (v: string | undefined | null) => {
  try {
    return v ? toFen(v) : 0n;
  } catch {
    return 0n;
  }
};

/** A plan line in the form: the day as a dayjs (the picker's value). */
export interface PlanLine {
  id?: number;
  name: string;
  amount: string;
  due_date: dayjs.Dayjs | null;
  /** billed: kept as it is in a change */
  locked?: boolean;
}

export const planToWire = (plan: PlanLine[] | undefined) =>
  (plan ?? []).map((p) => ({ id: p.id, name: p.name, amount: p.amount, due_date: p.due_date ? p.due_date.format(DAY) : '' }));

export const planFromRows = (rows: InstalmentRow[]): PlanLine[] =>
  rows.map((i) => ({ id: i.id, name: i.name, amount: i.amount, due_date: dayjs(i.due_date), locked: i.bill_id !== null }));

/**
 * The payment plan (收款计划) as rows of 款项, 金额 and 计划日期, with its sum against the total
 * (the server refuses a plan that does not add up, to the fen). Lives inside a Form as `instalments`.
 */
export function PlanEditor({ total, testId = 'plan' }: { total: string | undefined; testId?: string }) {
  const form = Form.useFormInstance();
  const plan = Form.useWatch<PlanLine[] | undefined>('instalments', form);
  const sum = (plan ?? []).reduce((s, p) => s + fenOf(p?.amount), 0n);
  const diff = fenOf(total) - sum;
  return (
    <Form.List name="instalments">
      {(fields, { add, remove }) => (
        <Space orientation="vertical" style={{ width: '100%' }} data-testid={testId}>
          {fields.map((f, i) => {
            const locked = !!plan?.[f.name]?.locked;
            return (
              <Space key={f.key} wrap align="start" data-testid={`${testId}-row-${i}`}>
                <Typography.Text type="secondary" style={{ display: 'inline-block', width: 44 }}>
                  第{i + 1}期
                </Typography.Text>
                <Form.Item name={[f.name, 'name']} rules={[{ required: true, message: '请选择款项' }]} noStyle>
                  <Select
                    style={{ width: 96 }}
                    options={enumOptions(INSTALMENT_NAME)}
                    disabled={locked}
                    data-testid={`${testId}-name-${i}`}
                  />
                </Form.Item>
                <Form.Item name={[f.name, 'amount']} rules={[{ required: true, message: '请输入金额' }]} noStyle>
                  <MoneyInput placeholder="金额（元）" style={{ width: 140 }} disabled={locked} data-testid={`${testId}-amount-${i}`} />
                </Form.Item>
                <Form.Item name={[f.name, 'due_date']} rules={[{ required: true, message: '请选择计划日期' }]} noStyle>
                  <DatePicker
                    placeholder="计划日期"
                    inputReadOnly
                    disabled={locked}
                    style={{ width: 140 }}
                    data-testid={`${testId}-date-${i}`}
                  />
                </Form.Item>
                {locked ? (
                  <Tag>已出账</Tag>
                ) : (
                  <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="删除此期" />
                )}
              </Space>
            );
          })}
          <Space wrap>
            <Button
              icon={<PlusOutlined />}
              onClick={() =>
                add({ name: fields.length === 0 ? '定金' : '其他', amount: diff > 0n ? fenToYuan(diff) : '', due_date: dayjs() })
              }
              data-testid={`${testId}-add`}
            >
              添加一期
            </Button>
            <Typography.Text data-testid={`${testId}-sum`}>
              已排 <Money value={fenToYuan(sum)} unit="元" /> / 合同总额 <Money value={fenToYuan(fenOf(total))} unit="元" />
            </Typography.Text>
          </Space>
          {fields.length > 0 && diff !== 0n && (
            <Alert
              type="warning"
              showIcon
              title={
                diff > 0n
                  ? `还差 ${formatMoney(fenToYuan(diff), { unit: '元' })} 未排入收款计划`
                  : `收款计划超出合同总额 ${formatMoney(fenToYuan(-diff), { unit: '元' })}`
              }
              data-testid={`${testId}-diff`}
            />
          )}
        </Space>
      )}
    </Form.List>
  );
}

export interface UnitLine {
  unit_kind: 'room' | 'space';
  unit_id: number;
  title: string;
  area: string;
  price: string;
}

/**
 * Picks a room or a parking space by a part of its name (rentroomlist), showing its state and list
 * price; a unit another contract holds cannot be picked (but the contract's own).
 */
export function UnitPicker({
  onPick,
  own,
  kind,
  testId = 'unit-picker',
}: {
  onPick: (u: UnitStateRow) => void;
  own?: number;
  kind?: 'room' | 'space';
  testId?: string;
}) {
  const [options, setOptions] = useState<UnitStateRow[]>([]);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const search = (keyword: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      setLoading(true);
      try {
        const page = await call('rentroomlist', { keyword: keyword.trim() || undefined, unit_kind: kind ?? '', limit: 20, page: 1 });
        setOptions(page.items);
      } catch {
        /* shown by the client */
      } finally {
        setLoading(false);
      }
    }, 250);
  };
  useEffect(() => {
    search('');
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the first page once, then as the user types
  }, [kind]);
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: search }}
      value={null}
      loading={loading}
      placeholder="输入楼栋、房号或车位号搜索房源"
      style={{ width: '100%', maxWidth: 420 }}
      onChange={(key: string) => {
        const u = options.find((o) => o.key === key);
        if (u) onPick(u);
      }}
      options={options.map((u) => ({
        value: u.key,
        disabled: u.state !== 'available' && u.contract_id !== own,
        label: (
          <Space size={4}>
            <span>{u.title}</span>
            <EnumTag enum={UNIT_STATE} value={u.state} />
            {u.list_price && <Typography.Text type="secondary">挂牌 {formatMoney(u.list_price, { unit: '元' })}</Typography.Text>}
          </Space>
        ),
      }))}
      data-testid={testId}
    />
  );
}

/** The type's custom fields as form items under `custom`. */
export function CustomFields({ fields }: { fields: CustomFieldDef[] }) {
  if (fields.length === 0) return null;
  return (
    <Row gutter={16}>
      {fields.map((f) => (
        <Col key={f.key} xs={24} md={8}>
          <Form.Item
            name={['custom', f.key]}
            label={f.label}
            rules={f.required ? [{ required: true, message: `${f.label}不能为空` }] : []}
            getValueProps={f.type === 'date' ? (v: string | undefined) => ({ value: v ? dayjs(v) : null }) : undefined}
            normalize={f.type === 'date' ? (v: dayjs.Dayjs | null) => (v ? v.format(DAY) : '') : undefined}
          >
            {f.type === 'select' ? (
              <Select allowClear options={f.options.map((o) => ({ value: o, label: o }))} data-testid={`custom-${f.key}`} />
            ) : f.type === 'number' ? (
              <InputNumber style={{ width: '100%' }} data-testid={`custom-${f.key}`} />
            ) : f.type === 'date' ? (
              <DatePicker inputReadOnly style={{ width: '100%' }} data-testid={`custom-${f.key}`} />
            ) : (
              <Input maxLength={200} data-testid={`custom-${f.key}`} />
            )}
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}

/** A plan's instalments as lines: 款项, 金额, 日期, state, receipt, overdue days (the detail and the progress page). */
export function PlanLines({ rows, actions }: { rows: InstalmentRow[]; actions?: (i: InstalmentRow) => React.ReactNode }) {
  const total = useMemo(() => rows.reduce((s, i) => s + fenOf(i.amount), 0n), [rows]);
  if (rows.length === 0) return <Typography.Text type="secondary">无收款计划</Typography.Text>;
  return (
    <div className="contract-plan" data-testid="plan-lines">
      {rows.map((i) => (
        <div key={i.id} className="contract-plan-line" data-testid={`instalment-${i.seq}`}>
          <span className="contract-plan-name">
            第{i.seq}期 {i.name}
          </span>
          <Money value={i.amount} unit="元" />
          <span>{i.due_date}</span>
          <EnumTag enum={INSTALMENT_STATE} value={i.state} />
          {i.overdue_days > 0 && <Typography.Text type="danger">逾期 {i.overdue_days} 天</Typography.Text>}
          {i.receipt_no && <Typography.Text type="secondary">收据 {i.receipt_no}</Typography.Text>}
          {i.refund_status_ch && <Tag color={i.refund_status === 'E' ? 'warning' : 'default'}>退款{i.refund_status_ch}</Tag>}
          {i.bill_note && <Typography.Text type="secondary">{i.bill_note}</Typography.Text>}
          {actions?.(i)}
        </div>
      ))}
      <Typography.Text type="secondary">
        共 {rows.length} 期，合计 <Money value={fenToYuan(total)} unit="元" />
      </Typography.Text>
    </div>
  );
}
