import { App, Button, DatePicker, Form, Input, Select, Space, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useNavigate, useSearchParams } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { ACTIVITY_PHASE, ACTIVITY_SALE, type ActivityItem } from '@wuye/contract';
import { ShortOfMinimum } from './shared';
import { request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { moneyColumn } from '../../components/Money';
import { EnumTag } from '../../components/resource';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { TextPromptModal } from '../../components/TextPromptModal';
import { useState } from 'react';

interface Filters {
  title?: string;
  phase?: string;
  is_pay?: string;
  status?: string;
  dates?: [Dayjs, Dayjs] | null;
}

const toFilters = (v: Filters) => ({
  title: v.title || undefined,
  phase: (v.phase || undefined) as never,
  is_pay: (v.is_pay || undefined) as never,
  status: (v.status || undefined) as never,
  event_from: v.dates?.[0]?.format('YYYY-MM-DD'),
  event_to: v.dates?.[1]?.format('YYYY-MM-DD'),
});

const span = (a: string, b: string) => `${a.slice(0, 16)} 至 ${b.slice(0, 16)}`;

/**
 * 活动报名 (/service/signuplist; docs/product.md#activities): the activities with seats taken,
 * waiting, checked in, price and takings, 上架/下架 and the phase from the windows; add, edit,
 * 上架/下架, the sign-ups (signup_userlist), the form answers (signup_form_show), cancel (refunds
 * every paid sign-up in full), delete (none signed up), export.
 */
export default function ActivityList() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  // the home page's activities card opens the list at ?phase=open
  const [params] = useSearchParams();
  const initial: Filters = { phase: params.get('phase') || undefined };
  const list = useList('signuplist', toFilters(initial));
  const confirmDelete = useConfirmDelete();
  const [form] = Form.useForm<Filters>();
  const [cancelling, setCancelling] = useState<ActivityItem | null>(null);

  const toggle = (a: ActivityItem) =>
    modal.confirm({
      title: a.status === 'Y' ? `下架“${a.title}”？` : `上架“${a.title}”？`,
      content: a.status === 'Y' ? '下架后不能再报名，已报名的不受影响。' : '上架后在报名时间内可以报名。',
      okButtonProps: { 'data-testid': 'activity-status-ok' } as never,
      onOk: async () => {
        const answer = await request('signupstatus', { id: a.id, status: a.status === 'Y' ? 'N' : 'Y' });
        noticeSuccess(answer.return_msg);
        list.reload();
      },
    });
  const del = (a: ActivityItem) =>
    confirmDelete(async () => {
      const answer = await request('signupdel', { id: a.id });
      noticeSuccess(answer.return_msg);
      list.reload();
    });

  const columns: TableColumnsType<ActivityItem> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: '标题', dataIndex: 'title', width: 180, ellipsis: true },
    { title: '人数上限', key: 'limit', width: 90, render: (_, a) => (a.limit_num ? a.limit_num : '不限') },
    {
      title: '已报名',
      key: 'taken',
      width: 110,
      render: (_, a) => (
        <span data-testid={`activity-taken-${a.id}`}>
          {a.totle_num}
          {a.waiting_num > 0 && <Typography.Text type="secondary">（候补 {a.waiting_num}）</Typography.Text>}
        </span>
      ),
    },
    { title: '签到', dataIndex: 'checked_num', width: 70 },
    { title: '参与方式', key: 'join', width: 140, render: (_, a) => `${a.join_mode_ch}·${a.join_type_ch}` },
    { title: '是否收费', key: 'pay', width: 100, render: (_, a) => (a.is_pay === 'Y' ? `收费 ¥${a.price}` : '免费') },
    moneyColumn('已收', 'paid_amount'),
    {
      title: '状态',
      key: 'status',
      width: 80,
      render: (_, a) => <EnumTag enum={ACTIVITY_SALE} value={a.status} />,
    },
    {
      title: '阶段',
      key: 'phase',
      width: 100,
      render: (_, a) => (
        <Space size={4} wrap data-testid={`activity-phase-${a.id}`}>
          <EnumTag enum={ACTIVITY_PHASE} value={a.phase} />
          <ShortOfMinimum activity={a} />
        </Space>
      ),
    },
    { title: '报名时间', key: 'signup', width: 270, render: (_, a) => span(a.start_time, a.end_time) },
    { title: '活动时间', key: 'event', width: 270, render: (_, a) => span(a.event_start_time, a.event_end_time) },
    { title: '创建人', dataIndex: 'create_user', width: 90 },
    { title: '创建时间', key: 'ct', width: 150, render: (_, a) => a.create_time.slice(0, 16) },
    {
      title: '操作',
      key: 'op',
      width: 300,
      fixed: 'right',
      render: (_, a) => {
        const live = a.phase !== 'cancelled';
        return (
          <Space size={0} wrap>
            <Button
              type="link"
              size="small"
              onClick={() => void navigate(`/service/signup_userlist?id=${a.id}`)}
              data-testid={`activity-users-${a.id}`}
            >
              报名名单
            </Button>
            <Button
              type="link"
              size="small"
              onClick={() => void navigate(`/service/signup_form_show?id=${a.id}`)}
              data-testid={`activity-form-${a.id}`}
            >
              表单数据
            </Button>
            {live && (
              <Button
                type="link"
                size="small"
                onClick={() => void navigate(`/service/signup_edit?id=${a.id}`)}
                data-testid={`activity-edit-${a.id}`}
              >
                编辑
              </Button>
            )}
            {live && (
              <Button type="link" size="small" onClick={() => toggle(a)} data-testid={`activity-toggle-${a.id}`}>
                {a.status === 'Y' ? '下架' : '上架'}
              </Button>
            )}
            {live && a.phase !== 'ended' && (
              <Button type="link" size="small" danger onClick={() => setCancelling(a)} data-testid={`activity-cancel-${a.id}`}>
                取消活动
              </Button>
            )}
            {a.totle_num === 0 && a.waiting_num === 0 && (
              <Button type="link" size="small" danger onClick={() => del(a)} data-testid={`activity-del-${a.id}`}>
                删除
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <TablePage<ActivityItem, Filters>
        testId="activity-page"
        form={form}
        list={list}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 2100 } }}
        initialFilters={initial}
        onSearch={(v) => list.setFilters(toFilters(v))}
        onExport={(v) => runExport('signupexport', toFilters(v))}
        toolbar={
          <Button type="primary" onClick={() => void navigate('/service/signup_add')} data-testid="activity-add">
            新增活动
          </Button>
        }
        filters={
          <>
            <Form.Item name="title" label="标题">
              <Input allowClear style={{ width: 160 }} maxLength={50} data-testid="activity-filter-title" />
            </Form.Item>
            <Form.Item name="phase" label="阶段">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 120 }}
                options={enumOptions(ACTIVITY_PHASE)}
                data-testid="activity-filter-phase"
              />
            </Form.Item>
            <Form.Item name="is_pay" label="是否收费">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 100 }}
                options={[
                  { value: 'Y', label: '收费' },
                  { value: 'N', label: '免费' },
                ]}
              />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select allowClear placeholder="全部" style={{ width: 100 }} options={enumOptions(ACTIVITY_SALE)} />
            </Form.Item>
            <Form.Item name="dates" label="活动时间">
              <DatePicker.RangePicker inputReadOnly allowClear style={{ maxWidth: 260 }} />
            </Form.Item>
          </>
        }
      />
      <TextPromptModal
        open={!!cancelling}
        title={cancelling ? `取消活动“${cancelling.title}”` : ''}
        label="取消原因"
        required="请填写取消原因"
        maxLength={200}
        danger
        testIds={{ text: 'activity-cancel-reason', ok: 'activity-cancel-ok' }}
        send={(reason) => request('signupcancelactivity', { id: cancelling!.id, reason })}
        onDone={() => {
          setCancelling(null);
          list.reload();
        }}
        onCancel={() => setCancelling(null)}
      >
        取消后所有报名一并取消：已付款的全额退款（提交退款申请，待财务审核），未付款的账单作废。
      </TextPromptModal>
    </>
  );
}
