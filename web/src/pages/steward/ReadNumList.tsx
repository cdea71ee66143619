import { useState } from 'react';
import { Alert, App, Button, Card, Col, Form, Input, Modal, Row, Select, Space, Statistic, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { NOTICE_READ_STATE, NOTICE_REACH, NOTICE_WRITERS, SMS_READERS, type NoticeReadItem } from '@wuye/contract';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, useCanWrite, useSmallList } from '../../components/resource';

interface Filters {
  bid?: number;
  tid?: number;
  read?: string;
  reach?: string;
  keyword?: string;
}

/**
 * 阅读明细 (/steward/readnumlist?id=; docs/product.md#notices): one row per household the notice
 * reached (address, owner, mobile, reach, read or not, first read, count, who read), filters,
 * totals and read rate, export, and 短信补发 to the unread owners through the SMS jobs, with the
 * re-sends' results.
 */
export default function ReadNumList() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const { modal } = App.useApp();
  const [form] = Form.useForm<Filters>();
  const canWrite = useCanWrite(NOTICE_WRITERS);
  const seesSmsLog = useCanWrite(SMS_READERS);
  const toFilters = (v: Filters) => ({
    id,
    bid: v.bid || undefined,
    tid: v.tid || undefined,
    read: (v.read || undefined) as never,
    reach: (v.reach || undefined) as never,
    keyword: v.keyword || undefined,
  });
  const list = useList('noticereadlist', { id }, { enabled: id > 0 });
  const bid = Form.useWatch('bid', form);
  const buildings = useSmallList('building_small_list', {});
  const units = useSmallList('unit_small_list', bid ? { bid } : null);
  const [resendOpen, setResendOpen] = useState(false);

  const answer = list.answer;
  const totals = answer?.totals;
  const notice = answer?.notice;
  const live = notice?.status === 'P';

  const columns: TableColumnsType<NoticeReadItem> = [
    { title: '房屋', dataIndex: 'address', width: 180 },
    { title: '业主', dataIndex: 'owner', width: 100 },
    { title: '手机', dataIndex: 'mobile', width: 130 },
    { title: '触达', key: 'reach', width: 100, render: (_, r) => <EnumTag enum={NOTICE_REACH} value={r.reach} /> },
    {
      title: '状态',
      key: 'read',
      width: 80,
      render: (_, r) => (
        <span data-testid={`read-state-${r.hid}`}>
          <EnumTag enum={NOTICE_READ_STATE} value={r.read} />
        </span>
      ),
    },
    { title: '首次阅读时间', dataIndex: 'first_read_time', width: 170, render: (v: string) => v || '—' },
    { title: '阅读次数', dataIndex: 'read_count', width: 90 },
    { title: '阅读人', dataIndex: 'readers', width: 140, ellipsis: true },
  ];

  if (!id) return <Alert type="warning" showIcon message="请从公告列表打开阅读明细" />;
  return (
    <div data-testid="readnum-root">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space direction="vertical" size={4} style={{ width: '100%' }}>
          <Typography.Title level={5} style={{ margin: 0 }} data-testid="readnum-title">
            {notice?.title ?? '…'}
          </Typography.Title>
          <Typography.Text type="secondary">
            {notice ? `${notice.status_ch} · ${notice.scope_ch} · 发布于 ${notice.publish_time.slice(0, 16)}` : ''}
            <Link to="/steward/notices" style={{ marginLeft: 12 }}>
              返回公告列表
            </Link>
          </Typography.Text>
          <Row gutter={[16, 8]} style={{ marginTop: 8 }} data-testid="readnum-totals">
            <Col xs={12} sm={6}>
              <Statistic title="目标户数" value={totals?.households ?? 0} suffix="户" />
            </Col>
            <Col xs={12} sm={6}>
              <Statistic title="已读" value={totals?.read ?? 0} suffix="户" valueStyle={{ color: '#389e0d' }} />
            </Col>
            <Col xs={12} sm={6}>
              <Statistic title="未读" value={totals?.unread ?? 0} suffix="户" valueStyle={{ color: '#d48806' }} />
            </Col>
            <Col xs={12} sm={6}>
              <span data-testid="readnum-rate">
                <Statistic title="阅读率" value={totals?.read_rate ?? '0.0'} suffix="%" />
              </span>
            </Col>
          </Row>
          {(answer?.resends.length ?? 0) > 0 && (
            <div data-testid="readnum-resends">
              {answer!.resends.map((s) => (
                <Typography.Text key={s.id} type="secondary" style={{ display: 'block' }}>
                  {s.create_time.slice(0, 16)} {s.creator} 短信补发 {s.households} 户：{s.status_ch}，成功 {s.sent} 条
                  {s.failed ? `，失败 ${s.failed} 条` : ''}
                  {seesSmsLog && (
                    <Link to={`/setup/smsjoblog?sms_job_id=${s.sms_job_id}`} style={{ marginLeft: 8 }}>
                      发送日志
                    </Link>
                  )}
                </Typography.Text>
              ))}
            </div>
          )}
        </Space>
      </Card>
      <TablePage<NoticeReadItem, Filters>
        testId="readnum-page"
        form={form}
        list={list}
        columns={columns}
        rowKey="hid"
        tableProps={{ scroll: { x: 1000 } }}
        onSearch={(v) => list.setFilters(toFilters(v))}
        onExport={(v) => runExport('noticereadexport', toFilters(v))}
        toolbar={
          canWrite &&
          live &&
          (totals?.unread ?? 0) > 0 && (
            <Button type="primary" onClick={() => setResendOpen(true)} data-testid="readnum-resend">
              短信补发未读
            </Button>
          )
        }
        filters={
          <>
            <Form.Item name="bid" label="楼栋">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 120 }}
                options={buildings.options}
                onChange={() => form.setFieldsValue({ tid: undefined })}
              />
            </Form.Item>
            <Form.Item name="tid" label="单元">
              <Select allowClear placeholder="全部" style={{ width: 110 }} options={units.options} disabled={!bid} />
            </Form.Item>
            <Form.Item name="read" label="状态">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 100 }}
                options={enumOptions(NOTICE_READ_STATE)}
                data-testid="readnum-read"
              />
            </Form.Item>
            <Form.Item name="reach" label="触达">
              <Select allowClear placeholder="全部" style={{ width: 110 }} options={enumOptions(NOTICE_REACH)} />
            </Form.Item>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear placeholder="房屋/业主/手机" style={{ width: 150 }} maxLength={30} />
            </Form.Item>
          </>
        }
      />
      {resendOpen && (
        <ResendDialog
          id={id}
          onClose={() => setResendOpen(false)}
          onDone={(msg) => {
            setResendOpen(false);
            modal.success({ title: '已提交短信补发', content: msg });
            list.reload();
            // the SMS job runs in the background; its counts show when it has sent
            window.setTimeout(() => list.reload(), 3000);
          }}
        />
      )}
    </div>
  );
}

