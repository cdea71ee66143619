import { useState } from 'react';
import { Button, Card, Col, Form, Input, Modal, Progress, Row, Select, Space, Statistic, Tabs, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  LEASE_EXPIRING_WINDOWS,
  LEASE_OCCUPANCY_STATE,
  LEASE_ROLES,
  type LeaseOccupancyRow,
  type LeaseOverdueRow,
  type LeaseRow,
} from '@wuye/contract/crm/leases';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { runExport } from '../../../api/exportJob';
import { useList } from '../../../api/useList';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';
import TablePage from '../../../components/TablePage';
import { EnumTag, useCanWrite } from '../../../components/resource';
import { LeaseDrawer } from './LeaseList';
import { DaysLeft } from './parts';

function Expiring() {
  const report = useQuery({ queryKey: ['leasereport'], queryFn: () => call('leasereport', {}) });
  const [days, setDays] = useState<number>(30);
  const list = useList('leaselist', { sort: 'asc', expiring: days });
  const [viewing, setViewing] = useState<number | null>(null);
  const columns: TableColumnsType<LeaseRow> = [
    { title: '租约编号', dataIndex: 'lease_no', width: 110 },
    { title: '租户', dataIndex: 'tenant_name', width: 180 },
    { title: '房屋', dataIndex: 'address', width: 200 },
    {
      title: '到期日',
      key: 'end',
      width: 170,
      render: (_, r) => (
        <Space size={4}>
          {r.end_date}
          <DaysLeft row={r} />
        </Space>
      ),
    },
    moneyColumn('月租金', 'monthly_rent', { width: 110 }),
    { title: '状态', dataIndex: 'status_ch', width: 90 },
    {
      title: '续租',
      key: 'renewal',
      width: 110,
      render: (_, r) =>
        r.renewal_no ? <Tag color="blue">{r.renewal_no}</Tag> : <Typography.Text type="secondary">未续租</Typography.Text>,
    },
    {
      title: '操作',
      key: 'op',
      width: 80,
      render: (_, r) => (
        <Button size="small" type="link" onClick={() => setViewing(r.id)}>
          详情
        </Button>
      ),
    },
  ];
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Row gutter={[16, 16]}>
        {(report.data?.expiring ?? LEASE_EXPIRING_WINDOWS.map((d) => ({ days: d, count: 0, monthly_rent: '0.00' }))).map((e) => (
          <Col xs={24} sm={8} key={e.days}>
            <Card
              size="small"
              hoverable
              onClick={() => {
                setDays(e.days);
                list.setFilters({ sort: 'asc', expiring: e.days });
              }}
              style={{ borderColor: days === e.days ? '#1677ff' : undefined }}
              data-testid={`lease-expiring-${e.days}`}
            >
              <Statistic title={`${e.days} 天内到期`} value={e.count} suffix="份" />
              <Typography.Text type="secondary">月租金合计 {e.monthly_rent} 元</Typography.Text>
            </Card>
          </Col>
        ))}
      </Row>
      <TablePage<LeaseRow> testId="lease-expiring-table" title={`${days} 天内到期的租约`} list={list} columns={columns} rowKey="id" />
      <LeaseDrawer id={viewing} onClose={() => setViewing(null)} />
    </Space>
  );
}

