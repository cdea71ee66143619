import { useEffect, useState } from 'react';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Descriptions,
  Form,
  Grid,
  Input,
  InputNumber,
  Modal,
  Progress,
  Radio,
  Select,
  Space,
  Switch,
  Tabs,
  Typography,
  Upload,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import {
  MOBILE_RE,
  SMS_AUDIENCE,
  SMS_JOB_KIND,
  SMS_JOB_STATUS,
  SMS_PROVIDER,
  SMS_READERS,
  SMS_SCHEDULE,
  SMS_SENDERS,
  SMS_VAR_SOURCE,
  smsTemplate,
  smsUnsub,
  templateVars,
  type SmsJobItem,
  type SmsPreview,
} from '@wuye/contract';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, ResourcePage, useCanWrite, useSmallList } from '../../components/resource';

const SETTING_KEY = ['smssetting'];

const QUOTA_KEY = ['smsquota'];

/** The group's SMS quota (短信额度): how much the community may still send; nothing when the group has no package. */
const useSmsQuota = () => useQuery({ queryKey: QUOTA_KEY, queryFn: () => call('smsquota', {}), retry: false });

/** 集团短信余量, and a warning when it is low or gone; nothing for a group without a package (no limit). */
export function QuotaNotice() {
  const quota = useSmsQuota();
  const q = quota.data;
  if (!q?.enabled) return null;
  return (
    <Alert
      type={q.balance <= 0 ? 'error' : q.low ? 'warning' : 'info'}
      showIcon
      style={{ marginBottom: 12 }}
      data-testid={q.low || q.balance <= 0 ? 'sms-quota-low' : 'sms-quota'}
      message={q.message}
    />
  );
}

/** The provider in use; without a configured one the sandbox is, and every page says so; then the group's SMS quota. */
export function ProviderNotice() {
  return (
    <>
      <ProviderAlert />
      <QuotaNotice />
    </>
  );
}

function ProviderAlert() {
  const setting = useQuery({ queryKey: SETTING_KEY, queryFn: () => call('smssetting', {}), retry: false });
  if (!setting.data) return null;
  return setting.data.active === 'sandbox' ? (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="sms-sandbox-notice"
      message="未配置短信服务商，当前使用沙箱通道：短信只记录在发送日志中，不会真实发到手机。到“短信设置”中配置阿里云短信后即真实发送。"
    />
  ) : (
    <Alert
      type="success"
      showIcon
      style={{ marginBottom: 12 }}
      message={`短信通过${setting.data.active_ch}发送，签名【${setting.data.sign_name}】`}
    />
  );
}

export interface JobForm {
  name: string;
  kind: keyof typeof SMS_JOB_KIND;
  template_id?: number;
  var_map: Record<string, { source: string; text?: string }>;
  audience_type: keyof typeof SMS_AUDIENCE;
  bids: number[];
  tids: number[];
  min_amount: string;
  months: number;
  member_ids: number[];
  list_text: string;
  schedule: 'now' | 'at' | 'monthly';
  run_at?: Dayjs;
  month_day: number;
  month_time: string;
  urgent: boolean;
  dedupe_days: number;
  remark: string;
}

/** "13800138000,张三" lines: the uploaded or pasted list; bad lines are named. */
function parseList(text: string): { list: Array<{ mobile: string; name: string }>; bad: string[] } {
  const list: Array<{ mobile: string; name: string }> = [];
  const bad: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || /^手机/.test(line)) continue;
    const [mobile = '', name = ''] = line.split(/[,，\t ]+/);
    if (MOBILE_RE.test(mobile)) list.push({ mobile, name: name.slice(0, 20) });
    else bad.push(line);
  }
  return { list, bad };
}

function toPayload(v: JobForm) {
  const { list } = parseList(v.list_text ?? '');
  return {
    name: v.name,
    kind: v.kind,
    template_id: v.template_id!,
    var_map: Object.fromEntries(Object.entries(v.var_map ?? {}).map(([k, m]) => [k, { source: m.source as 'text', text: m.text ?? '' }])),
    audience: {
      type: v.audience_type,
      bids: v.bids ?? [],
      tids: v.tids ?? [],
      min_amount: v.min_amount || '0',
      months: v.months ?? 0,
      member_ids: v.member_ids ?? [],
      list,
    },
    schedule: v.schedule,
    run_at: v.schedule === 'at' && v.run_at ? v.run_at.format('YYYY-MM-DD HH:mm') : undefined,
    month_day: v.month_day ?? 1,
    month_time: v.month_time || '09:00',
    urgent: (v.urgent ? 'Y' : 'N') as 'Y' | 'N',
    dedupe_days: v.dedupe_days ?? 0,
    remark: v.remark ?? '',
  };
}

