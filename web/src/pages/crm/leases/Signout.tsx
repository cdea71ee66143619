import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Col, DatePicker, Form, Input, Radio, Result, Row, Space, Spin, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { toFen } from '@wuye/contract/money';
import { SIGNOUT_KIND, type LeaseSettlement } from '@wuye/contract/crm/leases';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import MoneyInput from '../../../components/MoneyInput';
import { formatMoney } from '../../../components/Money';
import { validValues } from '../../../utils/forms';
import { LIST, LeaseDescriptions, SettlementView } from './parts';

interface FormValues {
  kind: 'N' | 'E' | 'O' | 'T';
  date: Dayjs | null;
  reason: string;
  readings: Array<{ name?: string; reading?: string }>;
  damages: Array<{ name?: string; amount?: string }>;
  penalties: Array<{ name?: string; amount?: string }>;
  deposit_kept: string;
  kept_reason: string;
}

const good = (v: string | undefined) => !!v && /^\d+(\.\d{1,2})?$/.test(v) && toFen(v) > 0n;

/** The payload of what the form holds now; unfinished lines are left out of the preview. */
function payloadOf(id: number, v: Partial<FormValues>) {
  return {
    id,
    kind: v.kind ?? 'E',
    date: v.date ? v.date.format('YYYY-MM-DD') : '',
    reason: v.reason ?? '',
    readings: (v.readings ?? [])
      .filter((r) => r?.name && r.reading && /^\d+(\.\d{1,2})?$/.test(r.reading))
      .map((r) => ({ name: r.name!, reading: r.reading! })),
    damages: (v.damages ?? []).filter((d) => d?.name && good(d.amount)).map((d) => ({ name: d.name!, amount: d.amount! })),
    penalties: (v.penalties ?? []).filter((d) => d?.name && good(d.amount)).map((d) => ({ name: d.name!, amount: d.amount! })),
    deposit_kept: v.deposit_kept && /^\d+(\.\d{1,2})?$/.test(v.deposit_kept) ? v.deposit_kept : '0',
    kept_reason: v.kept_reason ?? '',
  };
}

/** The kind a day implies against the lease's end: before it 提前, on it 正常, after it 逾期. */
const kindFor = (date: string, end: string): FormValues['kind'] => (date < end ? 'E' : date === end ? 'N' : 'O');