function Occupancy() {
  const report = useQuery({ queryKey: ['leasereport'], queryFn: () => call('leasereport', {}) });
  const list = useList('leaseoccupancylist', {});
  const canWrite = useCanWrite(LEASE_ROLES.write);
  const navigate = useNavigate();
  const [marking, setMarking] = useState(false);
  const [keyword, setKeyword] = useState('');
  const [room, setRoom] = useState<number | null>(null);
  const rooms = useQuery({
    queryKey: ['lease_room_small_list', keyword],
    queryFn: () => call('lease_room_small_list', { keyword, hids: [] }),
    enabled: marking,
  });
  const mark = async (hid: number, rentable: 'Y' | 'N') => {
    const a = await request('leaserentableset', { hid, rentable });
    noticeSuccess(a.return_msg);
    list.reload();
    void report.refetch();
  };
  const o = report.data?.occupancy;
  const columns: TableColumnsType<LeaseOccupancyRow> = [
    { title: '房屋', dataIndex: 'address', width: 200 },
    { title: '类型', dataIndex: 'category', width: 80 },
    { title: '面积（㎡）', dataIndex: 'area', width: 100, align: 'right' },
    { title: '出租状态', dataIndex: 'state', width: 90, render: (v: string) => <EnumTag enum={LEASE_OCCUPANCY_STATE} value={v} /> },
    { title: '租约', dataIndex: 'lease_no', width: 100 },
    { title: '租户', dataIndex: 'tenant_name', width: 180 },
    { title: '到期日', dataIndex: 'end_date', width: 110 },
    moneyColumn('月租金', 'monthly_rent', { width: 110 }),
    {
      title: '操作',
      key: 'op',
      width: 150,
      render: (_, r) => (
        <Space size={0} wrap>
          {canWrite && r.state === 'vacant' && (
            <Button size="small" type="link" onClick={() => void navigate('/crm/leaseadd')}>
              新增租约
            </Button>
          )}
          {canWrite && r.marked && (
            <Button size="small" type="link" onClick={() => void mark(r.hid, 'N')} data-testid={`lease-unmark-${r.hid}`}>
              取消标记
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <Space size="large" wrap data-testid="lease-occupancy-figures">
          <Statistic title="可出租房屋" value={o?.rooms ?? 0} suffix="间" />
          <Statistic title="在租" value={o?.leased ?? 0} suffix="间" />
          <Statistic title="可出租面积" value={o?.area ?? '0.00'} suffix="㎡" />
          <Statistic title="在租面积" value={o?.leased_area ?? '0.00'} suffix="㎡" />
          <div style={{ minWidth: 160 }}>
            <Typography.Text type="secondary">出租率（按间）</Typography.Text>
            <Progress percent={Number(o?.rate ?? 0)} format={() => `${o?.rate ?? '0.00'}%`} />
          </div>
        </Space>
      </Card>
      <TablePage<LeaseOccupancyRow, { state?: string; keyword?: string }>
        testId="lease-occupancy-table"
        list={list}
        columns={columns}
        rowKey="hid"
        onSearch={(v) => list.setFilters({ state: (v.state ?? '') as never, keyword: v.keyword?.trim() || undefined })}
        toolbar={
          canWrite && (
            <Button onClick={() => setMarking(true)} data-testid="lease-mark">
              标记可出租房屋
            </Button>
          )
        }
        filters={
          <>
            <Form.Item name="state" label="出租状态">
              <Select allowClear style={{ width: 110 }} options={enumOptions(LEASE_OCCUPANCY_STATE)} />
            </Form.Item>
            <Form.Item name="keyword" label="房屋">
              <Input allowClear maxLength={30} placeholder="地址" style={{ width: 150 }} />
            </Form.Item>
          </>
        }
      />
      <Modal
        open={marking}
        title="标记可出租房屋"
        okText="标记"
        okButtonProps={{ disabled: !room }}
        onCancel={() => setMarking(false)}
        onOk={async () => {
          if (!room) return;
          await mark(room, 'Y');
          setMarking(false);
          setRoom(null);
        }}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">签过租约的房屋总是计入出租率；从未出租的房屋标记后计入，显示为空置。</Typography.Paragraph>
        <Select
          showSearch
          style={{ width: '100%' }}
          filterOption={false}
          placeholder="输入地址查找"
          onSearch={(k) => setKeyword(k.trim())}
          value={room ?? undefined}
          onChange={(v: number) => setRoom(v)}
          options={(rooms.data?.items ?? []).map((r) => ({ value: r.id, label: `${r.title}（${r.area}㎡）` }))}
          data-testid="lease-mark-room"
        />
      </Modal>
    </Space>
  );
}

function Overdue() {
  const list = useList('leaseoverduelist', {});
  const columns: TableColumnsType<LeaseOverdueRow> = [
    { title: '租约编号', dataIndex: 'lease_no', width: 110 },
    { title: '租户', dataIndex: 'tenant_name', width: 170 },
    { title: '手机号', dataIndex: 'mobile', width: 120 },
    { title: '房屋', dataIndex: 'address', width: 180 },
    { title: '账单', dataIndex: 'title', width: 200 },
    { title: '期间', dataIndex: 'daterange', width: 210 },
    moneyColumn('金额', 'fee', { width: 110 }),
    { title: '应缴日', dataIndex: 'due_date', width: 110 },
    {
      title: '逾期天数',
      dataIndex: 'days_overdue',
      width: 90,
      align: 'right',
      render: (v: number) => <Typography.Text type="danger">{v}</Typography.Text>,
    },
  ];
  return (
    <TablePage<LeaseOverdueRow, { keyword?: string }>
      testId="lease-overdue-table"
      list={list}
      columns={columns}
      rowKey="bill_id"
      toolbar={<MoneyStatistic title="欠租合计" value={list.answer?.sum ?? '0.00'} />}
      onSearch={(v) => list.setFilters({ keyword: v.keyword?.trim() || undefined })}
      onExport={(v) => runExport('leaseoverdueexport', { keyword: v.keyword?.trim() || undefined })}
      filters={
        <Form.Item name="keyword" label="关键字">
          <Input allowClear maxLength={40} placeholder="编号、租户、房屋" style={{ width: 180 }} data-testid="lease-overdue-keyword" />
        </Form.Item>
      }
    />
  );
}

/**
 * /crm/leasereport (租赁报表; docs/product.md#crm-leases): leases expiring in 30, 60 or 90 days, the
 * occupancy of the rentable rooms (every room ever leased and those marked by hand) and the rent
 * overdue; the cashier takes what is owed.
 */
export default function LeaseReport() {
  const [params, setParams] = useSearchParams();
  const tab = ['expiring', 'occupancy', 'overdue'].find((t) => t === params.get('tab')) ?? 'expiring';
  return (
    <Tabs
      activeKey={tab}
      onChange={(k) => setParams({ tab: k }, { replace: true })}
      data-testid="lease-report"
      items={[
        { key: 'expiring', label: '到期预警', children: tab === 'expiring' && <Expiring /> },
        { key: 'occupancy', label: '出租率', children: tab === 'occupancy' && <Occupancy /> },
        { key: 'overdue', label: '欠租', children: tab === 'overdue' && <Overdue /> },
      ]}
    />
  );
}
