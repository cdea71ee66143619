import { useEffect, useState } from 'react';
import { Alert, Button, Card, DatePicker, Divider, Form, Input, InputNumber, Radio, Select, Space, Switch, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  ACTIVITY_FIELD_TYPE,
  ACTIVITY_JOIN_MODE,
  ACTIVITY_JOIN_TYPE,
  ACTIVITY_REFUND_FEE_TYPE,
  ACTIVITY_REFUND_RULE,
  ACTIVITY_SCOPE,
  ACTIVITY_TITLE_MAX,
  type ActivityFieldType,
  type ActivityItem,
} from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import MoneyInput from '../../components/MoneyInput';
import { PhotosInput } from '../../components/PhotosInput';
import { useSmallList } from '../../components/resource';
import { validValues } from '../../utils/forms';
import { NoticeEditor } from '../steward/NoticeEditor';

interface FieldRow {
  id?: string;
  label: string;
  type: ActivityFieldType;
  required: boolean;
  options?: string;
}

interface ActivityForm {
  title: string;
  cover: string[];
  body: string;
  place: string;
  signup: [Dayjs, Dayjs];
  event: [Dayjs, Dayjs];
  limit_num: number;
  min_num: number;
  join_type: ActivityItem['join_type'];
  join_mode: ActivityItem['join_mode'];
  companions_max: number;
  household_limit: number;
  is_pay: boolean;
  price: string;
  pay_minutes: number;
  refund_rule: ActivityItem['refund_rule'];
  refund_hours: number;
  refund_fee_type: ActivityItem['refund_fee_type'];
  refund_fee: string;
  waitlist: boolean;
  confirm_hours: number;
  review: boolean;
  scope: ActivityItem['scope'];
  scope_bids: number[];
  form: FieldRow[];
  status: boolean;
}

const LIST = '/service/signuplist';
const MINUTE = 'YYYY-MM-DD HH:mm';
const yn = (b: boolean) => (b ? ('Y' as const) : ('N' as const));
const CHOICE: ActivityFieldType[] = ['radio', 'checkbox'];

/**
 * /service/signup_add and /service/signup_edit?id= (docs/product.md#activities): the activity's
 * title, cover, details, place, windows, seats, join rules, price and refund rule, waiting list,
 * review, visibility and its custom form (fields ordered with the arrows; a saved field keeps its
 * id, so renaming it keeps its answers). Once someone paid, the price is locked.
 */
