import { useState } from 'react';
import {
  App,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Popover,
  Select,
  Space,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { useSearchParams } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { ACTIVITY_PHASE, SIGNUP_PAY_STATUS, SIGNUP_STATUS, type ActivityField, type ActivityItem, type SignupItem } from '@wuye/contract';
import { request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { moneyColumn } from '../../components/Money';
import { PhotosInput } from '../../components/PhotosInput';
import QrImage from '../../components/QrImage';
import { EnumTag, MembersSelect, RoomField } from '../../components/resource';
import { validValues } from '../../utils/forms';
import { ShortOfMinimum } from './shared';

interface Filters {
  status?: string;
  pay_status?: string;
  keyword?: string;
}

const toFilters = (id: number, v: Filters) => ({
  id,
  status: (v.status || undefined) as never,
  pay_status: (v.pay_status || undefined) as never,
  keyword: v.keyword || undefined,
});

/** An answer as text (a list of choices joined). */
export const answerText = (v: unknown) => (v === undefined || v === null ? '' : Array.isArray(v) ? v.join('、') : String(v));

function AnswersView({ fields, s }: { fields: ActivityField[]; s: SignupItem }) {
  if (!fields.length) return <Typography.Text type="secondary">无表单</Typography.Text>;
  return (
    <Descriptions size="small" column={1} bordered style={{ maxWidth: 360 }}>
      {fields.map((f) => (
        <Descriptions.Item key={f.id} label={f.label}>
          {f.type === 'image' && s.answers[f.id] ? (
            <img src={String(s.answers[f.id])} alt={f.label} style={{ maxWidth: 120 }} />
          ) : (
            answerText(s.answers[f.id])
          )}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

/** The input of one question of the activity's form. */
function AnswerInput({ field }: { field: ActivityField }) {
  const testId = `join-answer-${field.id}`;
  switch (field.type) {
    case 'textarea':
      return <Input.TextArea maxLength={500} autoSize={{ minRows: 2 }} data-testid={testId} />;
    case 'radio':
      return <Select options={field.options.map((o) => ({ value: o, label: o }))} data-testid={testId} />;
    case 'checkbox':
      return <Select mode="multiple" options={field.options.map((o) => ({ value: o, label: o }))} data-testid={testId} />;
    case 'number':
      return <InputNumber style={{ width: 160 }} data-testid={testId} />;
    case 'date':
      return <DatePicker data-testid={testId} />;
    case 'image':
      return <PhotosInput max={1} testId={testId} />;
    default:
      return <Input maxLength={field.type === 'text' ? 100 : 30} data-testid={testId} />;
  }
}

interface JoinForm {
  hid?: number;
  member_id?: number;
  companions: number;
  answers: Record<string, unknown>;
}

/** 代报名: a resident of a room picked at the counter, with the companions and the form's answers. */
function JoinModal({
  activity,
  open,
  onClose,
  onDone,
}: {
  activity: ActivityItem;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<JoinForm>();
  const [busy, setBusy] = useState(false);
  const hid = Form.useWatch('hid', form);
  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    const answers: Record<string, string | number | string[]> = {};
    for (const f of activity.form) {
      const a = v.answers?.[f.id];
      if (a === undefined || a === null || a === '') continue;
      if (f.type === 'date') answers[f.id] = (a as { format: (s: string) => string }).format('YYYY-MM-DD');
      else if (f.type === 'image') {
        if ((a as string[]).length) answers[f.id] = (a as string[])[0]!;
      } else answers[f.id] = a as string | number | string[];
    }
    setBusy(true);
    try {
      const answer = await request('signupjoin', {
        activity_id: activity.id,
        hid: v.hid!,
        member_id: v.member_id!,
        companions: v.companions ?? 0,
        answers,
      });
      noticeSuccess(answer.return_msg);
      form.resetFields();
      onDone();
    } catch {
      // toasted by the client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={`代住户报名：${activity.title}`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="报名"
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'join-ok' } as never}
      destroyOnHidden
      width={560}
    >
      <Form form={form} layout="vertical" initialValues={{ companions: 0, answers: {} }}>
        <Form.Item name="hid" label="房屋" rules={[{ required: true, message: '请选择房屋' }]}>
          <RoomField testId="join-room" />
        </Form.Item>
        <Form.Item name="member_id" label="报名人" rules={[{ required: true, message: '请选择报名人' }]}>
          <MembersSelect hid={hid} testId="join-member" />
        </Form.Item>
        {activity.join_mode === 'household' && (
          <Form.Item name="companions" label={`同行人数（最多 ${activity.companions_max} 人）`}>
            <InputNumber min={0} max={activity.companions_max} precision={0} data-testid="join-companions" />
          </Form.Item>
        )}
        {activity.form.map((f) => (
          <Form.Item
            key={f.id}
            name={['answers', f.id]}
            label={f.label}
            rules={f.required === 'Y' ? [{ required: true, message: `请填写「${f.label}」` }] : []}
          >
            <AnswerInput field={f} />
          </Form.Item>
        ))}
        {activity.is_pay === 'Y' && (
          <Typography.Text type="secondary">
            收费 ¥{activity.price}：报名后生成房屋的活动费账单，请在 {activity.pay_minutes} 分钟内到收银台缴费，否则名额释放。
          </Typography.Text>
        )}
      </Form>
    </Modal>
  );
}

/**
 * 报名名单 (/service/signup_userlist?id=; docs/product.md#activities): the activity's sign-ups with
 * their state (候补 with its place), payment and answers; filters; sign up a resident at the
 * counter; approve or refuse, cancel (refund by the rule or in full), check in (the sign-up's QR
 * code scanned or typed at the door), promote a waiting one, confirm an offered seat; export.
 */
export default function SignupUserList() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const { modal } = App.useApp();
  const initial: Filters = { status: params.get('status') || undefined };
  const list = useList('signupuserlist', toFilters(id, initial), { enabled: id > 0 });
  const [form] = Form.useForm<Filters>();
  const [joining, setJoining] = useState(false);
  const [code, setCode] = useState('');
  const activity = list.answer?.activity;
  const counts = list.answer?.counts;

  const act = async (p: Promise<{ return_msg: string }>) => {
    try {
      noticeSuccess((await p).return_msg);
      list.reload();
    } catch {
      // toasted by the client
    }
  };
  const cancel = (s: SignupItem) => {
    let full = false;
    modal.confirm({
      title: `取消 ${s.realname} 的报名？`,
      content:
        s.pay_status === 'Y' ? (
          <Space direction="vertical">
            <span>
              已付款 ¥{s.amount}：按活动的退款规则（{activity?.refund_rule_ch}）提交退款申请。
            </span>
            <Checkbox onChange={(e) => (full = e.target.checked)} data-testid="signup-cancel-full">
              全额退款（不按规则扣手续费）
            </Checkbox>
          </Space>
        ) : (
          '取消后名额让给候补。'
        ),
      okButtonProps: { danger: true, 'data-testid': 'signup-cancel-ok' } as never,
      onOk: () => act(request('signupcancel', { id: s.id, reason: '工作人员取消', force_full: full ? 'Y' : 'N' })),
    });
  };
  const checkin = async () => {
    if (!code.trim()) return;
    await act(request('signupcheckin', { activity_id: id, code: code.trim() }));
    setCode('');
  };

  const columns: TableColumnsType<SignupItem> = [
    { title: '报名号', dataIndex: 'no', width: 120 },
    { title: '姓名', dataIndex: 'realname', width: 90 },
    { title: '手机', dataIndex: 'mobile', width: 120 },
    { title: '房屋', dataIndex: 'address', width: 180, ellipsis: true },
    { title: '人数', dataIndex: 'people', width: 60 },
    { title: '报名时间', key: 'ct', width: 150, render: (_, s) => s.create_time.slice(0, 16) },
    {
      title: '状态',
      key: 'status',
      width: 130,
      render: (_, s) => (
        <span data-testid={`signup-status-${s.id}`}>
          <EnumTag enum={SIGNUP_STATUS} value={s.status} />
          {s.status === 'W' && <Typography.Text>{s.status_ch.replace('候补', '')}</Typography.Text>}
        </span>
      ),
    },
    {
      title: '支付',
      key: 'pay',
      width: 160,
      render: (_, s) => (
        <span
          data-testid={`signup-pay-${s.id}`}
          style={{ display: 'inline-flex', flexDirection: 'column', alignItems: 'flex-start', gap: 2 }}
        >
          <EnumTag enum={SIGNUP_PAY_STATUS} value={s.pay_status} />
          {s.status === 'P' && s.pay_deadline && (
            <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap', fontSize: 12 }}>
              {s.pay_deadline.slice(5, 16)} 前支付
            </Typography.Text>
          )}
        </span>
      ),
    },
    moneyColumn('金额', 'amount'),
    {
      title: '表单',
      key: 'answers',
      width: 70,
      render: (_, s) =>
        activity?.form.length ? (
          <Popover content={<AnswersView fields={activity.form} s={s} />} trigger="click">
            <Button type="link" size="small">
              查看
            </Button>
          </Popover>
        ) : (
          '—'
        ),
    },
    {
      title: '签到码',
      key: 'qr',
      width: 80,
      render: (_, s) =>
        s.status === 'Y' || s.status === 'S' ? (
          <Popover content={<QrImage text={s.no} size={160} />} trigger="click">
            <Button type="link" size="small">
              二维码
            </Button>
          </Popover>
        ) : (
          '—'
        ),
    },
    {
      title: '操作',
      key: 'op',
      width: 240,
      fixed: 'right',
      render: (_, s) => (
        <Space size={0} wrap>
          {s.status === 'R' && (
            <>
              <Button
                type="link"
                size="small"
                onClick={() => void act(request('signupapprove', { id: s.id, approve: 'Y' }))}
                data-testid={`signup-approve-${s.id}`}
              >
                通过
              </Button>
              <Button
                type="link"
                size="small"
                danger
                onClick={() => void act(request('signupapprove', { id: s.id, approve: 'N' }))}
                data-testid={`signup-refuse-${s.id}`}
              >
                拒绝
              </Button>
            </>
          )}
          {(s.status === 'Y' || s.status === 'A') && (
            <Button
              type="link"
              size="small"
              onClick={() => void act(request('signupcheckin', { activity_id: id, id: s.id }))}
              data-testid={`signup-checkin-${s.id}`}
            >
              签到
            </Button>
          )}
          {s.status === 'W' && !s.offer_expires_at && (
            <Button
              type="link"
              size="small"
              onClick={() => void act(request('signuppromote', { id: s.id }))}
              data-testid={`signup-promote-${s.id}`}
            >
              递补
            </Button>
          )}
          {s.status === 'W' && s.offer_expires_at && (
            <Button
              type="link"
              size="small"
              onClick={() => void act(request('signupconfirm', { id: s.id }))}
              data-testid={`signup-confirm-${s.id}`}
            >
              确认名额
            </Button>
          )}
          {['P', 'R', 'Y', 'W'].includes(s.status) && (
            <Button type="link" size="small" danger onClick={() => cancel(s)} data-testid={`signup-cancel-${s.id}`}>
              取消
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      {activity && (
        <Card size="small" style={{ marginBottom: 12 }} data-testid="signup-activity">
          <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
            <Descriptions.Item label="活动">{activity.title}</Descriptions.Item>
            <Descriptions.Item label="阶段">
              <Space size={4} wrap>
                <EnumTag enum={ACTIVITY_PHASE} value={activity.phase} />
                <ShortOfMinimum activity={activity} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="名额">
              <span data-testid="signup-seats">
                {activity.totle_num}/{activity.limit_num || '不限'}
                {activity.waiting_num > 0 ? `，候补 ${activity.waiting_num}` : ''}
              </span>
              {activity.min_num > 0 && <Typography.Text type="secondary">（最少成团 {activity.min_num} 人）</Typography.Text>}
            </Descriptions.Item>
            <Descriptions.Item label="收费">
              {activity.is_pay === 'Y' ? `¥${activity.price}（${activity.refund_rule_ch}）` : '免费'}
            </Descriptions.Item>
            <Descriptions.Item label="活动时间">
              {activity.event_start_time.slice(0, 16)} 至 {activity.event_end_time.slice(0, 16)}
            </Descriptions.Item>
            <Descriptions.Item label="人数">
              {counts
                ? Object.entries(counts)
                    .filter(([, n]) => n > 0)
                    .map(([k, n]) => `${SIGNUP_STATUS[k as keyof typeof SIGNUP_STATUS].text} ${n}`)
                    .join('，')
                : ''}
            </Descriptions.Item>
          </Descriptions>
        </Card>
      )}
      <TablePage<SignupItem, Filters>
        testId="signup-page"
        form={form}
        initialFilters={initial}
        list={list}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 1700 } }}
        onSearch={(v) => list.setFilters(toFilters(id, v))}
        onExport={(v) => runExport('signupuserexport', toFilters(id, v))}
        toolbar={
          <Space wrap>
            {activity && activity.phase === 'open' && activity.status === 'Y' && (
              <Button type="primary" onClick={() => setJoining(true)} data-testid="signup-join">
                代住户报名
              </Button>
            )}
            <Input.Search
              placeholder="扫描或输入报名码签到"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              onSearch={() => void checkin()}
              enterButton="签到"
              style={{ width: 260 }}
              maxLength={40}
              data-testid="signup-checkin-code"
            />
          </Space>
        }
        filters={
          <>
            <Form.Item name="status" label="状态">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 110 }}
                options={enumOptions(SIGNUP_STATUS)}
                data-testid="signup-filter-status"
              />
            </Form.Item>
            <Form.Item name="pay_status" label="支付">
              <Select allowClear placeholder="全部" style={{ width: 110 }} options={enumOptions(SIGNUP_PAY_STATUS)} />
            </Form.Item>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear placeholder="姓名、手机、房屋、报名号" style={{ width: 200 }} maxLength={30} />
            </Form.Item>
          </>
        }
      />
      {activity && (
        <JoinModal activity={activity} open={joining} onClose={() => setJoining(false)} onDone={() => (setJoining(false), list.reload())} />
      )}
    </>
  );
}
