import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, DatePicker, Form, Input, Row, Select, Space, Spin, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { enumText } from '@wuye/contract/kit/resource';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { CONTRACT_KIND, type ContractKind, type CustomFieldDef, type UnitStateRow } from '@wuye/contract/crm/contracts';
import { fenToYuan } from '@wuye/contract/money';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import MoneyInput from '../../../components/MoneyInput';
import { Money } from '../../../components/Money';
import SafeButton from '../../../components/SafeButton';
import { SmallSelect } from '../../../components/resource';
import { CustomFields, DAY, fenOf, PlanEditor, planFromRows, planToWire, UnitPicker, type PlanLine, type UnitLine } from './parts';

interface TypeOption {
  id: number;
  title: string;
  name: string;
  kind: ContractKind;
  need_audit: 'Y' | 'N';
  fields: CustomFieldDef[];
}

interface Values {
  type_id?: number;
  contract_no: string;
  name: string;
  party_name: string;
  party_mobile: string;
  party_id_card: string;
  units: UnitLine[];
  total_amount: string;
  instalments: PlanLine[];
  sign_date: dayjs.Dayjs | null;
  start_date: dayjs.Dayjs | null;
  end_date: dayjs.Dayjs | null;
  custom: Record<string, string | number>;
  remark: string;
  member_id?: number;
  customer_id?: number;
}

const dayOf = (d: dayjs.Dayjs | null | undefined) => (d ? d.format(DAY) : '');

/**
 * 新增合同 / 编辑合同 (/crm/addroomsales, /crm/editroomsales?id=; docs/product.md#crm-contracts): the
 * type (its custom fields follow it), the number (empty: the type's rule), party B, the units with
 * their areas and prices, the total and the payment plan (its sum shown against the total), the
 * dates; saved as a draft, or saved and submitted for approval.
 */
