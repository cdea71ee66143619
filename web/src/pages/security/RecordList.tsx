import { useState } from 'react';
import { Button, DatePicker, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import type { Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { TASK_STATUS, type PatrolTaskRow, type TaskStatus } from '@wuye/contract';
import { request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, useSmallList } from '../../components/resource';

interface Filters {
  plan_id?: number;
  guard_id?: number;
  status?: TaskStatus;
  day?: [Dayjs, Dayjs] | null;
  flag?: 'missed' | 'abnormal';
}
const toPayload = (f: Filters) => ({
  plan_id: f.plan_id ?? ('' as const),
  guard_id: f.guard_id ?? ('' as const),
  status: f.status ?? ('' as const),
  flag: f.flag ?? ('' as const),
  day: f.day ? ([f.day[0].format('YYYY-MM-DD'), f.day[1].format('YYYY-MM-DD')] as [string, string]) : ('' as const),
});

/**
 * /security/patrolrecordlist (巡更记录; docs/product.md#patrols): the tasks with their completion
 * (n of m points), missed points by name, abnormal and late counts; filters, export; a task's
 * details and corrections on /security/patrolrecordedit; a running task handed to another guard
 * with a reason.
 */
export default function RecordList() {
  const navigate = useNavigate();
  const list = useList('patroltasklist', { sort: 'desc' });
  const plans = useSmallList('patrolplan_small_list', {});
  const guards = useSmallList('patrol_guard_small_list', {});
  const [transfer, setTransfer] = useState<PatrolTaskRow | null>(null);
  const [to, setTo] = useState<number>();
  const [reason, setReason] = useState('');
  const [filters, setFilters] = useState<Filters>({});

  const doTransfer = async () => {
    if (!transfer || !to) return;
    try {
      const answer = await request('patroltasktransfer', { id: transfer.id, account_id: to, reason });
      noticeSuccess(answer.return_msg ?? '已流转');
      setTransfer(null);
      list.reload();
    } catch {
      // toasted by the client
    }
  };

  const columns: TableColumnsType<PatrolTaskRow> = [
    { title: '任务编号', dataIndex: 'no', width: 100, fixed: 'left' },
    { title: '计划', dataIndex: 'plan_name', width: 130 },
    { title: '时段', dataIndex: 'window_text', width: 170 },
    {
      title: '巡更人',
      dataIndex: 'current_guard_name',
      width: 120,
      render: (v: string, r) => (r.guard_id === r.current_guard_id ? v : `${v}（原 ${r.guard_name}）`),
    },
    { title: '状态', dataIndex: 'status', width: 90, render: (v: TaskStatus) => <EnumTag enum={TASK_STATUS} value={v} /> },
    { title: '完成', dataIndex: 'completion', width: 70, render: (v: string) => <b data-testid="task-completion">{v}</b> },
    {
      title: '漏巡',
      dataIndex: 'missed_names',
      width: 180,
      render: (v: string) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : ''),
    },
    { title: '异常', dataIndex: 'abnormal_count', width: 60, render: (v: number) => (v ? <Tag color="error">{v}</Tag> : 0) },
    { title: '迟到', dataIndex: 'late_count', width: 60 },
    { title: '流转原因', dataIndex: 'transfer_reason', width: 120 },
    {
      title: '操作',
      key: 'op',
      width: 130,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button
            size="small"
            type="link"
            onClick={() => void navigate(`/security/patrolrecordedit?id=${r.id}`)}
            data-testid={`task-detail-${r.id}`}
          >
            详情
          </Button>
          {(r.status === 'W' || r.status === 'D') && (
            <Button
              size="small"
              type="link"
              onClick={() => {
                setTransfer(r);
                setTo(undefined);
                setReason('');
              }}
              data-testid={`task-transfer-${r.id}`}
            >
              流转
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <TablePage<PatrolTaskRow, Filters>
        testId="patrolrecord-page"
        title="巡更记录"
        list={list}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 1200 } }}
        onSearch={(f) => {
          setFilters(f);
          list.setFilters({ sort: 'desc', ...toPayload(f) });
        }}
        onExport={() => runExport('patroltaskexport', { ...toPayload(filters) })}
        filters={
          <>
            <Form.Item name="plan_id" label="计划">
              <Select allowClear style={{ width: 140 }} options={plans.items.map((p) => ({ value: p.id, label: p.title }))} />
            </Form.Item>
            <Form.Item name="guard_id" label="巡更人">
              <Select allowClear style={{ width: 120 }} options={guards.items.map((g) => ({ value: g.id, label: g.title }))} />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 110 }} options={enumOptions(TASK_STATUS)} data-testid="task-filter-status" />
            </Form.Item>
            <Form.Item name="flag" label="情况">
              <Select
                allowClear
                style={{ width: 110 }}
                options={[
                  { value: 'missed', label: '有漏巡' },
                  { value: 'abnormal', label: '有异常' },
                ]}
              />
            </Form.Item>
            <Form.Item name="day" label="日期">
              <DatePicker.RangePicker />
            </Form.Item>
          </>
        }
      />
      <Modal
        open={transfer !== null}
        title={transfer ? `流转任务 ${transfer.no}` : ''}
        onCancel={() => setTransfer(null)}
        onOk={() => void doTransfer()}
        okButtonProps={{ disabled: !to || !reason.trim(), 'data-testid': 'transfer-ok' } as never}
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item label="交给" required>
            <Select
              value={to}
              onChange={setTo}
              options={guards.items.filter((g) => g.id !== transfer?.current_guard_id).map((g) => ({ value: g.id, label: g.title }))}
              data-testid="transfer-to"
            />
          </Form.Item>
          <Form.Item label="原因" required>
            <Input.TextArea value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} data-testid="transfer-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
