import { Button, Form, Input, Select, Space, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { daysBetween } from '@wuye/contract/dates';
import { CONTRACT_STATUS, type ContractItem } from '@wuye/contract/crm/contracts';
import { useList } from '../../../api/useList';
import { moneyColumn } from '../../../components/Money';
import TablePage, { useActionFixed } from '../../../components/TablePage';
import { EnumTag } from '../../../components/resource';
import { ContractActions } from './ContractList';

interface Filters {
  expiring?: number;
  keyword?: string;
}

const DAYS = [30, 60, 90, 180];

/**
 * /crm/xzroomsales (合同续签; docs/product.md#crm-contracts): contracts ending within the days chosen
 * and those expired, with 续签 (a new draft linked to the old: same party, units and prices, starting
 * the day after the old one ends) and 终止.
 */
export default function Renewals() {
  const list = useList('roomsaleslist', { section: 'units', expiring: 30, sort: 'asc' });
  const actionFixed = useActionFixed();
  const day = dayjs().format('YYYY-MM-DD');
  const columns: TableColumnsType<ContractItem> = [
    { title: '合同编号', dataIndex: 'contract_no', width: 170, render: (v: string, r) => <Link to={`/crm/roomshow?id=${r.id}`}>{v}</Link> },
    { title: '合同名称', dataIndex: 'name', width: 170 },
    { title: '类型', dataIndex: 'type_name', width: 110 },
    { title: '乙方', dataIndex: 'party_name', width: 90 },
    { title: '房源', dataIndex: 'units_text', width: 170 },
    moneyColumn('合同总额', 'total_amount', { width: 120 }),
    { title: '结束日期', dataIndex: 'end_date', width: 110 },
    {
      title: '剩余',
      key: 'left',
      width: 90,
      render: (_, r) => {
        if (!r.end_date) return '-';
        const left = daysBetween(day, r.end_date);
        return (
          <Typography.Text type={left < 0 ? 'danger' : left <= 30 ? 'warning' : undefined}>
            {left < 0 ? `已过 ${-left} 天` : `${left} 天`}
          </Typography.Text>
        );
      },
    },
    { title: '状态', dataIndex: 'status', width: 90, render: (v: string) => <EnumTag enum={CONTRACT_STATUS} value={v} /> },
    {
      title: '续签合同',
      dataIndex: 'renewal_no',
      width: 170,
      render: (v: string, r) =>
        v ? <Link to={`/crm/roomshow?id=${r.renewal_id}`}>{v}</Link> : <Typography.Text type="secondary">未续签</Typography.Text>,
    },
    {
      title: '操作',
      key: 'op',
      width: 220,
      fixed: actionFixed,
      render: (_, r) => <ContractActions row={r} onDone={() => list.reload()} />,
    },
  ];
  return (
    <TablePage<ContractItem, Filters>
      testId="renewal-page"
      title="到期与续签"
      list={list}
      columns={columns}
      rowKey="id"
      initialFilters={{ expiring: 30 }}
      onSearch={(v) =>
        list.setFilters({ section: 'units', sort: 'asc', expiring: v.expiring ?? 30, keyword: v.keyword?.trim() || undefined })
      }
      toolbar={
        <Space>
          <Button onClick={() => list.reload()}>刷新</Button>
        </Space>
      }
      filters={
        <>
          <Form.Item name="expiring" label="到期范围">
            <Select
              style={{ width: 150 }}
              options={DAYS.map((d) => ({ value: d, label: `${d} 天内及已到期` }))}
              data-testid="renewal-days"
            />
          </Form.Item>
          <Form.Item name="keyword" label="关键字">
            <Input allowClear maxLength={40} placeholder="合同编号、名称、乙方" style={{ width: 180 }} />
          </Form.Item>
        </>
      }
    />
  );
}
