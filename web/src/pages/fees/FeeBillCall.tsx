import { useMemo, useState } from 'react';
import { Button, Form, Input } from 'antd';
import type { TableColumnsType } from 'antd';
import { MessageOutlined, PrinterOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { SMS_SENDERS, type SmsJobItem } from '@wuye/contract/setup/sms';
import { call } from '../../api/client';
import { useCanWrite } from '../../components/resource';
import { JobModal, StartModal, type JobForm } from '../setup/SmsJob';
import { useNavigate } from 'react-router';
import type { ArrearsRow } from '@wuye/contract/fees';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { AGING_COLUMNS } from './reports/FeesCountNopay';
import { RoomSelects, type RoomPick } from './shared';
import { moneyColumn } from '../../components/Money';

interface Filters {
  place?: RoomPick;
  keyword?: string;
}

/** Dunning (/fees/feebillcall): rooms in arrears; print summary or detailed notices for the chosen ones. */
export default function FeeBillCall() {
  const navigate = useNavigate();
  const list = useList('feebillcall', { sort: 'desc' });
  const [selected, setSelected] = useState<number[]>([]);
  // 短信催缴: an arrears reminder through the SMS jobs (/setup/smsjob) for the buildings and units the page shows
  const canSms = useCanWrite(SMS_SENDERS);
  const [smsOpen, setSmsOpen] = useState(false);
  const [smsJob, setSmsJob] = useState<SmsJobItem | null>(null);
  const { bid, tid } = list.filters as { bid?: number; tid?: number };
  const smsPreset = useMemo<Partial<JobForm>>(
    () => ({
      name: `欠费催缴 ${dayjs().format('YYYY-MM-DD')}`,
      kind: 'arrears',
      audience_type: 'arrears',
      bids: bid ? [bid] : [],
      tids: tid ? [tid] : [],
      min_amount: '0.01',
    }),
    [bid, tid],
  );
  const print = (detailed: boolean) =>
    void navigate(`/fees/${detailed ? 'print_billcallmx' : 'print_billcall'}?hids=${selected.join(',')}`);
  const columns: TableColumnsType<ArrearsRow> = [
    { title: '房屋', dataIndex: 'address' },
    { title: '业主', dataIndex: 'owner_name' },
    { title: '电话', dataIndex: 'mobile' },
    { title: '欠费账单', dataIndex: 'bill_count' },
    moneyColumn('欠费', 'arrears'),
    moneyColumn('滞纳金', 'late_fee'),
    moneyColumn('合计', 'total'),
    ...AGING_COLUMNS,
  ];
  return (
    <>
      <TablePage<ArrearsRow, Filters>
        testId="feebillcall-page"
        title="催缴管理"
        list={list}
        columns={columns}
        rowKey="hid"
        onSearch={(v) => list.setFilters({ sort: 'desc', bid: v.place?.bid, tid: v.place?.tid, keyword: v.keyword })}
        filters={
          <>
            <Form.Item name="place" label="楼栋">
              <PlaceField />
            </Form.Item>
            <Form.Item name="keyword" label="房号">
              <Input allowClear style={{ width: 130 }} />
            </Form.Item>
          </>
        }
        toolbar={
          <>
            <Button icon={<PrinterOutlined />} disabled={!selected.length} onClick={() => print(false)} data-testid="call-print">
              打印催缴单
            </Button>
            <Button icon={<PrinterOutlined />} disabled={!selected.length} onClick={() => print(true)} data-testid="call-print-mx">
              打印明细
            </Button>
            {canSms && (
              <Button icon={<MessageOutlined />} onClick={() => setSmsOpen(true)} data-testid="call-sms">
                短信催缴
              </Button>
            )}
          </>
        }
        tableProps={{ rowSelection: { selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]) } }}
      />
      {smsOpen && (
        <JobModal
          row="new"
          preset={smsPreset}
          onClose={() => setSmsOpen(false)}
          onSaved={(id) => {
            setSmsOpen(false);
            // the saved draft: its recipients and count before it starts
            void call('smsjobinfo', { id })
              .then(setSmsJob)
              .catch(() => undefined);
          }}
        />
      )}
      {smsJob && <StartModal row={smsJob} onClose={() => setSmsJob(null)} onStarted={() => setSmsJob(null)} />}
    </>
  );
}

function PlaceField({ value, onChange }: { value?: RoomPick; onChange?: (v: RoomPick) => void }) {
  return <RoomSelects value={value ?? {}} onChange={(v) => onChange?.(v)} withRoom={false} testId="call-place" />;
}
