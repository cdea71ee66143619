import { Button, Card, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { CHARGE_PORT_STATE, CHARGE_RECON_KIND, type ChargeReconItem } from '@wuye/contract';
import { call } from '../../api/client';
import { EnumTag } from '../../components/resource';

/**
 * /carpark/chargerecon (充电对账; docs/product.md#charging-piles): a port the pile reports charging
 * with no live session, and a live session whose port reports free (the session the time-out closes
 * next, or a pile that lost its stop).
 */
export default function ReconList() {
  const q = useQuery({ queryKey: ['chargereconlist'], queryFn: () => call('chargereconlist', {}), refetchInterval: 10_000 });
  const columns: TableColumnsType<ChargeReconItem> = [
    { key: 'kind', title: '问题', dataIndex: 'kind', width: 200, render: (v: string) => <EnumTag enum={CHARGE_RECON_KIND} value={v} /> },
    { key: 'charger', title: '充电桩', dataIndex: 'charger_title', width: 150 },
    { key: 'port', title: '插座', dataIndex: 'port_no', width: 70 },
    {
      key: 'state',
      title: '插座状态',
      dataIndex: 'port_state',
      width: 100,
      render: (v: string) => <EnumTag enum={CHARGE_PORT_STATE} value={v} />,
    },
    { key: 'order', title: '订单号', dataIndex: 'order_no', width: 200 },
    { key: 'since', title: '最后读数时间', dataIndex: 'since', width: 170 },
  ];
  return (
    <Card
      title="充电对账"
      extra={
        <Button onClick={() => void q.refetch()} data-testid="chargerecon-refresh">
          刷新
        </Button>
      }
      data-testid="chargerecon-page"
    >
      <Typography.Paragraph type="secondary">
        订单充电中而插座已空闲的，结束帧超时（10 分钟）后自动按最后读数结算并标记待核对。
      </Typography.Paragraph>
      <Table<ChargeReconItem>
        rowKey={(r) => `${r.kind}-${r.port_id}-${r.order_id ?? ''}`}
        size="small"
        data-testid="chargerecon-table"
        loading={q.isLoading}
        columns={columns}
        dataSource={q.data?.items ?? []}
        pagination={false}
      />
    </Card>
  );
}
