import { useState } from 'react';
import { Button, Card, Form, Input, Modal, Select, Space, Table } from 'antd';
import type { ButtonProps, TableColumnsType } from 'antd';
import { CHARGE_STATE, enumOptions, type ChargeOrderItem } from '@wuye/contract';
import { request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import { moneyColumn } from '../../components/Money';
import { EnumTag, SmallSelect } from '../../components/resource';
import { OrderDrawer, StartDialog } from './parts';

/**
 * /carpark/chargeorders (充电订单; docs/product.md#charging-piles): the sessions with their state,
 * prepayment, amount and refund; 开始充电, 停止充电 (queued to the pile), 核对 a session closed by
 * the time-out (待核对), each session's meter values and price by hour, and 导出 (an export job) of the filtered sessions.
 */
export default function OrderList() {
  const list = useList('chargeorderlist', { sort: 'desc' });
  const [filter] = Form.useForm();
  const [starting, setStarting] = useState(false);
  const [detail, setDetail] = useState<number | null>(null);
  const [checking, setChecking] = useState<ChargeOrderItem | null>(null);
  const [note, setNote] = useState('');
  const stop = (row: ChargeOrderItem) =>
    Modal.confirm({
      title: '停止充电',
      content: `向充电桩下发停止指令：${row.realname} 在 ${row.charger_title} ${row.port_no}号插座的充电，桩送来最后读数后结算。`,
      okText: '停止充电',
      okButtonProps: { danger: true, 'data-testid': 'chargestop-confirm' } as ButtonProps,
      onOk: async () => {
        const answer = await request('chargestop', { id: row.id });
        noticeSuccess(answer.return_msg);
        list.reload();
      },
    });
  const check = async () => {
    if (!checking) return;
    try {
      const answer = await request('chargecheck', { id: checking.id, note });
      noticeSuccess(answer.return_msg);
      setChecking(null);
      setNote('');
      list.reload();
    } catch {
      /* shown by the client */
    }
  };
  const columns: TableColumnsType<ChargeOrderItem> = [
    { key: 'order_no', title: '订单号', dataIndex: 'order_no', width: 200, fixed: 'left' },
    { key: 'realname', title: '姓名', dataIndex: 'realname', width: 90 },
    { key: 'mobile', title: '手机号', dataIndex: 'mobile', width: 120 },
    { key: 'charger', title: '充电桩', dataIndex: 'charger_title', width: 130 },
    { key: 'port', title: '插座', dataIndex: 'port_no', width: 60 },
    {
      key: 'mode',
      title: '方式',
      width: 110,
      render: (_: unknown, r) =>
        `${r.mode_ch} ${r.mode === 'hours' ? `${Number(r.mode_value)}小时` : r.mode === 'energy' ? `${r.mode_value}kWh` : `${r.mode_value}元`}`,
    },
    { key: 'energy', title: '电量(kWh)', dataIndex: 'energy_kwh', width: 100, align: 'right' },
    { key: 'hours', title: '计费小时', dataIndex: 'hours', width: 80, align: 'right' },
    moneyColumn<ChargeOrderItem>('预付', 'prepaid', { width: 100 }),
    moneyColumn<ChargeOrderItem>('实收', 'amount', { width: 100 }),
    moneyColumn<ChargeOrderItem>('退回', 'refund', { width: 100 }),
    { key: 'state', title: '状态', dataIndex: 'state', width: 90, render: (v: string) => <EnumTag enum={CHARGE_STATE} value={v} /> },
    { key: 'reason', title: '结束原因', dataIndex: 'end_reason_ch', width: 90 },
    { key: 'start', title: '开始时间', dataIndex: 'start_time', width: 170 },
    { key: 'end', title: '结束时间', dataIndex: 'end_time', width: 170 },
    {
      key: 'actions',
      title: '操作',
      width: 170,
      fixed: 'right',
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button size="small" type="link" onClick={() => setDetail(r.id)} data-testid={`chargeorder-info-${r.id}`}>
            详情
          </Button>
          {r.state === 'charging' && (
            <Button size="small" type="link" danger onClick={() => stop(r)} data-testid={`chargeorder-stop-${r.id}`}>
              停止充电
            </Button>
          )}
          {r.state === 'check' && (
            <Button size="small" type="link" onClick={() => setChecking(r)} data-testid={`chargeorder-check-${r.id}`}>
              核对
            </Button>
          )}
        </Space>
      ),
    },
  ];
  const search = (v: Record<string, unknown>) => list.setFilters({ sort: 'desc', ...v } as never);
  return (
    <Card title="充电订单" data-testid="chargeorder-page">
      <Form form={filter} layout="inline" onFinish={search} style={{ marginBottom: 12, rowGap: 8 }}>
        <Form.Item name="order_no">
          <Input placeholder="订单号" allowClear data-testid="chargeorder-filter-no" />
        </Form.Item>
        <Form.Item name="keyword">
          <Input placeholder="姓名或手机号" allowClear data-testid="chargeorder-filter-keyword" />
        </Form.Item>
        <Form.Item name="charger_id">
          <SmallSelect
            widget={{ small: 'charger_small_list' }}
            values={{}}
            placeholder="充电桩"
            allowClear
            style={{ width: 160 }}
            testId="chargeorder-filter-charger"
          />
        </Form.Item>
        <Form.Item name="state">
          <Select
            placeholder="状态"
            allowClear
            style={{ width: 120 }}
            options={enumOptions(CHARGE_STATE)}
            data-testid="chargeorder-filter-state"
          />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="chargeorder-search">
            搜索
          </Button>
          <Button onClick={list.reload} data-testid="chargeorder-refresh">
            刷新
          </Button>
          <Button
            onClick={() => {
              const { sort: _sort, ...filters } = list.filters;
              void runExport('chargeorderexport', filters);
            }}
            data-testid="chargeorder-export"
          >
            导出
          </Button>
          <Button type="primary" ghost onClick={() => setStarting(true)} data-testid="chargeorder-start">
            开始充电
          </Button>
        </Space>
      </Form>
      <Table<ChargeOrderItem>
        rowKey="id"
        size="small"
        data-testid="chargeorder-table"
        loading={list.loading}
        columns={columns}
        dataSource={list.items}
        scroll={{ x: 1900 }}
        pagination={{
          current: list.page,
          pageSize: list.limit,
          total: list.total,
          showTotal: (total) => `共 ${total}${list.answer?.more ? '+' : ''} 条`,
          onChange: (p, l) => list.setPage(p, l),
        }}
      />
      {starting && (
        <StartDialog
          onClose={(started) => {
            setStarting(false);
            if (started) list.reload();
          }}
        />
      )}
      {detail !== null && <OrderDrawer id={detail} onClose={() => setDetail(null)} />}
      {checking && (
        <Modal
          open
          title={`核对订单 ${checking.order_no}`}
          onCancel={() => setChecking(null)}
          onOk={() => void check()}
          okText="已核对"
          okButtonProps={{ 'data-testid': 'chargecheck-save' } as ButtonProps}
        >
          <p>该订单的结束帧未送达，已按最后读数（{checking.last_frame_time}）结算。核对后请填写说明：</p>
          <Input.TextArea rows={3} maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} data-testid="chargecheck-note" />
        </Modal>
      )}
    </Card>
  );
}
