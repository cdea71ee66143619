import { useState } from 'react';
import { App, Button, DatePicker, Form, Grid, Input, Select, Space, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useSearchParams } from 'react-router';
import { SMS_RECEIPT_STATUS, SMS_SENDERS, SMS_SUBMIT_STATUS, type SmsMessageItem } from '@wuye/contract';
import { enumOptions } from '@wuye/contract/kit/resource';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, useCanWrite } from '../../components/resource';
import { ProviderNotice } from './SmsJob';

interface Filters {
  sms_job_id?: number;
  submit_status?: string;
  receipt_status?: string;
  mobile?: string;
  code?: string;
  dates?: [Dayjs, Dayjs] | null;
}

const toFilters = (v: Filters) => ({
  sms_job_id: v.sms_job_id,
  submit_status: (v.submit_status || undefined) as never,
  receipt_status: (v.receipt_status || undefined) as never,
  mobile: v.mobile || undefined,
  code: v.code || undefined,
  date_from: v.dates?.[0]?.format('YYYY-MM-DD'),
  date_to: v.dates?.[1]?.format('YYYY-MM-DD'),
});

/**
 * 短信发送日志 (/setup/smsjoblog): every message of the jobs, masked mobiles, the rendered text,
 * submit and delivery status with the provider's failure code and reason; failed ones are resent
 * (one, the selected, or all of a job), receipts refreshed, the filtered log exported.
 */
export default function SmsJobLog() {
  const { modal } = App.useApp();
  const [params] = useSearchParams();
  const fromJob = Number(params.get('sms_job_id')) || undefined;
  const initial: Filters = { sms_job_id: fromJob };
  const list = useList('smsjoblog', toFilters(initial));
  const jobs = useList('smsjoblist', {}, { limit: 200 });
  const canSend = useCanWrite(SMS_SENDERS);
  const phone = Grid.useBreakpoint().md === false;
  const [selected, setSelected] = useState<number[]>([]);
  const [form] = Form.useForm<Filters>();

  const resend = (payload: { ids?: number[]; sms_job_id?: number }, what: string) =>
    modal.confirm({
      title: '重发失败短信',
      content: `重发${what}？每条失败短信只能重发一次。`,
      okButtonProps: { 'data-testid': 'smslog-resend-ok' } as never,
      onOk: async () => {
        const answer = await request('smsresend', payload);
        noticeSuccess(answer.return_msg);
        setSelected([]);
        list.reload();
      },
    });
  const receipts = async () => {
    const answer = await request('smsreceipts', {});
    noticeSuccess(answer.return_msg);
    list.reload();
  };

  const columns: TableColumnsType<SmsMessageItem> = [
    { title: '任务', dataIndex: 'job_name', width: 160, ellipsis: true },
    { title: '手机号', dataIndex: 'mobile', width: 120 },
    {
      title: '业主/房屋',
      key: 'owner',
      width: 180,
      render: (_, r) => (
        <>
          {r.name}
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {r.address}
          </Typography.Text>
        </>
      ),
    },
    { title: '内容', dataIndex: 'content', width: 320, ellipsis: { showTitle: true } },
    { title: '计费条数', dataIndex: 'segments', width: 80 },
    {
      title: '提交状态',
      key: 'submit',
      width: 100,
      render: (_, r) => (
        <span data-testid={`smslog-submit-${r.id}`}>
          <EnumTag enum={SMS_SUBMIT_STATUS} value={r.submit_status} />
          {r.resend === 'Y' && <Typography.Text type="secondary">重发</Typography.Text>}
        </span>
      ),
    },
    { title: '回执状态', key: 'receipt', width: 100, render: (_, r) => <EnumTag enum={SMS_RECEIPT_STATUS} value={r.receipt_status} /> },
    {
      title: '失败码/原因',
      key: 'fail',
      width: 240,
      render: (_, r) =>
        r.code ? (
          <>
            <Typography.Text code>{r.code}</Typography.Text> {r.reason}
          </>
        ) : null,
    },
    { title: '提交时间', dataIndex: 'submit_time', width: 170 },
    { title: '回执时间', dataIndex: 'receipt_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 80,
      fixed: phone ? undefined : 'right',
      render: (_, r) =>
        canSend && r.submit_status === 'F' ? (
          <Button type="link" size="small" onClick={() => resend({ ids: [r.id] }, '这条短信')} data-testid={`smslog-resend-${r.id}`}>
            重发
          </Button>
        ) : null,
    },
  ];

  const jobFilter = list.filters.sms_job_id;
  return (
    <div data-testid="smslog-root">
      <ProviderNotice />
      <TablePage<SmsMessageItem, Filters>
        testId="smslog-page"
        form={form}
        initialFilters={initial}
        list={list}
        columns={columns}
        rowKey="id"
        tableProps={{
          scroll: { x: 1700 },
          rowSelection: canSend
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as number[]),
                getCheckboxProps: (r) => ({ disabled: r.submit_status !== 'F' }),
              }
            : undefined,
        }}
        onSearch={(v) => list.setFilters(toFilters(v))}
        onExport={(v) => runExport('smsjoblogexport', toFilters(v))}
        toolbar={
          <Space wrap>
            <Button onClick={() => void receipts()} data-testid="smslog-receipts">
              刷新回执
            </Button>
            {canSend && selected.length > 0 && (
              <Button onClick={() => resend({ ids: selected }, `选中的 ${selected.length} 条短信`)} data-testid="smslog-resend-selected">
                重发选中（{selected.length}）
              </Button>
            )}
            {canSend && jobFilter && (jobs.items.find((j) => j.id === jobFilter)?.failed ?? 0) > 0 && (
              <Button onClick={() => resend({ sms_job_id: jobFilter as number }, '该任务的全部失败短信')} data-testid="smslog-resend-all">
                重发全部失败
              </Button>
            )}
          </Space>
        }
        filters={
          <>
            <Form.Item name="sms_job_id" label="任务">
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder="全部任务"
                style={{ width: 200 }}
                options={jobs.items.filter((j) => j.status !== 'D').map((j) => ({ value: j.id, label: j.name }))}
                data-testid="smslog-job"
              />
            </Form.Item>
            <Form.Item name="submit_status" label="提交状态">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 110 }}
                options={enumOptions(SMS_SUBMIT_STATUS)}
                data-testid="smslog-submit"
              />
            </Form.Item>
            <Form.Item name="receipt_status" label="回执">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 110 }}
                options={enumOptions(SMS_RECEIPT_STATUS).filter((o) => o.value !== '')}
              />
            </Form.Item>
            <Form.Item name="mobile" label="手机号">
              <Input allowClear style={{ width: 130 }} maxLength={11} />
            </Form.Item>
            <Form.Item name="code" label="失败码">
              <Input allowClear style={{ width: 150 }} />
            </Form.Item>
            <Form.Item name="dates" label="日期">
              <DatePicker.RangePicker inputReadOnly allowClear style={{ maxWidth: 260 }} />
            </Form.Item>
          </>
        }
      />
    </div>
  );
}