export default function ContractForm() {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const other = params.get('section') === 'other';
  const [types, setTypes] = useState<TypeOption[]>([]);
  const [loading, setLoading] = useState(!!id);
  const [saving, setSaving] = useState(false);
  const typeId = Form.useWatch('type_id', form);
  const total = Form.useWatch('total_amount', form);
  const units = Form.useWatch('units', form);
  const type = types.find((t) => t.id === typeId);
  const unitSum = useMemo(() => (units ?? []).reduce((s, u) => s + fenOf(u?.price), 0n), [units]);

  useEffect(() => {
    call('contracttype_small_list', {})
      .then((r) => setTypes(r.items as unknown as TypeOption[]))
      .catch(() => undefined);
  }, []);

  useEffect(() => {
    if (!id) {
      const unit = (location.state as { unit?: UnitStateRow } | null)?.unit;
      form.setFieldsValue({
        sign_date: dayjs(),
        start_date: dayjs(),
        units: unit
          ? [{ unit_kind: unit.unit_kind, unit_id: unit.unit_id, title: unit.title, area: unit.area, price: unit.list_price || '' }]
          : [],
        total_amount: unit?.list_price ?? '',
        instalments: [],
        custom: {},
      });
      return;
    }
    call('roomsalesinfo', { id })
      .then((c) => {
        if (c.status !== 'D') {
          void navigate(`/crm/roomshow?id=${id}`, { replace: true });
          return;
        }
        form.setFieldsValue({
          type_id: c.type_id,
          contract_no: c.contract_no,
          name: c.name,
          party_name: c.party_name,
          party_mobile: c.party_mobile,
          party_id_card: c.party_id_card,
          member_id: c.member_id ?? undefined,
          customer_id: c.customer_id ?? undefined,
          units: c.units.map((u) => ({ unit_kind: u.unit_kind, unit_id: u.unit_id, title: u.title, area: u.area, price: u.price })),
          total_amount: c.total_amount,
          instalments: planFromRows(c.instalments),
          sign_date: dayjs(c.sign_date),
          start_date: dayjs(c.start_date),
          end_date: c.end_date ? dayjs(c.end_date) : null,
          custom: c.custom,
          remark: c.remark,
        });
      })
      .catch(() => void navigate('/crm/roomsaleslist', { replace: true }))
      .finally(() => setLoading(false));
  }, [id, form, navigate, location.state]);

  const typeOptions = types
    .filter((t) => (other ? t.kind === 'other' : t.kind !== 'other') || t.id === typeId)
    .map((t) => ({ value: t.id, label: t.title }));

  const save = async (submit: boolean) => {
    if (
      !(await form
        .validateFields()
        .then(() => true)
        .catch(() => false))
    )
      return;
    // the whole of the form: the units' and plan lines' kept keys (unit_kind, unit_id, id) have no inputs
    const v = form.getFieldsValue(true) as Values;
    setSaving(true);
    try {
      const body = {
        type_id: v.type_id!,
        contract_no: v.contract_no ?? '',
        name: v.name,
        party_name: v.party_name,
        party_mobile: v.party_mobile,
        party_id_card: v.party_id_card ?? '',
        member_id: v.member_id ?? '',
        customer_id: v.customer_id ?? '',
        units: (v.units ?? []).map((u) => ({ unit_kind: u.unit_kind, unit_id: u.unit_id, area: u.area || '0', price: u.price })),
        total_amount: v.total_amount,
        instalments: planToWire(v.instalments).map(({ id: _id, ...rest }) => rest),
        sign_date: dayOf(v.sign_date),
        start_date: dayOf(v.start_date),
        end_date: dayOf(v.end_date),
        custom: Object.fromEntries(Object.entries(v.custom ?? {}).filter(([, x]) => x !== undefined && x !== null && x !== '')),
        remark: v.remark ?? '',
      };
      const answer = id ? await request('editroomsales', { id, ...body } as never) : await request('addroomsales', body as never);
      const saved = id || (answer.data as { id: number }).id;
      if (submit) {
        const sent = await request('contractsubmit', { id: saved });
        noticeSuccess(`${answer.return_msg}；${sent.return_msg}`);
      } else noticeSuccess(answer.return_msg);
      void navigate(`/crm/roomshow?id=${saved}`);
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };

  const addUnit = (u: UnitStateRow) => {
    const list = form.getFieldValue('units') ?? [];
    if (list.some((x: UnitLine) => x.unit_kind === u.unit_kind && x.unit_id === u.unit_id)) return;
    const next = [...list, { unit_kind: u.unit_kind, unit_id: u.unit_id, title: u.title, area: u.area, price: u.list_price || '' }];
    form.setFieldValue('units', next);
    if (!form.getFieldValue('total_amount') && u.list_price) form.setFieldValue('total_amount', u.list_price);
  };

  return (
    <Spin spinning={loading}>
      <Form<Values>
        form={form}
        layout="vertical"
        data-testid="contract-form"
        initialValues={{ contract_no: '', custom: {}, units: [], instalments: [] }}
      >
        <Card title="合同信息" size="small" style={{ marginBottom: 12 }}>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="type_id" label="合同类型" rules={[{ required: true, message: '合同类型不能为空' }]}>
                <Select options={typeOptions} placeholder="请选择合同类型" data-testid="contract-type" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="contract_no" label="合同编号" extra="留空按合同类型的编号规则生成；审批前可修改">
                <Input maxLength={40} placeholder="自动生成" data-testid="contract-no" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="name" label="合同名称" rules={[{ required: true, message: '合同名称不能为空' }]}>
                <Input maxLength={64} data-testid="contract-name" />
              </Form.Item>
            </Col>
          </Row>
          {type && (
            <Typography.Text type="secondary">
              类别：{enumText(CONTRACT_KIND, type.kind)}；
              {type.need_audit === 'Y' ? '提交后须审批通过才生效' : '该类型无需审批，提交后直接生效'}
            </Typography.Text>
          )}
        </Card>
        <Card title="乙方" size="small" style={{ marginBottom: 12 }}>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="party_name" label="乙方" rules={[{ required: true, message: '乙方不能为空' }]}>
                <Input maxLength={64} placeholder="客户或业主姓名、单位名称" data-testid="contract-party" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="party_mobile"
                label="联系电话"
                rules={[
                  { required: true, message: '联系电话不能为空' },
                  { pattern: /^1[3-9]\d{9}$/, message: '联系电话格式不正确，应为11位手机号' },
                ]}
              >
                <Input maxLength={11} inputMode="numeric" data-testid="contract-mobile" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="party_id_card" label="证件号码">
                <Input maxLength={30} placeholder="身份证号或统一社会信用代码" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="customer_id" label="意向客户" extra="不选时合同生效后按乙方手机号关联销售客户">
                <SmallSelect widget={{ small: 'crmcustomer_small_list' }} values={{}} allowClear testId="contract-customer" />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <Card title="房源" size="small" style={{ marginBottom: 12 }}>
          <Form.List name="units">
            {(fields, { remove }) => (
              <Space orientation="vertical" style={{ width: '100%' }}>
                {fields.map((f, i) => (
                  <Space key={f.key} wrap align="center" data-testid={`unit-row-${i}`}>
                    <Typography.Text strong style={{ minWidth: 160, display: 'inline-block' }}>
                      {form.getFieldValue(['units', f.name, 'title'])}
                    </Typography.Text>
                    <Form.Item name={[f.name, 'area']} noStyle>
                      <MoneyInput suffix="㎡" placeholder="面积" style={{ width: 140 }} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'price']} rules={[{ required: true, message: '请输入价格' }]} noStyle>
                      <MoneyInput suffix="元" placeholder="成交价" style={{ width: 170 }} data-testid={`unit-price-${i}`} />
                    </Form.Item>
                    <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="移除房源" />
                  </Space>
                ))}
                <UnitPicker onPick={addUnit} own={id || undefined} kind={type?.kind === 'parking' ? 'space' : undefined} />
                {type?.kind === 'other' && (
                  <Typography.Text type="secondary">其他合同可不关联房源；不关联房源时收款计划只跟踪，不生成账单。</Typography.Text>
                )}
              </Space>
            )}
          </Form.List>
        </Card>
        <Card title="金额与日期" size="small" style={{ marginBottom: 12 }}>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item
                name="total_amount"
                label="合同总额（元）"
                rules={[{ required: true, message: '合同总额不能为空' }]}
                extra={
                  unitSum > 0n && (
                    <Space size={4}>
                      房源价格合计 <Money value={fenToYuan(unitSum)} unit="元" />
                      <Button
                        size="small"
                        type="link"
                        onClick={() => form.setFieldValue('total_amount', fenToYuan(unitSum))}
                        data-testid="contract-total-from-units"
                      >
                        填入
                      </Button>
                    </Space>
                  )
                }
              >
                <MoneyInput data-testid="contract-total" />
              </Form.Item>
            </Col>
            <Col xs={12} md={5}>
              <Form.Item name="sign_date" label="签订日期" rules={[{ required: true, message: '签订日期不能为空' }]}>
                <DatePicker inputReadOnly style={{ width: '100%' }} data-testid="contract-sign-date" />
              </Form.Item>
            </Col>
            <Col xs={12} md={5}>
              <Form.Item name="start_date" label="生效日期" rules={[{ required: true, message: '生效日期不能为空' }]}>
                <DatePicker inputReadOnly style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item
                name="end_date"
                label="结束日期"
                dependencies={['start_date']}
                rules={[
                  ({ getFieldValue }) => ({
                    validator: (_, v: dayjs.Dayjs | null) =>
                      !v || !getFieldValue('start_date') || !v.isBefore(getFieldValue('start_date'), 'day')
                        ? Promise.resolve()
                        : Promise.reject(new Error('结束日期不能早于生效日期')),
                  }),
                ]}
                extra="买卖合同可留空"
              >
                <DatePicker inputReadOnly style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label="收款计划" required={type?.kind !== 'other'}>
            <PlanEditor total={total} />
          </Form.Item>
        </Card>
        {type && type.fields.length > 0 && (
          <Card title="类型字段" size="small" style={{ marginBottom: 12 }}>
            <CustomFields fields={type.fields} />
          </Card>
        )}
        <Card size="small" style={{ marginBottom: 12 }}>
          <Form.Item name="remark" label="备注">
            <Input.TextArea rows={2} maxLength={500} showCount />
          </Form.Item>
          {!types.length && (
            <Alert type="warning" showIcon title="还没有启用的合同类型，请先在 客户合同设置 中新增合同类型" style={{ marginBottom: 12 }} />
          )}
          <Space wrap>
            <SafeButton loading={saving} onClick={() => void save(false)} data-testid="contract-save">
              保存草稿
            </SafeButton>
            <SafeButton type="primary" loading={saving} onClick={() => void save(true)} data-testid="contract-save-submit">
              {type?.need_audit === 'N' ? '保存并生效' : '保存并提交审批'}
            </SafeButton>
            <Button onClick={() => void navigate(id ? `/crm/roomshow?id=${id}` : other ? '/crm/other_contracts' : '/crm/roomsaleslist')}>
              取消
            </Button>
          </Space>
        </Card>
      </Form>
    </Spin>
  );
}
