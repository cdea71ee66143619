import { useEffect, useState } from 'react';
import { Button, DatePicker, Drawer, Form, Input, Select, Space, Tabs, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  LEASE_APPROVAL,
  LEASE_DEPOSIT_STATE,
  LEASE_EXPIRING_WINDOWS,
  LEASE_ROLES,
  LEASE_STATUS,
  leaseFlow,
  type LeaseRow,
} from '@wuye/contract/crm/leases';
import { call, request } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { useList } from '../../../api/useList';
import { Money, moneyColumn } from '../../../components/Money';
import TablePage, { useActionFixed } from '../../../components/TablePage';
import { TextPromptModal } from '../../../components/TextPromptModal';
import { EnumTag, WorkflowActions, WorkflowTimeline, rangePickerPresets, useCanWrite, useSmallList } from '../../../components/resource';
import { DaysLeft, LeaseDescriptions, LeaseStatusTags, ScheduleTable, ScheduleTotals } from './parts';

interface Filters {
  keyword?: string;
  status?: string;
  approval_status?: string;
  bid?: number;
  expiring?: number;
  end?: [Dayjs, Dayjs] | null;
}

const wire = (v: Filters) => ({
  keyword: v.keyword?.trim() || undefined,
  status: (v.status ?? '') as never,
  approval_status: (v.approval_status ?? '') as never,
  bid: v.bid ?? '',
  expiring: v.expiring ?? '',
  end_date: v.end?.[0] && v.end[1] ? ([v.end[0].format('YYYY-MM-DD'), v.end[1].format('YYYY-MM-DD')] as [string, string]) : '',
});

/** A lease's detail: its terms, its schedule with each period's bills, its log. */
export function LeaseDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const info = useQuery({ queryKey: ['leaseinfo', id], queryFn: () => call('leaseinfo', { id: id! }), enabled: !!id });
  const schedule = useQuery({ queryKey: ['leaseschedule', id], queryFn: () => call('leaseschedule', { id: id! }), enabled: !!id });
  const log = useQuery({ queryKey: ['leaselog', id], queryFn: () => call('leaselog', { id: id! }), enabled: !!id });
  return (
    <Drawer
      open={!!id}
      onClose={onClose}
      size="large"
      title={info.data ? `租约 ${info.data.lease_no}` : '租约详情'}
      destroyOnHidden
      data-testid="lease-drawer"
    >
      {info.data && (
        <Tabs
          items={[
            { key: 'info', label: '基本信息', children: <LeaseDescriptions lease={info.data} /> },
            {
              key: 'schedule',
              label: '租金计划',
              children: schedule.data && (
                <Space orientation="vertical" style={{ width: '100%' }}>
                  <ScheduleTotals schedule={schedule.data} monthly={schedule.data.monthly_rent} />
                  <ScheduleTable schedule={schedule.data} testId="lease-schedule-table" />
                </Space>
              ),
            },
            { key: 'log', label: '处理记录', children: <WorkflowTimeline flow={leaseFlow} items={log.data?.items ?? []} /> },
          ]}
        />
      )}
    </Drawer>
  );
}

/**
 * /crm/leaselist (租赁合同; docs/product.md#crm-leases): the leases with their rooms, term, rent,
 * deposit, arrears and both statuses; filters by keyword, status, approval, building, expiry window
 * and end date; export. Each row opens its detail (schedule, bills, log) and offers what its state
 * allows: edit and submit a draft, void it, renew or check out a lease in force.
 */