function Lines({
  name,
  label,
  add,
  testId,
}: {
  name: 'damages' | 'penalties' | 'readings';
  label: [string, string];
  add: string;
  testId: string;
}) {
  const valueKey = name === 'readings' ? 'reading' : 'amount';
  return (
    <Form.List name={name}>
      {(fields, { add: push, remove }) => (
        <>
          {fields.map((f, i) => (
            <Space key={f.key} wrap align="start" style={{ display: 'flex', marginBottom: 8 }}>
              <Form.Item name={[f.name, 'name']} rules={[{ required: true, whitespace: true, message: `请填写${label[0]}` }]} noStyle>
                <Input
                  placeholder={label[0]}
                  maxLength={name === 'readings' ? 20 : 40}
                  style={{ width: 200 }}
                  data-testid={`${testId}-name-${i}`}
                />
              </Form.Item>
              <Form.Item name={[f.name, valueKey]} rules={[{ required: true, message: `请填写${label[1]}` }]} noStyle>
                <MoneyInput placeholder={label[1]} style={{ width: 140 }} data-testid={`${testId}-value-${i}`} />
              </Form.Item>
              <Button icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={`删除${label[0]}`} />
            </Space>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => push({})} data-testid={`${testId}-add`}>
            {add}
          </Button>
        </>
      )}
    </Form.List>
  );
}

/**
 * /crm/signout?id= (退租结算; docs/product.md#crm-leases): the check-out's kind and day, the final
 * meter readings, damages and penalties, what of the deposit is kept; beside them the settlement as
 * the server works it out (owed bills, the last days billed pro rata, later bills deleted or
 * refunded, the deposit's refund, the net), confirmed in one step that ends the lease and moves the
 * tenant out.
 */
export default function Signout() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { modal } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [done, setDone] = useState<LeaseSettlement | null>(null);
  const [busy, setBusy] = useState(false);
  const info = useQuery({ queryKey: ['leaseinfo', id], queryFn: () => call('leaseinfo', { id }), enabled: !!id });
  const values = (Form.useWatch([], form) ?? {}) as Partial<FormValues>;
  const payload = payloadOf(id, values);
  // the preview follows the form, a moment after the typing stops
  const [asked, setAsked] = useState(payload);
  const key = JSON.stringify(payload);
  useEffect(() => {
    const t = setTimeout(() => setAsked(JSON.parse(key) as typeof payload), 300);
    return () => clearTimeout(t);
  }, [key]);
  const preview = useQuery({
    queryKey: ['signoutpreview', asked],
    queryFn: () => call('signoutpreview', asked as never, { silent: true }),
    enabled: !!id && !!asked.date && !done,
    retry: false,
  });

  useEffect(() => {
    if (!info.data) return;
    const l = info.data;
    const day = dayjs().format('YYYY-MM-DD');
    const date = day < l.start_date ? l.start_date : day;
    form.setFieldsValue({ date: dayjs(date), kind: kindFor(date, l.end_date), deposit_kept: '0' });
  }, [info.data, form]);

  if (!id) return <Alert type="warning" showIcon title="未指定租约" />;
  if (!info.data) return <Spin />;
  const l = info.data;

  if (done)
    return (
      <Result
        status="success"
        title={`租约 ${done.lease_no} 已退租`}
        subTitle={`退租日期 ${done.date}；${toFen(done.sums.net) > 0n ? `租户还应缴 ${formatMoney(done.sums.net, { unit: '元' })}` : toFen(done.sums.net) < 0n ? `应退租户 ${formatMoney(done.sums.net.replace('-', ''), { unit: '元' })}，已提交退款申请待财务审核` : '收支两清'}`}
        extra={[
          <Button key="list" type="primary" onClick={() => void navigate(`${LIST}?id=${done.lease_id}`)} data-testid="signout-back">
            返回租约列表
          </Button>,
        ]}
      >
        <SettlementView s={done} />
      </Result>
    );

  const confirm = async () => {
    const v = await validValues(form);
    if (!v || !preview.data) return;
    const s = preview.data;
    modal.confirm({
      title: `确认为 ${l.lease_no} 办理退租？`,
      content: `退租日期 ${s.date}，租户应缴 ${formatMoney(s.sums.owed, { unit: '元' })}，应退 ${formatMoney(s.sums.refund, { unit: '元' })}。确认后出最后的账单、申请退款、租约结束，租户从房屋迁出（门禁权限注销）。`,
      okText: '确认退租',
      okButtonProps: { danger: true, 'data-testid': 'signout-confirm-ok' } as never,
      onOk: async () => {
        setBusy(true);
        try {
          const answer = await request('signout', payloadOf(id, v) as never);
          noticeSuccess(answer.return_msg);
          setDone(answer.data);
          await queryClient.invalidateQueries({ queryKey: ['list', 'leaselist'] });
        } finally {
          setBusy(false);
        }
      },
    });
  };

  const kept = values.deposit_kept && /^\d+(\.\d{1,2})?$/.test(values.deposit_kept) && toFen(values.deposit_kept) > 0n;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="signout-page">
      <Card size="small" title={`退租：${l.lease_no} ${l.tenant_name}`}>
        <LeaseDescriptions lease={l} />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <Card size="small" title="退租信息">
            <Form<FormValues>
              form={form}
              layout="vertical"
              data-testid="signout-form"
              initialValues={{ readings: [], damages: [], penalties: [] }}
            >
              <Form.Item name="date" label="退租日期" rules={[{ required: true, message: '请选择退租日期' }]}>
                <DatePicker
                  style={{ width: '100%' }}
                  onChange={(d: Dayjs | null) => d && form.setFieldValue('kind', kindFor(d.format('YYYY-MM-DD'), l.end_date))}
                  data-testid="signout-date"
                />
              </Form.Item>
              <Form.Item name="kind" label="退租类型" extra={`租约到期日 ${l.end_date}`}>
                <Radio.Group options={enumOptions(SIGNOUT_KIND)} data-testid="signout-kind" />
              </Form.Item>
              <Form.Item name="reason" label="退租原因">
                <Input.TextArea rows={2} maxLength={200} data-testid="signout-reason" />
              </Form.Item>
              <Form.Item label="退租抄表（记入结算单）">
                <Lines name="readings" label={['表计，如电表', '读数']} add="添加读数" testId="signout-reading" />
              </Form.Item>
              <Form.Item label="损坏赔偿（出账）">
                <Lines name="damages" label={['损坏项目', '金额（元）']} add="添加损坏赔偿" testId="signout-damage" />
              </Form.Item>
              <Form.Item label="违约金（出账）">
                <Lines name="penalties" label={['违约事项', '金额（元）']} add="添加违约金" testId="signout-penalty" />
              </Form.Item>
              <Form.Item
                name="deposit_kept"
                label="扣留押金（元）"
                extra={`押金 ${formatMoney(l.deposit, { unit: '元' })}，其余原路退还（须财务审核退款）`}
              >
                <MoneyInput data-testid="signout-kept" />
              </Form.Item>
              {kept && (
                <Form.Item
                  name="kept_reason"
                  label="扣留原因"
                  rules={[{ required: true, whitespace: true, message: '请填写扣留押金的原因' }]}
                >
                  <Input maxLength={200} data-testid="signout-kept-reason" />
                </Form.Item>
              )}
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title="结算单" data-testid="signout-preview">
            {preview.error ? (
              <Alert type="error" showIcon title={(preview.error as Error).message} data-testid="signout-problem" />
            ) : preview.data ? (
              <SettlementView s={preview.data} />
            ) : (
              <Spin />
            )}
            <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
              确认后：补出最后的账单，删除退租日之后未缴的账单，已缴部分与押金（扣除扣留）提交退款申请，租约结束，租户迁出。
            </Typography.Paragraph>
            <Space wrap>
              <Button
                type="primary"
                danger
                loading={busy}
                disabled={!preview.data || preview.isFetching}
                onClick={() => void confirm()}
                data-testid="signout-submit"
              >
                确认退租
              </Button>
              <Button onClick={() => void navigate(LIST)}>取消</Button>
            </Space>
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
