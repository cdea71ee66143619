import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, DatePicker, Divider, Form, Input, InputNumber, Radio, Row, Select, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { addDays, addMonths } from '@wuye/contract/dates';
import { enumOptions } from '@wuye/contract/kit/resource';
import { fenToYuan, mulDivRoundHalfUp, toFen } from '@wuye/contract/money';
import {
  LEASE_CYCLE,
  LEASE_ESCALATION,
  LEASE_RENT_MODE,
  LEASE_TENANT_KIND,
  leaseSchedule,
  leaseTermsProblem,
  monthlyRentOf,
  type LeaseDetail,
  type LeaseSmallRoom,
  type LeaseTerms,
} from '@wuye/contract/crm/leases';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import MoneyInput from '../../../components/MoneyInput';
import { validValues } from '../../../utils/forms';
import { LIST, ScheduleTable, ScheduleTotals } from './parts';

interface FormValues {
  tenant_kind: 'P' | 'C';
  member_id?: number | null;
  tenant_name: string;
  contact: string;
  mobile: string;
  id_card: string;
  hids: number[];
  start: Dayjs | null;
  end: Dayjs | null;
  rent_mode: 'M' | 'A';
  rent_price: string;
  deposit: string;
  cycle_months: number;
  bill_ahead_days: number;
  free_periods: Array<{ start?: Dayjs | null; end?: Dayjs | null }>;
  escalation_kind: 'none' | 'amount' | 'percent';
  escalation_value: string;
  escalation_years: number;
  charges: Array<{ name?: string; monthly?: string }>;
  remark: string;
}

const DAY = 'YYYY-MM-DD';
const day = (d: Dayjs | null | undefined) => (d ? d.format(DAY) : '');
const amount = (v: string | undefined) => (v && /^\d+(\.\d{1,2})?$/.test(v) ? v : '0');

/** The schedule's terms of what the form holds now (empty fields read as nothing). */
function termsOf(v: Partial<FormValues>, area: string): LeaseTerms {
  return {
    start: day(v.start),
    end: day(v.end),
    cycle_months: v.cycle_months ?? 1,
    monthly_rent: monthlyRentOf(v.rent_mode ?? 'M', amount(v.rent_price), area),
    bill_ahead_days: v.bill_ahead_days ?? 0,
    free_periods: (v.free_periods ?? []).map((f) => ({ start: day(f?.start), end: day(f?.end) })),
    escalation: { kind: v.escalation_kind ?? 'none', value: amount(v.escalation_value), every_years: v.escalation_years ?? 1 },
    charges: (v.charges ?? []).map((c) => ({ name: (c?.name ?? '').trim(), monthly: amount(c?.monthly) })),
  };
}

/** The rooms the picker knows (what searches answered), by id: their address, area and the lease holding them. */
function useRooms(keyword: string, chosen: number[]) {
  const [known, setKnown] = useState<Map<number, LeaseSmallRoom>>(new Map());
  const found = useQuery({
    queryKey: ['lease_room_small_list', keyword],
    queryFn: () => call('lease_room_small_list', { keyword, hids: [] }),
  });
  const missing = chosen.filter((h) => !known.has(h));
  const picked = useQuery({
    queryKey: ['lease_room_small_list', 'hids', missing],
    queryFn: () => call('lease_room_small_list', { keyword: '', hids: missing }),
    enabled: missing.length > 0,
  });
  useEffect(() => {
    const items = [...(found.data?.items ?? []), ...(picked.data?.items ?? [])];
    if (items.some((r) => !known.has(r.id)))
      setKnown((m) => {
        const next = new Map(m);
        for (const r of items) next.set(r.id, r);
        return next;
      });
  }, [found.data, picked.data, known]);
  return { known, options: found.data?.items ?? [], loading: found.isFetching };
}

/**
 * /crm/leaseadd, /crm/leaseedit?id= and /crm/rerent?id= (docs/product.md#crm-leases): the tenant
 * (or a resident picked from the owners area), the rooms, the term, the rent and its rises, the
 * rent-free days, the other charges and the deposit, with the rent schedule drawn live as the form
 * is filled (the same pure function the server bills by). A renewal keeps the old lease's tenant,
 * rooms and deposit and starts the day after it ends.
 */
