import { useState } from 'react';
import { Button, DatePicker, Form, Input, Modal, Progress as Bar, Select, Space, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { enumOptions } from '@wuye/contract/kit/resource';
import { COLLECTION_FILTER, CONTRACT_KIND, CONTRACT_STATUS, type ContractProgressRow } from '@wuye/contract/crm/contracts';
import { request } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { noticeSuccess } from '../../../api/feedback';
import { useList } from '../../../api/useList';
import { MoneyStatistic, moneyColumn } from '../../../components/Money';
import Permission from '../../../components/Permission';
import TablePage from '../../../components/TablePage';
import { EnumTag, SmallSelect } from '../../../components/resource';
import { useDayPresets, wireRange } from '../../invoice/shared';
import { PlanLines } from './parts';

interface Filters {
  keyword?: string;
  type_id?: number;
  kind?: string;
  collection?: string;
  due?: [Dayjs, Dayjs] | null;
}

const wire = (v: Filters) => ({
  keyword: v.keyword?.trim() || undefined,
  type_id: v.type_id ?? '',
  kind: (v.kind ?? '') as never,
  collection: (v.collection ?? '') as never,
  due: wireRange(v.due),
});

/** 按日期运行合同作业 (admin): the instalments due by the day are billed, the contracts past their end expire. */
function JobRun({ onDone }: { onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [day, setDay] = useState<Dayjs>(dayjs());
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const answer = await request('contractjobrun', { as_of: day.format('YYYY-MM-DD') });
      noticeSuccess(answer.return_msg);
      setOpen(false);
      onDone();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="contract-jobrun">
        生成到期账单
      </Button>
      <Modal
        open={open}
        title="运行合同作业"
        onCancel={() => setOpen(false)}
        onOk={() => void run()}
        okButtonProps={{ loading: busy, 'data-testid': 'contract-jobrun-ok' } as never}
        destroyOnHidden
      >
        <Typography.Paragraph>
          每天自动运行：为生效合同在到期前（按设置的提前天数）生成收款计划账单，已生成的不再重复；结束日期已过的合同置为到期。也可按指定日期运行，用于演练。
        </Typography.Paragraph>
        <DatePicker value={day} onChange={(d) => d && setDay(d)} inputReadOnly data-testid="contract-jobrun-day" />
      </Modal>
    </>
  );
}

/**
 * /crm/contractcolprogress (回款进度; docs/product.md#crm-contracts): per contract the plan against
 * what was paid, what is overdue and what falls due next, its instalments unfolded, with totals.
 */
export default function Progress() {
  const list = useList('contractcolprogress', { sort: 'desc' });
  const presets = useDayPresets();
  const sums = list.answer?.sums;
  const columns: TableColumnsType<ContractProgressRow> = [
    {
      title: '合同编号',
      dataIndex: 'contract_no',
      width: 170,
      fixed: 'left',
      render: (v: string, r) => <Link to={`/crm/roomshow?id=${r.id}`}>{v}</Link>,
    },
    { title: '乙方', dataIndex: 'party_name', width: 100 },
    { title: '房源', dataIndex: 'units_text', width: 170, ellipsis: true },
    { title: '状态', dataIndex: 'status', width: 80, render: (v: string) => <EnumTag enum={CONTRACT_STATUS} value={v} /> },
    moneyColumn('合同总额', 'total_amount', { width: 120 }),
    moneyColumn('应收至今', 'due_amount', { width: 120 }),
    moneyColumn('已收', 'paid_amount', { width: 120 }),
    {
      title: '回款率',
      dataIndex: 'paid_percent',
      width: 130,
      render: (v: string) => <Bar percent={Number(v)} size="small" format={() => `${v}%`} />,
    },
    moneyColumn('未收', 'outstanding', { width: 120 }),
    moneyColumn('逾期', 'overdue_amount', { width: 110 }),
    {
      title: '逾期天数',
      dataIndex: 'overdue_days',
      width: 90,
      render: (v: number) => (v > 0 ? <Typography.Text type="danger">{v} 天</Typography.Text> : '-'),
    },
    {
      title: '下次收款',
      dataIndex: 'next_due_date',
      width: 110,
      render: (v: string | null, r) => (v ? `${v}（${r.next_due_amount}）` : '-'),
    },
  ];
  return (
    <TablePage<ContractProgressRow, Filters>
      testId="colprogress-page"
      list={list}
      columns={columns}
      rowKey="id"
      onSearch={(v) => list.setFilters({ sort: 'desc', ...wire(v) })}
      onExport={(v) => runExport('contractcolprogressexport', wire(v))}
      tableProps={{ expandable: { expandedRowRender: (r) => <PlanLines rows={r.instalments} /> } }}
      toolbar={
        <Space size="large" wrap>
          {sums && (
            <>
              <MoneyStatistic title="合同总额" value={sums.total_amount} />
              <MoneyStatistic title="已收" value={sums.paid_amount} />
              <MoneyStatistic title="未收" value={sums.outstanding} />
              <MoneyStatistic
                title="逾期"
                value={sums.overdue_amount}
                contentStyle={sums.overdue_amount !== '0.00' ? { color: '#cf1322' } : undefined}
              />
            </>
          )}
          <Permission roles={['admin']}>
            <JobRun onDone={() => list.reload()} />
          </Permission>
        </Space>
      }
      filters={
        <>
          <Form.Item name="keyword" label="关键字">
            <Input
              allowClear
              maxLength={40}
              placeholder="合同编号、名称、乙方、手机号"
              style={{ width: 200 }}
              data-testid="colprogress-keyword"
            />
          </Form.Item>
          <Form.Item name="type_id" label="合同类型">
            <SmallSelect widget={{ small: 'contracttype_small_list' }} values={{}} allowClear style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="kind" label="类别">
            <Select allowClear style={{ width: 110 }} options={enumOptions(CONTRACT_KIND)} />
          </Form.Item>
          <Form.Item name="collection" label="收款情况">
            <Select allowClear style={{ width: 110 }} options={enumOptions(COLLECTION_FILTER)} data-testid="colprogress-collection" />
          </Form.Item>
          <Form.Item name="due" label="计划日期">
            <DatePicker.RangePicker presets={presets} inputReadOnly style={{ maxWidth: 260 }} />
          </Form.Item>
        </>
      }
    />
  );
}