function fromRow(r: SmsJobItem): JobForm {
  return {
    name: r.name,
    kind: r.kind,
    template_id: r.template_id,
    var_map: r.var_map,
    audience_type: r.audience.type,
    bids: r.audience.bids,
    tids: r.audience.tids,
    min_amount: r.audience.min_amount,
    months: r.audience.months,
    member_ids: r.audience.member_ids,
    list_text: r.audience.list.map((l) => `${l.mobile},${l.name}`).join('\n'),
    schedule: r.schedule,
    run_at: r.run_at ? dayjs(r.run_at) : undefined,
    month_day: r.month_day,
    month_time: r.month_time,
    urgent: r.urgent === 'Y',
    dedupe_days: r.dedupe_days,
    remark: r.remark,
  };
}

const NEW_JOB: Partial<JobForm> = {
  kind: 'arrears',
  audience_type: 'arrears',
  bids: [],
  tids: [],
  min_amount: '0.01',
  months: 0,
  schedule: 'now',
  month_day: 1,
  month_time: '09:00',
  urgent: false,
  dedupe_days: 7,
  var_map: {},
  list_text: '',
};

/** A job's form: a new one (with `preset` values from the page that opened it, e.g. 催缴's buildings) or a draft. */
export function JobModal({
  row,
  preset,
  onClose,
  onSaved,
}: {
  row: SmsJobItem | 'new';
  preset?: Partial<JobForm>;
  onClose: () => void;
  onSaved: (id: number) => void;
}) {
  const [form] = Form.useForm<JobForm>();
  const [saving, setSaving] = useState(false);
  const [memberSearch, setMemberSearch] = useState('');
  const templates = useList('smstemplatelist', { approved: 'Y' }, { limit: 200 });
  const templateId = Form.useWatch('template_id', form);
  const audienceType = Form.useWatch('audience_type', form);
  const schedule = Form.useWatch('schedule', form);
  const varMap = Form.useWatch('var_map', form) ?? {};
  const bids = Form.useWatch('bids', form) ?? [];
  const listText = Form.useWatch('list_text', form) ?? '';
  const buildings = useSmallList('building_small_list', {}).options;
  const units = useSmallList('unit_small_list', bids.length === 1 ? { bid: bids[0]! } : null).options;
  const members = useQuery({
    queryKey: ['sms-members', memberSearch],
    queryFn: () => call('memberlist', { name: memberSearch || undefined, living: 'Y', limit: 50 }),
    enabled: audienceType === 'members',
    retry: false,
  });
  const tpl = templates.items.find((t) => t.id === templateId);
  const vars = tpl ? templateVars(tpl.content) : [];
  const parsed = parseList(listText);

  useEffect(() => {
    form.setFieldsValue(row === 'new' ? ({ ...NEW_JOB, ...preset } as JobForm) : fromRow(row));
  }, [row, form, preset]);

  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const payload = toPayload(v);
      if (row === 'new') {
        const answer = await request('smsjobadd', payload);
        noticeSuccess(answer.return_msg);
        onSaved(answer.data.id);
      } else {
        const answer = await request('smsjobedit', { id: row.id, ...payload });
        noticeSuccess(answer.return_msg);
        onSaved(row.id);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={row === 'new' ? '新建短信任务' : '编辑短信任务'}
      width={720}
      onCancel={onClose}
      onOk={() => void save()}
      okText="保存草稿"
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'smsjob-save' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="smsjob-form">
        <Form.Item name="name" label="任务名称" rules={[{ required: true, message: '请输入任务名称' }, { max: 50 }]}>
          <Input placeholder="如 11月欠费催缴" data-testid="smsjob-name" />
        </Form.Item>
        <Form.Item name="kind" label="类型" rules={[{ required: true }]}>
          <Radio.Group options={enumOptions(SMS_JOB_KIND)} />
        </Form.Item>
        <Form.Item name="template_id" label="短信模板" rules={[{ required: true, message: '请选择已审核的短信模板' }]} extra={tpl?.content}>
          <Select
            placeholder={templates.items.length ? '选择已审核的模板' : '还没有已审核的模板，请先在“短信模板”中添加'}
            options={templates.items.map((t) => ({ value: t.id, label: `${t.title}（${t.code}）` }))}
            data-testid="smsjob-template"
          />
        </Form.Item>
        {vars.map((v) => (
          <Space key={v} align="start" wrap>
            <Form.Item name={['var_map', v, 'source']} label={`变量 \${${v}}`} rules={[{ required: true, message: '请选择取值' }]}>
              <Select style={{ width: 160 }} options={enumOptions(SMS_VAR_SOURCE)} data-testid={`smsjob-var-${v}`} />
            </Form.Item>
            {varMap[v]?.source === 'text' && (
              <Form.Item name={['var_map', v, 'text']} label="文字" rules={[{ required: true, message: '请填写文字' }]}>
                <Input style={{ width: 220 }} maxLength={50} />
              </Form.Item>
            )}
          </Space>
        ))}
        <Form.Item name="audience_type" label="发送对象" rules={[{ required: true }]}>
          <Radio.Group options={enumOptions(SMS_AUDIENCE)} data-testid="smsjob-audience" />
        </Form.Item>
        {['all', 'places', 'arrears'].includes(audienceType) && (
          <Space wrap align="start">
            <Form.Item name="bids" label="楼栋" extra={audienceType === 'places' ? undefined : '不选为全部楼栋'}>
              <Select
                mode="multiple"
                style={{ minWidth: 240 }}
                options={buildings}
                placeholder="选择楼栋"
                optionFilterProp="label"
                data-testid="smsjob-bids"
              />
            </Form.Item>
            {bids.length === 1 && (
              <Form.Item name="tids" label="单元" extra="不选为该楼全部单元">
                <Select mode="multiple" style={{ minWidth: 200 }} options={units} placeholder="选择单元" />
              </Form.Item>
            )}
          </Space>
        )}
        {audienceType === 'arrears' && (
          <Space wrap>
            <Form.Item
              name="min_amount"
              label="欠费金额至少（元）"
              rules={[{ pattern: /^\d{1,10}(\.\d{1,2})?$/, message: '金额格式不正确' }]}
            >
              <Input style={{ width: 160 }} data-testid="smsjob-min-amount" />
            </Form.Item>
            <Form.Item name="months" label="欠费超过（月）" extra="最早一笔未缴账单的到期日距今">
              <InputNumber min={0} max={120} style={{ width: 120 }} />
            </Form.Item>
          </Space>
        )}
        {audienceType === 'members' && (
          <Form.Item name="member_ids" label="业主" rules={[{ required: true, message: '请选择业主' }]}>
            <Select
              mode="multiple"
              showSearch
              filterOption={false}
              onSearch={setMemberSearch}
              loading={members.isFetching}
              placeholder="输入姓名查找"
              options={(members.data?.items ?? []).map((m) => ({ value: m.id, label: `${m.realname} ${m.mobile}` }))}
            />
          </Form.Item>
        )}
        {audienceType === 'list' && (
          <>
            <Upload
              accept=".csv,.txt"
              showUploadList={false}
              beforeUpload={(file) => {
                void file.text().then((t) => form.setFieldValue('list_text', t));
                return false;
              }}
            >
              <Button icon={<UploadOutlined />}>上传名单（CSV：手机号,姓名）</Button>
            </Upload>
            <Form.Item
              name="list_text"
              label="名单"
              style={{ marginTop: 8 }}
              extra={`每行一个：手机号,姓名。有效 ${parsed.list.length} 个${parsed.bad.length ? `，${parsed.bad.length} 行格式不正确（如“${parsed.bad[0]}”）将被忽略` : ''}`}
            >
              <Input.TextArea rows={4} placeholder={'13800138000,张三\n13900139000,李四'} data-testid="smsjob-list" />
            </Form.Item>
          </>
        )}
        <Form.Item name="schedule" label="发送时间">
          <Radio.Group options={enumOptions(SMS_SCHEDULE)} />
        </Form.Item>
        {schedule === 'at' && (
          <Form.Item name="run_at" label="定时" rules={[{ required: true, message: '请选择时间' }]}>
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
        )}
        {schedule === 'monthly' && (
          <Space wrap>
            <Form.Item name="month_day" label="每月几日">
              <InputNumber min={1} max={28} />
            </Form.Item>
            <Form.Item name="month_time" label="时间" rules={[{ pattern: /^([01]\d|2[0-3]):[0-5]\d$/, message: '格式 HH:mm' }]}>
              <Input style={{ width: 100 }} />
            </Form.Item>
          </Space>
        )}
        <Space wrap size="large">
          <Form.Item name="urgent" label="紧急" valuePropName="checked" extra="不紧急的任务在 21:00–08:00 静默时段不发送，顺延到 08:00">
            <Switch data-testid="smsjob-urgent" />
          </Form.Item>
          <Form.Item name="dedupe_days" label="同一号码几天内只提醒一次" extra="0 为不限">
            <InputNumber min={0} max={365} />
          </Form.Item>
        </Space>
        <Form.Item name="remark" label="备注">
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Recipients and the estimated count before a start; the start carries the count the user saw. */
export function StartModal({ row, onClose, onStarted }: { row: SmsJobItem; onClose: () => void; onStarted: () => void }) {
  const preview = useQuery({
    queryKey: ['smsjobpreview', row.id],
    queryFn: () => call('smsjobpreview', { id: row.id }),
    retry: false,
    gcTime: 0,
  });
  const [starting, setStarting] = useState(false);
  const p: SmsPreview | undefined = preview.data;
  const quota = useSmsQuota();
  // 短信余量不足: a job the group's balance cannot pay for does not start (the server refuses it too)
  const short = !!p && !!quota.data?.enabled && p.messages > quota.data.balance;
  const start = async () => {
    if (!p || short) return;
    setStarting(true);
    try {
      const answer = await request('smsjobstart', { id: row.id, confirm_count: p.messages });
      noticeSuccess(answer.return_msg);
      onStarted();
    } finally {
      setStarting(false);
    }
  };
  return (
    <Modal
      open
      title={`开始发送：${row.name}`}
      onCancel={onClose}
      onOk={() => void start()}
      okText="确认开始"
      okButtonProps={{ disabled: !p || p.recipients === 0 || short, 'data-testid': 'smsjob-start-confirm' } as never}
      confirmLoading={starting}
      width={640}
    >
      {p ? (
        <div data-testid="smsjob-preview">
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="接收人数">
              <Typography.Text strong data-testid="smsjob-preview-recipients">
                {p.recipients}
              </Typography.Text>{' '}
              人{p.skipped_unsub ? `（${p.skipped_unsub} 人已退订）` : ''}
              {p.skipped_dedupe ? `（${p.skipped_dedupe} 人近期已提醒）` : ''}
            </Descriptions.Item>
            <Descriptions.Item label="每条计费">{p.segments} 条（70 字一条，超过按 67 字一条计费，含签名）</Descriptions.Item>
            <Descriptions.Item label="预计条数">
              <Typography.Text strong data-testid="smsjob-preview-messages">
                {p.messages}
              </Typography.Text>{' '}
              条
            </Descriptions.Item>
            <Descriptions.Item label="通道">{p.provider_ch}</Descriptions.Item>
            <Descriptions.Item label="示例">
              {p.sample_mobile} {p.sample}
            </Descriptions.Item>
          </Descriptions>
          {p.quiet_now && row.urgent !== 'Y' && (
            <Alert style={{ marginTop: 12 }} type="info" showIcon message="现在是静默时段（21:00–08:00），任务将在 08:00 开始发送" />
          )}
          {p.recipients === 0 && <Alert style={{ marginTop: 12 }} type="warning" showIcon message="没有符合条件的接收人" />}
          {short && (
            <Alert
              style={{ marginTop: 12 }}
              type="error"
              showIcon
              data-testid="smsjob-quota-short"
              message={`短信余量不足：本任务预计 ${p.messages} 条，集团剩余 ${quota.data!.balance} 条，请联系集团充值后再开始`}
            />
          )}
        </div>
      ) : (
        <Typography.Text type="secondary">{preview.isError ? '预览失败' : '正在统计接收人…'}</Typography.Text>
      )}
    </Modal>
  );
}

function JobsTab() {
  const { modal } = App.useApp();
  const list = useList('smsjoblist', {});
  const canSend = useCanWrite(SMS_SENDERS);
  const phone = Grid.useBreakpoint().md === false;
  const [editing, setEditing] = useState<SmsJobItem | 'new' | null>(null);
  const [starting, setStarting] = useState<SmsJobItem | null>(null);
  const sending = list.items.some((r) => r.status === 'S' || r.status === 'P');
  // a job sending: the list follows its progress
  useEffect(() => {
    if (!sending) return undefined;
    const t = setInterval(() => list.reload(), 2000);
    return () => clearInterval(t);
  }, [sending, list]);

  const cancel = (r: SmsJobItem) =>
    modal.confirm({
      title: '取消任务',
      content: '取消后未发出的短信不再发送，确定取消？',
      okButtonProps: { danger: true, 'data-testid': 'smsjob-cancel-ok' } as never,
      onOk: async () => {
        const answer = await request('smsjobcancel', { id: r.id });
        noticeSuccess(answer.return_msg);
        list.reload();
      },
    });
  const del = (r: SmsJobItem) =>
    modal.confirm({
      title: '删除草稿',
      content: `删除“${r.name}”？`,
      okButtonProps: { danger: true },
      onOk: async () => {
        const answer = await request('smsjobdel', { id: r.id });
        noticeSuccess(answer.return_msg);
        list.reload();
      },
    });

  const columns: TableColumnsType<SmsJobItem> = [
    { title: '任务名称', dataIndex: 'name', width: 180, fixed: phone ? undefined : 'left' },
    { title: '类型', dataIndex: 'kind_ch', width: 110 },
    { title: '模板', dataIndex: 'template_title', width: 130, ellipsis: true },
    { title: '发送对象', dataIndex: 'audience_ch', width: 200, ellipsis: true },
    {
      title: '计划',
      key: 'schedule',
      width: 170,
      render: (_, r) => (
        <>
          {r.schedule_ch}
          {r.urgent === 'Y' ? '（紧急）' : ''}
          {r.next_run_time && (r.status === 'P' || r.status === 'S') && (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              下次 {r.next_run_time.slice(0, 16)}
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      title: '状态',
      key: 'status',
      width: 140,
      render: (_, r) => (
        <span data-testid={`smsjob-status-${r.id}`}>
          <EnumTag enum={SMS_JOB_STATUS} value={r.status} />
          {r.status === 'S' && <Progress percent={r.percent} size="small" />}
        </span>
      ),
    },
    { title: '接收人', dataIndex: 'recipients', width: 80 },
    {
      title: '成功/失败',
      key: 'counts',
      width: 100,
      render: (_, r) => (
        <span data-testid={`smsjob-counts-${r.id}`}>
          {r.sent}/<Typography.Text type={r.failed ? 'danger' : undefined}>{r.failed}</Typography.Text>
        </span>
      ),
    },
    { title: '创建人', dataIndex: 'creator', width: 90 },
    { title: '创建时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 220,
      fixed: phone ? undefined : 'right',
      render: (_, r) => (
        <Space size={0} wrap>
          {canSend && r.status === 'D' && (
            <>
              <Button type="link" size="small" onClick={() => setStarting(r)} data-testid={`smsjob-start-${r.id}`}>
                预览并开始
              </Button>
              <Button type="link" size="small" onClick={() => setEditing(r)} data-testid={`smsjob-edit-${r.id}`}>
                编辑
              </Button>
              <Button type="link" size="small" danger onClick={() => del(r)}>
                删除
              </Button>
            </>
          )}
          {canSend && ['D', 'P', 'S'].includes(r.status) && r.status !== 'D' && (
            <Button type="link" size="small" danger onClick={() => cancel(r)} data-testid={`smsjob-cancel-${r.id}`}>
              取消
            </Button>
          )}
          {r.status !== 'D' && (
            <Link to={`/setup/smsjoblog?sms_job_id=${r.id}`} data-testid={`smsjob-log-${r.id}`}>
              查看日志
            </Link>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <TablePage<SmsJobItem, { name?: string; kind?: string; status?: string }>
        testId="smsjob-page"
        list={list}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 1500 } }}
        onSearch={(v) =>
          list.setFilters({ name: v.name || undefined, kind: (v.kind || undefined) as never, status: (v.status || undefined) as never })
        }
        toolbar={
          canSend && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="smsjob-add">
              新建任务
            </Button>
          )
        }
        filters={
          <>
            <Form.Item name="name" label="任务名称">
              <Input allowClear style={{ width: 150 }} />
            </Form.Item>
            <Form.Item name="kind" label="类型">
              <Select allowClear placeholder="全部" style={{ width: 130 }} options={enumOptions(SMS_JOB_KIND)} />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select allowClear placeholder="全部" style={{ width: 110 }} options={enumOptions(SMS_JOB_STATUS)} />
            </Form.Item>
          </>
        }
      />
      {editing && (
        <JobModal
          row={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      {starting && (
        <StartModal
          row={starting}
          onClose={() => setStarting(null)}
          onStarted={() => {
            setStarting(null);
            list.reload();
          }}
        />
      )}
    </>
  );
}

interface SettingForm {
  provider: 'sandbox' | 'aliyun';
  access_key_id: string;
  access_key_secret: string;
  sign_name: string;
  region: string;
  sandbox_fail_suffix: string;
}

function SettingsTab() {
  const qc = useQueryClient();
  const canEdit = useCanWrite(SMS_READERS);
  const setting = useQuery({ queryKey: SETTING_KEY, queryFn: () => call('smssetting', {}), retry: false });
  const [form] = Form.useForm<SettingForm>();
  const provider = Form.useWatch('provider', form);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null);
  const s = setting.data;
  useEffect(() => {
    if (s) form.setFieldsValue({ ...s, access_key_secret: '' });
  }, [s, form]);
  if (!s) return null;

  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const answer = await request('smssettingset', v);
      noticeSuccess(answer.return_msg);
      qc.setQueryData(SETTING_KEY, answer.data);
      form.setFieldValue('access_key_secret', '');
    } finally {
      setSaving(false);
    }
  };
  const runTest = async () => {
    setTesting(true);
    try {
      setTest(await call('smstest', {}));
      void setting.refetch();
    } finally {
      setTesting(false);
    }
  };

  return (
    <Form form={form} layout="vertical" style={{ maxWidth: 560 }} disabled={!canEdit} data-testid="sms-settings">
      <Form.Item name="provider" label="短信服务商">
        <Radio.Group options={enumOptions(SMS_PROVIDER)} />
      </Form.Item>
      {provider === 'aliyun' && (
        <>
          <Form.Item name="access_key_id" label="AccessKey ID" rules={[{ required: true, message: '请输入 AccessKey ID' }]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="access_key_secret"
            label="AccessKey Secret"
            extra={s.secret_masked ? `已保存 ${s.secret_masked}（更新于 ${s.update_time}），留空则不修改` : '加密保存，保存后只显示后四位'}
          >
            <Input.Password autoComplete="new-password" placeholder={s.secret_masked ? '留空则不修改' : ''} />
          </Form.Item>
          <Form.Item name="sign_name" label="短信签名" rules={[{ required: true, message: '请输入短信签名' }]} extra="须已在阿里云审核通过">
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="region" label="地域">
            <Input placeholder="cn-hangzhou" />
          </Form.Item>
        </>
      )}
      {provider === 'sandbox' && (
        <>
          <Form.Item name="sign_name" label="短信签名（沙箱中显示）">
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item
            name="sandbox_fail_suffix"
            label="沙箱模拟失败的尾号"
            extra="以此结尾的号码在沙箱中发送失败，用于演练失败重发；留空为全部成功"
          >
            <Input maxLength={4} style={{ width: 120 }} />
          </Form.Item>
        </>
      )}
      <Space>
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="sms-settings-save">
          保存
        </Button>
        <Button loading={testing} onClick={() => void runTest()} data-testid="sms-settings-test">
          测试连接
        </Button>
      </Space>
      {(test || s.last_test_result) && (
        <Alert
          style={{ marginTop: 12 }}
          type={test ? (test.ok ? 'success' : 'error') : 'info'}
          showIcon
          message={test ? test.message : `上次测试 ${s.last_test_time}：${s.last_test_result}`}
          data-testid="sms-settings-test-result"
        />
      )}
    </Form>
  );
}

/**
 * 短信任务 (/setup/smsjob): jobs (new → preview the recipients and the count → start → the log),
 * the templates, the unsubscribe list and the provider settings, in tabs.
 */
export default function SmsJob() {
  return (
    <div data-testid="smsjob-root">
      <ProviderNotice />
      <Tabs
        destroyOnHidden
        items={[
          { key: 'jobs', label: '短信任务', children: <JobsTab /> },
          { key: 'templates', label: '短信模板', children: <ResourcePage resource={smsTemplate} title="短信模板" /> },
          { key: 'unsub', label: '退订名单', children: <ResourcePage resource={smsUnsub} title="退订名单" /> },
          { key: 'settings', label: '短信设置', children: <SettingsTab /> },
        ]}
      />
    </div>
  );
}