function ResendDialog({ id, onClose, onDone }: { id: number; onClose: () => void; onDone: (msg: string) => void }) {
  const preview = useQuery({ queryKey: ['noticeresendpreview', id], queryFn: () => call('noticeresendpreview', { id }) });
  const templates = useQuery({ queryKey: ['notice_sms_template_small_list'], queryFn: () => call('notice_sms_template_small_list', {}) });
  const [template, setTemplate] = useState<number>();
  const [busy, setBusy] = useState(false);
  const p = preview.data;
  const chosen = template ?? templates.data?.items[0]?.id;
  const send = async () => {
    if (!p || !chosen) return;
    setBusy(true);
    try {
      const answer = await request('noticeresend', { id, template_id: chosen, confirm_households: p.households });
      noticeSuccess(answer.return_msg);
      onDone(answer.return_msg);
    } catch {
      // toasted by the client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title="短信补发未读"
      onCancel={onClose}
      onOk={() => void send()}
      okText="发送"
      okButtonProps={{ disabled: !p || p.households === 0 || !chosen, loading: busy, 'data-testid': 'resend-ok' } as never}
    >
      {p ? (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="resend-preview">
          <Typography.Text>
            向 <Typography.Text strong>{p.households}</Typography.Text> 户未读住户的业主发送短信
            {p.without_owner ? `（${p.without_owner} 户没有在住业主，不发送）` : ''}
          </Typography.Text>
          <Typography.Text type="secondary">短信通道：{p.provider_ch}</Typography.Text>
          <Select
            style={{ width: '100%' }}
            value={chosen}
            onChange={setTemplate}
            placeholder="选择已审核的短信模板"
            options={(templates.data?.items ?? []).map((t) => ({ value: t.id, label: `${t.title}：${t.content}` }))}
            data-testid="resend-template"
          />
          {templates.data && templates.data.items.length === 0 && (
            <Alert type="warning" showIcon message="没有已审核的短信模板，请先在“系统设置 → 短信”中添加" />
          )}
        </Space>
      ) : (
        '计算中…'
      )}
    </Modal>
  );
}