export default function LeaseList() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const initialExpiring = Number(params.get('expiring')) || undefined;
  const list = useList('leaselist', { sort: 'desc', expiring: initialExpiring ?? '' });
  const actionFixed = useActionFixed();
  const canWrite = useCanWrite(LEASE_ROLES.write);
  const canApprove = useCanWrite(LEASE_ROLES.approve);
  const buildings = useSmallList('building_small_list', {});
  const [viewing, setViewing] = useState<number | null>(Number(params.get('id')) || null);
  const [voiding, setVoiding] = useState<LeaseRow | null>(null);

  // a to-do's link (/crm/leaselist?id=) opens that lease
  useEffect(() => {
    const id = Number(params.get('id')) || null;
    if (id) setViewing(id);
  }, [params]);
  const close = () => {
    setViewing(null);
    if (params.get('id')) {
      params.delete('id');
      setParams(params, { replace: true });
    }
  };

  const columns: TableColumnsType<LeaseRow> = [
    { title: '租约编号', dataIndex: 'lease_no', width: 110, fixed: 'left' },
    {
      title: '租户',
      key: 'tenant',
      width: 190,
      render: (_, r) => (
        <Space orientation="vertical" size={0}>
          <span>
            {r.tenant_name} {r.tenant_kind === 'C' && <Tag>企业</Tag>}
          </span>
          <Typography.Text type="secondary">{[r.contact, r.mobile].filter(Boolean).join(' ')}</Typography.Text>
        </Space>
      ),
    },
    { title: '房屋', dataIndex: 'address', width: 200 },
    {
      title: '租期',
      key: 'term',
      width: 200,
      render: (_, r) => (
        <Space orientation="vertical" size={0}>
          <span>
            {r.start_date} 至 {r.end_date}
          </span>
          <DaysLeft row={r} />
        </Space>
      ),
    },
    moneyColumn('月租金', 'monthly_rent', { width: 110 }),
    { title: '付款周期', dataIndex: 'cycle_months_ch', width: 90 },
    {
      title: '押金（元）',
      key: 'deposit',
      width: 130,
      align: 'right',
      render: (_, r) => (
        <Space orientation="vertical" size={0} align="end">
          <Money value={r.deposit} />
          {r.deposit_state && <EnumTag enum={LEASE_DEPOSIT_STATE} value={r.deposit_state} />}
        </Space>
      ),
    },
    moneyColumn('欠租', 'overdue', {
      width: 100,
      render: (v: string) =>
        v === '0.00' ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <Typography.Text type="danger">
            <Money value={v} />
          </Typography.Text>
        ),
    }),
    { title: '状态', key: 'status', width: 130, render: (_, r) => <LeaseStatusTags row={r} /> },
    { title: '创建人', dataIndex: 'creator', width: 90 },
    {
      title: '操作',
      key: 'op',
      width: 250,
      fixed: actionFixed,
      render: (_, r) => (
        <Space size={0} wrap>
          <Button size="small" type="link" onClick={() => setViewing(r.id)} data-testid={`lease-view-${r.id}`}>
            详情
          </Button>
          {canWrite && r.status === 'D' && r.approval_status !== 'P' && (
            <Button size="small" type="link" onClick={() => void navigate(`/crm/leaseedit?id=${r.id}`)} data-testid={`lease-edit-${r.id}`}>
              编辑
            </Button>
          )}
          {canWrite && r.status === 'D' && r.approval_status !== 'P' && (
            <WorkflowActions flow={leaseFlow} row={r as never} resource="leaselist" onDone={() => list.reload()} />
          )}
          {canApprove && r.approval_status === 'P' && !r.mine && (
            <Button
              size="small"
              type="link"
              onClick={() => void navigate(`/crm/lease_approval_info?id=${r.id}`)}
              data-testid={`lease-goapprove-${r.id}`}
            >
              审批
            </Button>
          )}
          {canWrite && r.status === 'D' && (
            <Button size="small" type="link" danger onClick={() => setVoiding(r)} data-testid={`lease-void-${r.id}`}>
              作废
            </Button>
          )}
          {canWrite && ['Y', 'X', 'O'].includes(r.status) && !r.renewal_id && (
            <Button size="small" type="link" onClick={() => void navigate(`/crm/rerent?id=${r.id}`)} data-testid={`lease-rerent-${r.id}`}>
              续租
            </Button>
          )}
          {canWrite && ['Y', 'X', 'O'].includes(r.status) && (
            <Button
              size="small"
              type="link"
              danger
              onClick={() => void navigate(`/crm/signout?id=${r.id}`)}
              data-testid={`lease-signout-${r.id}`}
            >
              退租
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <TablePage<LeaseRow, Filters>
        testId="lease-page"
        title="租赁合同"
        list={list}
        columns={columns}
        rowKey="id"
        initialFilters={{ expiring: initialExpiring }}
        onSearch={(v) => list.setFilters({ sort: 'desc', ...wire(v) } as never)}
        onExport={(v) => runExport('leaseexport', { sort: 'desc', ...wire(v) } as never)}
        toolbar={
          canWrite && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/crm/leaseadd')} data-testid="lease-add">
              新增租约
            </Button>
          )
        }
        filters={
          <>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear maxLength={40} placeholder="编号、租户、手机号" style={{ width: 180 }} data-testid="lease-filter-keyword" />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 120 }} options={enumOptions(LEASE_STATUS)} data-testid="lease-filter-status" />
            </Form.Item>
            <Form.Item name="approval_status" label="审批">
              <Select allowClear style={{ width: 110 }} options={enumOptions(LEASE_APPROVAL)} data-testid="lease-filter-approval" />
            </Form.Item>
            <Form.Item name="bid" label="楼栋">
              <Select
                allowClear
                style={{ width: 120 }}
                options={buildings.options}
                loading={buildings.loading}
                data-testid="lease-filter-bid"
              />
            </Form.Item>
            <Form.Item name="expiring" label="到期">
              <Select
                allowClear
                style={{ width: 130 }}
                options={LEASE_EXPIRING_WINDOWS.map((d) => ({ value: d, label: `${d} 天内到期` }))}
                data-testid="lease-filter-expiring"
              />
            </Form.Item>
            <Form.Item name="end" label="到期日期">
              <DatePicker.RangePicker presets={rangePickerPresets()} inputReadOnly style={{ maxWidth: 260 }} />
            </Form.Item>
          </>
        }
      />
      <LeaseDrawer id={viewing} onClose={close} />
      <TextPromptModal<LeaseRow>
        open={!!voiding}
        title={voiding ? `作废租约 ${voiding.lease_no}` : ''}
        label="作废原因"
        required="请填写作废原因"
        maxLength={200}
        danger
        testIds={{ text: 'lease-void-reason', ok: 'lease-void-ok' }}
        send={(reason) => request('leasevoid', { id: voiding!.id, reason })}
        onDone={() => {
          setVoiding(null);
          list.reload();
        }}
        onCancel={() => setVoiding(null)}
      >
        <Typography.Paragraph type="secondary">作废后不能恢复；已生效的租约须办理退租。</Typography.Paragraph>
      </TextPromptModal>
    </>
  );
}