export default function LeaseForm({ mode }: { mode: 'add' | 'edit' | 'rerent' }) {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState<'' | 'save' | 'submit'>('');
  const [source, setSource] = useState<LeaseDetail | null>(null);
  const [roomKeyword, setRoomKeyword] = useState('');
  const [memberKeyword, setMemberKeyword] = useState('');
  const settings = useQuery({ queryKey: ['leasesettings'], queryFn: () => call('leasesettings', {}) });
  const values = (Form.useWatch([], form) ?? {}) as Partial<FormValues>;
  const hids = values.hids ?? [];
  const rooms = useRooms(roomKeyword, hids);
  const members = useQuery({
    queryKey: ['lease_member_small_list', memberKeyword],
    queryFn: () => call('lease_member_small_list', { keyword: memberKeyword }),
    enabled: memberKeyword.length > 0,
  });
  const locked = mode === 'rerent' || (mode === 'edit' && !!source?.renew_of);

  useEffect(() => {
    if (mode === 'add' || !id) return;
    call('leaseinfo', { id })
      .then((l) => {
        setSource(l);
        const start = mode === 'rerent' ? addDays(l.end_date, 1) : l.start_date;
        // a renewal runs as long as the old lease did, by default
        const months = Math.max(1, Math.round(dayjs(l.end_date).add(1, 'day').diff(dayjs(l.start_date), 'month', true)));
        const end = mode === 'rerent' ? addDays(addMonths(start, months), -1) : l.end_date;
        form.setFieldsValue({
          tenant_kind: l.tenant_kind,
          member_id: l.member_id,
          tenant_name: l.tenant_name,
          contact: l.contact,
          mobile: l.mobile,
          id_card: l.id_card,
          hids: l.rooms.map((r) => r.hid),
          start: dayjs(start),
          end: dayjs(end),
          rent_mode: l.rent_mode,
          rent_price: l.rent_price,
          deposit: l.deposit,
          cycle_months: l.cycle_months,
          bill_ahead_days: l.bill_ahead_days,
          free_periods: mode === 'rerent' ? [] : l.free_periods.map((f) => ({ start: dayjs(f.start), end: dayjs(f.end) })),
          escalation_kind: l.escalation_kind,
          escalation_value: l.escalation_value,
          escalation_years: l.escalation_years,
          charges: l.charges,
          remark: mode === 'rerent' ? `续租自 ${l.lease_no}` : l.remark,
        });
      })
      .catch(() => void navigate(LIST, { replace: true }));
  }, [id, mode, form, navigate]);

  // a new lease starts with the community's defaults
  useEffect(() => {
    if (mode !== 'add' || !settings.data) return;
    form.setFieldsValue({ cycle_months: settings.data.cycle_months, bill_ahead_days: settings.data.bill_ahead_days });
  }, [mode, settings.data, form]);

  const area = fenToYuan(hids.reduce((s, h) => s + toFen(rooms.known.get(h)?.area ?? '0'), 0n));
  const terms = termsOf(values, area);
  const problem = values.start && values.end && values.rent_price ? leaseTermsProblem(terms) : '请填写租期和租金，租金计划随填写实时计算';
  const schedule = useMemo(() => (problem ? null : leaseSchedule(terms)), [problem, JSON.stringify(terms)]); // eslint-disable-line react-hooks/exhaustive-deps
  const depositMonths = settings.data?.deposit_months ?? 2;

  const payload = (v: FormValues) => ({
    tenant_kind: v.tenant_kind,
    tenant_name: v.tenant_name,
    contact: v.contact ?? '',
    mobile: v.mobile,
    id_card: v.id_card ?? '',
    member_id: v.member_id ?? '',
    hids: v.hids,
    start_date: day(v.start),
    end_date: day(v.end),
    rent_mode: v.rent_mode,
    rent_price: v.rent_price,
    deposit: v.deposit || '0',
    cycle_months: v.cycle_months,
    bill_ahead_days: v.bill_ahead_days ?? 0,
    free_periods: (v.free_periods ?? []).map((f) => ({ start: day(f.start), end: day(f.end) })),
    escalation_kind: v.escalation_kind,
    escalation_value: v.escalation_kind === 'none' ? '0' : v.escalation_value || '0',
    escalation_years: v.escalation_years ?? 1,
    charges: (v.charges ?? []).map((c) => ({ name: c.name ?? '', monthly: c.monthly || '0' })),
    remark: v.remark ?? '',
  });

  const save = async (submit: boolean) => {
    const v = await validValues(form);
    if (!v) return;
    setSaving(submit ? 'submit' : 'save');
    try {
      const body = payload(v) as never;
      const answer =
        mode === 'add'
          ? await request('leaseadd', body)
          : mode === 'edit'
            ? await request('leaseedit', { id, ...(body as object) } as never)
            : await request('rerent', { id, ...(body as object) } as never);
      const saved = (answer.data as { id: number }).id;
      if (submit) {
        const sent = await request('leasesubmit', { id: saved });
        noticeSuccess(`${answer.return_msg}；${sent.return_msg}`);
      } else noticeSuccess(answer.return_msg);
      await queryClient.invalidateQueries({ queryKey: ['list', 'leaselist'] });
      void navigate(`${LIST}?id=${saved}`);
    } catch {
      /* the client showed why */
    } finally {
      setSaving('');
    }
  };

  const setYears = (years: number) => {
    const start = form.getFieldValue('start') as Dayjs | null;
    if (start) form.setFieldValue('end', dayjs(addDays(addMonths(day(start), 12 * years), -1)));
  };
  const monthly = terms.monthly_rent;

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      data-testid="lease-form"
      initialValues={{
        tenant_kind: 'P',
        rent_mode: 'M',
        cycle_months: 1,
        bill_ahead_days: 15,
        escalation_kind: 'none',
        escalation_years: 1,
        free_periods: [],
        charges: [],
        deposit: '0',
        hids: [],
      }}
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        {mode !== 'add' && source && (
          <Alert
            type={mode === 'rerent' ? 'info' : 'warning'}
            showIcon
            title={
              mode === 'rerent'
                ? `续租 ${source.lease_no}：租户、房屋和押金沿用原租约，新租约从 ${addDays(source.end_date, 1)} 开始，审批通过后原租约为已续租`
                : `修改 ${source.lease_no}（${source.approval_status_ch}）${source.approve_remark ? `，审批意见：${source.approve_remark}` : ''}`
            }
            data-testid="lease-form-source"
          />
        )}
        <Card size="small" title="租户">
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="tenant_kind" label="租户类型" rules={[{ required: true }]}>
                <Radio.Group options={enumOptions(LEASE_TENANT_KIND)} disabled={locked} data-testid="lease-tenant_kind" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="member_id"
                label="选择已登记住户"
                extra="可选：从业主资料中选择，租约生效后其登记为房屋的租户；不选则按手机号查找或新建"
              >
                <Select
                  allowClear
                  showSearch
                  disabled={locked}
                  filterOption={false}
                  placeholder="输入姓名或手机号查找"
                  onSearch={(k) => setMemberKeyword(k.trim())}
                  notFoundContent={memberKeyword ? '没有找到' : '输入姓名或手机号'}
                  options={(members.data?.items ?? []).map((m) => ({ value: m.id, label: m.title }))}
                  onChange={(v: number | undefined) => {
                    const m = members.data?.items.find((x) => x.id === v);
                    if (m) form.setFieldsValue({ tenant_name: m.realname, mobile: m.mobile, id_card: m.id_card });
                  }}
                  data-testid="lease-member"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="tenant_name"
                label={values.tenant_kind === 'C' ? '企业名称' : '租户姓名'}
                rules={[{ required: true, whitespace: true, message: '请输入租户名称' }]}
              >
                <Input maxLength={60} disabled={locked} data-testid="lease-tenant_name" />
              </Form.Item>
            </Col>
            {values.tenant_kind === 'C' && (
              <Col xs={24} md={12}>
                <Form.Item name="contact" label="联系人">
                  <Input maxLength={30} disabled={locked} data-testid="lease-contact" />
                </Form.Item>
              </Col>
            )}
            <Col xs={24} md={12}>
              <Form.Item name="mobile" label="手机号" rules={[{ required: true, message: '请输入手机号' }]}>
                <Input maxLength={11} inputMode="numeric" disabled={locked} data-testid="lease-mobile" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="id_card" label={values.tenant_kind === 'C' ? '统一社会信用代码' : '身份证号'}>
                <Input maxLength={18} disabled={locked} data-testid="lease-id_card" />
              </Form.Item>
            </Col>
          </Row>
        </Card>

        <Card size="small" title="房屋与租期">
          <Form.Item
            name="hids"
            label="房屋"
            rules={[{ required: true, type: 'array', min: 1, message: '请至少选择一个房屋' }]}
            extra="账单出在第一个房屋上；同一房屋的租期不能重叠"
          >
            <Select
              mode="multiple"
              showSearch
              disabled={locked}
              filterOption={false}
              loading={rooms.loading}
              placeholder="输入地址查找，默认列出商铺"
              onSearch={(k) => setRoomKeyword(k.trim())}
              options={[
                ...new Map([...rooms.options, ...hids.map((h) => rooms.known.get(h)).filter((r) => !!r)].map((r) => [r!.id, r!])).values(),
              ].map((r) => ({
                value: r.id,
                label: `${r.title}（${r.area}㎡）`,
                disabled: !!r.lease_no && !hids.includes(r.id) && r.lease_no !== source?.lease_no,
                title: r.title,
              }))}
              optionRender={(o) => {
                const r = rooms.known.get(Number(o.value));
                return (
                  <Space size={4} wrap>
                    <span>{r?.title}</span>
                    <Typography.Text type="secondary">{r?.area}㎡</Typography.Text>
                    {r?.lease_no && <Tag color="orange">租约 {r.lease_no}</Tag>}
                  </Space>
                );
              }}
              data-testid="lease-hids"
            />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} sm={12} md={8}>
              <Form.Item name="start" label="开始日期" rules={[{ required: true, message: '请选择开始日期' }]}>
                <DatePicker style={{ width: '100%' }} disabled={mode === 'rerent' || locked} data-testid="lease-start" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8}>
              <Form.Item name="end" label="结束日期" rules={[{ required: true, message: '请选择结束日期' }]}>
                <DatePicker style={{ width: '100%' }} data-testid="lease-end" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label="按年设置租期">
                <Space wrap>
                  {[1, 2, 3, 5].map((y) => (
                    <Button key={y} size="small" onClick={() => setYears(y)} data-testid={`lease-years-${y}`}>
                      {y} 年
                    </Button>
                  ))}
                </Space>
              </Form.Item>
            </Col>
          </Row>
        </Card>

        <Card size="small" title="租金与押金">
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="rent_mode" label="计租方式">
                <Radio.Group options={enumOptions(LEASE_RENT_MODE)} data-testid="lease-rent_mode" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="rent_price"
                label={values.rent_mode === 'A' ? '单价（元/㎡·月）' : '月租金（元）'}
                rules={[{ required: true, message: '请输入租金' }]}
                extra={values.rent_mode === 'A' ? `房屋面积合计 ${area}㎡，月租金 ${monthly} 元` : undefined}
              >
                <MoneyInput data-testid="lease-rent_price" />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="cycle_months" label="付款周期">
                <Select
                  options={enumOptions(LEASE_CYCLE).map((o) => ({ value: Number(o.value), label: o.label }))}
                  data-testid="lease-cycle"
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="bill_ahead_days" label="提前出账（天）">
                <InputNumber min={0} max={90} precision={0} style={{ width: '100%' }} data-testid="lease-ahead" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="deposit" label="押金（元）" extra={locked ? '续租沿用原租约押金' : `默认 ${depositMonths} 个月租金`}>
                <MoneyInput
                  disabled={locked}
                  data-testid="lease-deposit"
                  addonAfter={
                    <Typography.Link
                      disabled={locked}
                      onClick={() => form.setFieldValue('deposit', fenToYuan(mulDivRoundHalfUp(toFen(monthly), BigInt(depositMonths), 1n)))}
                      data-testid="lease-deposit-months"
                    >
                      按 {depositMonths} 个月
                    </Typography.Link>
                  }
                />
              </Form.Item>
            </Col>
          </Row>
          <Divider titlePlacement="start" plain>
            递增
          </Divider>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="escalation_kind" label="递增方式">
                <Select options={enumOptions(LEASE_ESCALATION)} data-testid="lease-esc-kind" />
              </Form.Item>
            </Col>
            {values.escalation_kind && values.escalation_kind !== 'none' && (
              <>
                <Col xs={12} md={8}>
                  <Form.Item name="escalation_years" label="每隔（年）">
                    <InputNumber min={1} max={10} precision={0} style={{ width: '100%' }} data-testid="lease-esc-years" />
                  </Form.Item>
                </Col>
                <Col xs={12} md={8}>
                  <Form.Item
                    name="escalation_value"
                    label={values.escalation_kind === 'percent' ? '每次上涨（%）' : '每次增加（元/月）'}
                    rules={[{ required: true, message: '请输入递增幅度' }]}
                  >
                    <MoneyInput data-testid="lease-esc-value" />
                  </Form.Item>
                </Col>
              </>
            )}
          </Row>
        </Card>

        <Card size="small" title="免租期与其他费用">
          <Typography.Text type="secondary">免租期内不计租金，其他费用照常计收</Typography.Text>
          <Form.List name="free_periods">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f, i) => (
                  <Space key={f.key} wrap align="start" style={{ display: 'flex', marginTop: 8 }}>
                    <Form.Item name={[f.name, 'start']} rules={[{ required: true, message: '请选择开始日期' }]} noStyle>
                      <DatePicker placeholder="免租开始" data-testid={`lease-free-start-${i}`} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'end']} rules={[{ required: true, message: '请选择结束日期' }]} noStyle>
                      <DatePicker placeholder="免租结束" data-testid={`lease-free-end-${i}`} />
                    </Form.Item>
                    <Button icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="删除免租期" />
                  </Space>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} style={{ marginTop: 8 }} data-testid="lease-free-add">
                  添加免租期
                </Button>
              </>
            )}
          </Form.List>
          <Divider />
          <Form.List name="charges">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f, i) => (
                  <Space key={f.key} wrap align="start" style={{ display: 'flex', marginBottom: 8 }}>
                    <Form.Item name={[f.name, 'name']} rules={[{ required: true, whitespace: true, message: '请填写费用名称' }]} noStyle>
                      <Input
                        placeholder="费用名称，如物业费"
                        maxLength={20}
                        style={{ width: 180 }}
                        data-testid={`lease-charge-name-${i}`}
                      />
                    </Form.Item>
                    <Form.Item name={[f.name, 'monthly']} rules={[{ required: true, message: '请输入月金额' }]} noStyle>
                      <MoneyInput placeholder="元/月" style={{ width: 140 }} data-testid={`lease-charge-monthly-${i}`} />
                    </Form.Item>
                    <Button icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="删除费用" />
                  </Space>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} data-testid="lease-charge-add">
                  添加其他费用（物业费、停车费…）
                </Button>
              </>
            )}
          </Form.List>
          <Form.Item name="remark" label="备注" style={{ marginTop: 16 }}>
            <Input.TextArea rows={2} maxLength={500} showCount data-testid="lease-remark" />
          </Form.Item>
        </Card>

        <Card size="small" title="租金计划预览" data-testid="lease-preview">
          {problem || !schedule ? (
            <Alert type="warning" showIcon title={problem} data-testid="lease-preview-problem" />
          ) : (
            <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
              <ScheduleTotals schedule={schedule} monthly={monthly} />
              <ScheduleTable schedule={schedule} testId="lease-preview-table" />
            </Space>
          )}
        </Card>

        <Space wrap>
          <Button
            type="primary"
            loading={saving === 'submit'}
            disabled={!!saving}
            onClick={() => void save(true)}
            data-testid="lease-save-submit"
          >
            保存并提交审批
          </Button>
          <Button loading={saving === 'save'} disabled={!!saving} onClick={() => void save(false)} data-testid="lease-save">
            保存草稿
          </Button>
          <Button onClick={() => void navigate(LIST)}>取消</Button>
        </Space>
      </Space>
    </Form>
  );
}