export default function ActivityEdit() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ActivityForm>();
  const [saving, setSaving] = useState(false);
  const [loaded, setLoaded] = useState<ActivityItem | null>(null);
  const buildings = useSmallList('building_small_list', {});
  const isPay = Form.useWatch('is_pay', form) ?? false;
  const joinMode = Form.useWatch('join_mode', form) ?? 'person';
  const refundRule = Form.useWatch('refund_rule', form) ?? 'none';
  const refundFeeType = Form.useWatch('refund_fee_type', form) ?? 'fixed';
  const waitlist = Form.useWatch('waitlist', form) ?? false;
  const scope = Form.useWatch('scope', form) ?? 'all';
  const fields = (Form.useWatch('form', form) ?? []) as FieldRow[];

  useEffect(() => {
    if (!id) return;
    call('signupinfo', { id })
      .then((a) => {
        setLoaded(a);
        form.setFieldsValue({
          ...a,
          cover: a.cover ? [a.cover] : [],
          signup: [dayjs(a.start_time), dayjs(a.end_time)],
          event: [dayjs(a.event_start_time), dayjs(a.event_end_time)],
          is_pay: a.is_pay === 'Y',
          waitlist: a.waitlist === 'Y',
          review: a.review === 'Y',
          status: a.status === 'Y',
          form: a.form.map((f) => ({
            id: f.id,
            label: f.label,
            type: f.type,
            required: f.required === 'Y',
            options: f.options.join('\n'),
          })),
        });
      })
      .catch(() => void navigate(LIST, { replace: true }));
  }, [id, form, navigate]);

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    const payload = {
      title: v.title,
      cover: v.cover?.[0] ?? '',
      body: v.body ?? '',
      place: v.place ?? '',
      start_time: v.signup[0].format(MINUTE),
      end_time: v.signup[1].format(MINUTE),
      event_start_time: v.event[0].format(MINUTE),
      event_end_time: v.event[1].format(MINUTE),
      limit_num: v.limit_num ?? 0,
      min_num: v.min_num ?? 0,
      join_type: v.join_type,
      join_mode: v.join_mode,
      companions_max: v.join_mode === 'household' ? (v.companions_max ?? 0) : 0,
      household_limit: v.household_limit ?? 1,
      is_pay: yn(v.is_pay),
      price: v.is_pay ? v.price : '0',
      pay_minutes: v.pay_minutes ?? 15,
      refund_rule: v.is_pay ? v.refund_rule : ('none' as const),
      refund_hours: v.refund_hours ?? 0,
      refund_fee_type: v.refund_fee_type,
      refund_fee: v.refund_fee || '0',
      waitlist: yn(v.waitlist),
      confirm_hours: v.confirm_hours ?? 48,
      review: yn(v.review),
      scope: v.scope,
      scope_bids: v.scope === 'building' ? (v.scope_bids ?? []) : [],
      form: (v.form ?? []).map((f) => ({
        id: f.id,
        label: f.label,
        type: f.type,
        required: yn(f.required),
        options: CHOICE.includes(f.type)
          ? (f.options ?? '')
              .split('\n')
              .map((o) => o.trim())
              .filter(Boolean)
          : [],
      })),
      status: yn(v.status),
    };
    setSaving(true);
    try {
      const answer = id ? await request('signupedit', { ...payload, id }) : await request('signupadd', payload);
      noticeSuccess(answer.return_msg);
      void queryClient.invalidateQueries({ queryKey: ['list', 'signuplist'] });
      void navigate(LIST);
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    // notice-form: the notices' editor styles (its hidden image input)
    <Card title={id ? '编辑活动' : '新增活动'} data-testid="activity-form" className="notice-form">
      {loaded?.price_locked && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="已有人付款：是否收费和单价不能再修改"
          data-testid="activity-price-locked"
        />
      )}
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ xs: { span: 24 }, sm: { span: 4 } }}
        wrapperCol={{ xs: { span: 24 }, sm: { span: 18 } }}
        initialValues={{
          cover: [],
          limit_num: 0,
          min_num: 0,
          join_type: 'resident',
          join_mode: 'person',
          companions_max: 0,
          household_limit: 1,
          is_pay: false,
          price: '',
          pay_minutes: 15,
          refund_rule: 'none',
          refund_hours: 24,
          refund_fee_type: 'fixed',
          refund_fee: '0',
          waitlist: false,
          confirm_hours: 48,
          review: false,
          scope: 'all',
          scope_bids: [],
          form: [],
          status: true,
        }}
      >
        <Form.Item name="title" label="标题" rules={[{ required: true, whitespace: true, message: '请输入活动标题' }]}>
          <Input maxLength={ACTIVITY_TITLE_MAX} showCount data-testid="activity-title" />
        </Form.Item>
        <Form.Item name="cover" label="封面" rules={[{ required: true, type: 'array', min: 1, message: '请上传封面' }]}>
          <PhotosInput max={1} testId="activity-cover" />
        </Form.Item>
        <Form.Item name="body" label="详情" rules={[{ required: true, message: '请输入活动详情' }]}>
          <NoticeEditor />
        </Form.Item>
        <Form.Item name="place" label="地点">
          <Input maxLength={100} data-testid="activity-place" />
        </Form.Item>
        <Form.Item name="signup" label="报名时间" rules={[{ required: true, message: '请选择报名开始和截止时间' }]}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format={MINUTE} data-testid="activity-signup-window" />
        </Form.Item>
        <Form.Item
          name="event"
          label="活动时间"
          dependencies={['signup']}
          rules={[
            { required: true, message: '请选择活动开始和结束时间' },
            ({ getFieldValue }) => ({
              validator: (_, v?: [Dayjs, Dayjs]) => {
                const s = getFieldValue('signup') as [Dayjs, Dayjs] | undefined;
                return v && s && s[1].isAfter(v[0]) ? Promise.reject(new Error('报名截止时间不能晚于活动开始时间')) : Promise.resolve();
              },
            }),
          ]}
        >
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format={MINUTE} data-testid="activity-event-window" />
        </Form.Item>
        <Form.Item label="人数上限" extra={loaded ? `已占名额 ${loaded.totle_num}，上限不能低于它；0 为不限` : '0 为不限'}>
          <Space>
            <Form.Item name="limit_num" noStyle rules={[{ required: true, message: '请填写人数上限' }]}>
              <InputNumber min={0} max={100000} precision={0} data-testid="activity-limit" />
            </Form.Item>
            <span>最少成团</span>
            <Form.Item name="min_num" noStyle>
              <InputNumber min={0} max={100000} precision={0} />
            </Form.Item>
          </Space>
        </Form.Item>
        <Form.Item label="参与方式">
          <Space wrap>
            <Form.Item name="join_mode" noStyle>
              <Radio.Group options={enumOptions(ACTIVITY_JOIN_MODE)} optionType="button" />
            </Form.Item>
            {joinMode === 'household' && (
              <>
                <span>每户最多携带</span>
                <Form.Item name="companions_max" noStyle>
                  <InputNumber min={0} max={20} precision={0} data-testid="activity-companions" />
                </Form.Item>
                <span>人</span>
              </>
            )}
          </Space>
        </Form.Item>
        <Form.Item name="join_type" label="参与对象">
          <Radio.Group options={enumOptions(ACTIVITY_JOIN_TYPE)} />
        </Form.Item>
        {joinMode === 'person' && (
          <Form.Item name="household_limit" label="每户限报" extra="同一房屋最多报名的人数">
            <InputNumber min={1} max={50} precision={0} />
          </Form.Item>
        )}
        <Form.Item name="is_pay" label="是否收费" valuePropName="checked">
          <Switch checkedChildren="收费" unCheckedChildren="免费" disabled={loaded?.price_locked} data-testid="activity-is-pay" />
        </Form.Item>
        {isPay && (
          <>
            <Form.Item name="price" label="单价（元）" rules={[{ required: true, message: '请填写单价' }]}>
              <MoneyInput style={{ width: 160 }} disabled={loaded?.price_locked} data-testid="activity-price" />
            </Form.Item>
            <Form.Item name="pay_minutes" label="支付时限（分钟）" extra="报名后未在时限内到收银台缴费，名额自动释放">
              <InputNumber min={1} max={10080} precision={0} data-testid="activity-pay-minutes" />
            </Form.Item>
            <Form.Item label="退款规则">
              <Space wrap>
                <Form.Item name="refund_rule" noStyle>
                  <Select style={{ width: 180 }} options={enumOptions(ACTIVITY_REFUND_RULE)} />
                </Form.Item>
                {refundRule === 'hours' && (
                  <>
                    <span>活动开始前</span>
                    <Form.Item name="refund_hours" noStyle>
                      <InputNumber min={1} max={720} precision={0} />
                    </Form.Item>
                    <span>小时</span>
                  </>
                )}
                {refundRule !== 'none' && (
                  <>
                    <span>手续费</span>
                    <Form.Item name="refund_fee_type" noStyle>
                      <Select style={{ width: 110 }} options={enumOptions(ACTIVITY_REFUND_FEE_TYPE)} />
                    </Form.Item>
                    <Form.Item name="refund_fee" noStyle>
                      <MoneyInput style={{ width: 100 }} />
                    </Form.Item>
                    <span>{refundFeeType === 'percent' ? '%' : '元'}</span>
                  </>
                )}
              </Space>
            </Form.Item>
          </>
        )}
        <Form.Item label="候补">
          <Space wrap>
            <Form.Item name="waitlist" noStyle valuePropName="checked">
              <Switch data-testid="activity-waitlist" />
            </Form.Item>
            {waitlist && (
              <>
                <span>名额空出时自动递补，递补者须在</span>
                <Form.Item name="confirm_hours" noStyle>
                  <InputNumber min={1} max={720} precision={0} data-testid="activity-confirm-hours" />
                </Form.Item>
                <span>小时内{isPay ? '缴费' : '确认'}</span>
              </>
            )}
          </Space>
        </Form.Item>
        <Form.Item name="review" label="报名审核" valuePropName="checked" extra="开启后报名（付款后）须审核通过">
          <Switch />
        </Form.Item>
        <Form.Item name="scope" label="可见范围">
          <Radio.Group options={enumOptions(ACTIVITY_SCOPE)} />
        </Form.Item>
        {scope === 'building' && (
          <Form.Item name="scope_bids" label="楼栋" rules={[{ required: true, type: 'array', min: 1, message: '请选择可见的楼栋' }]}>
            <Select mode="multiple" options={buildings.options} loading={buildings.loading} style={{ maxWidth: 480 }} />
          </Form.Item>
        )}
        <Divider titlePlacement="start">报名表单</Divider>
        <Form.List name="form">
          {(rows, { add, remove, move }) => (
            <div data-testid="activity-form-fields">
              {rows.map((row, i) => {
                const type = fields[i]?.type;
                return (
                  <Form.Item key={row.key} label={`第 ${i + 1} 项`} required={false}>
                    <Space wrap align="start">
                      <Form.Item
                        name={[row.name, 'label']}
                        noStyle
                        rules={[{ required: true, whitespace: true, message: '请输入表单项名称' }]}
                      >
                        <Input placeholder="名称" maxLength={30} style={{ width: 180 }} data-testid={`activity-field-label-${i}`} />
                      </Form.Item>
                      <Form.Item name={[row.name, 'type']} noStyle>
                        <Select
                          style={{ width: 120 }}
                          options={enumOptions(ACTIVITY_FIELD_TYPE)}
                          data-testid={`activity-field-type-${i}`}
                        />
                      </Form.Item>
                      <Form.Item name={[row.name, 'required']} noStyle valuePropName="checked">
                        <Switch checkedChildren="必填" unCheckedChildren="选填" />
                      </Form.Item>
                      {type && CHOICE.includes(type) && (
                        <Form.Item name={[row.name, 'options']} noStyle rules={[{ required: true, message: '请填写选项，每行一个' }]}>
                          <Input.TextArea placeholder="选项，每行一个" autoSize={{ minRows: 2, maxRows: 6 }} style={{ width: 200 }} />
                        </Form.Item>
                      )}
                      <Button size="small" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, i - 1)} aria-label="上移" />
                      <Button
                        size="small"
                        icon={<ArrowDownOutlined />}
                        disabled={i === rows.length - 1}
                        onClick={() => move(i, i + 1)}
                        aria-label="下移"
                      />
                      <Button size="small" danger icon={<DeleteOutlined />} onClick={() => remove(row.name)} aria-label="删除" />
                      {fields[i]?.id && <Typography.Text type="secondary">编号 {fields[i]!.id}</Typography.Text>}
                    </Space>
                  </Form.Item>
                );
              })}
              <Form.Item wrapperCol={{ sm: { offset: 4 } }}>
                <Button
                  icon={<PlusOutlined />}
                  onClick={() => add({ label: '', type: 'text', required: false })}
                  data-testid="activity-field-add"
                >
                  添加表单项
                </Button>
              </Form.Item>
            </div>
          )}
        </Form.List>
        <Form.Item name="status" label="上架" valuePropName="checked">
          <Switch checkedChildren="上架" unCheckedChildren="下架" />
        </Form.Item>
        <Form.Item wrapperCol={{ sm: { offset: 4 } }}>
          <Space>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="activity-save">
              保存
            </Button>
            <Button onClick={() => void navigate(LIST)}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
