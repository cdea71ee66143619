import { useEffect, useState } from 'react';
import { Alert, Button, Card, DatePicker, Form, Progress, Select, Space, Statistic, Table, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useNavigate } from 'react-router';
import type { BatchRow, GenerateAnswer } from '@wuye/contract/fees';
import { jobInProgress } from '@wuye/contract/jobs';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import SafeButton from '../../components/SafeButton';
import { RoomSelects, type RoomPick, useActionFixed } from './shared';
import { useJob } from '../../api/useJob';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { useSmallList } from '../../components/resource';
import { moneyColumn, MoneyStatistic } from '../../components/Money';

const BATCH_STATUS: Record<string, { text: string; color: string }> = {
  running: { text: '生成中', color: 'processing' },
  done: { text: '已完成', color: 'success' },
  failed: { text: '失败', color: 'error' },
  cancelled: { text: '已撤销', color: 'default' },
};

/** Bill generation (/fees/feebillworkadd): pick period, items and scope, preview, confirm, watch progress. */
export default function FeeBillWorkAdd() {
  const navigate = useNavigate();
  const things = useSmallList('feethinglist', {}).items;
  const confirmDelete = useConfirmDelete();
  const [period, setPeriod] = useState<Dayjs>(dayjs().add(1, 'month'));
  const [itemIds, setItemIds] = useState<number[]>([]);
  const [scope, setScope] = useState<RoomPick>({});
  const [preview, setPreview] = useState<GenerateAnswer>();
  const [jobId, setJobId] = useState<number>();
  const job = useJob(jobId);
  const batches = useList('feebatchlist', { sort: 'desc' });

  const payload = () => ({ period: period.format('YYYY-MM'), item_ids: itemIds, bid: scope.bid, tid: scope.tid });
  useEffect(() => setPreview(undefined), [period, itemIds, scope]);
  useEffect(() => {
    if (job?.status === 'done' || job?.status === 'failed') batches.reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [job?.status]);

  const doPreview = async () => {
    try {
      setPreview(await call('feebillgenerate', { ...payload(), preview: true }));
    } catch {
      // toasted by the client
    }
  };
  const doConfirm = async () => {
    try {
      const answer = await request('feebillgenerate', { ...payload(), preview: false });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setJobId(answer.data.job_id);
      batches.reload();
    } catch {
      // toasted by the client
    }
  };

  const actionFixed = useActionFixed();
  const columns: TableColumnsType<BatchRow> = [
    { title: '批次', dataIndex: 'id', width: 70 },
    { title: '账期', dataIndex: 'period', width: 90 },
    { title: '收费项目', dataIndex: 'item_titles', width: 200 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: string) => <Tag color={BATCH_STATUS[s]?.color}>{BATCH_STATUS[s]?.text ?? s}</Tag>,
    },
    { title: '账单数', dataIndex: 'bill_count', width: 80 },
    moneyColumn('合计', 'total_fee', { width: 120 }),
    { title: '已缴', dataIndex: 'paid_count', width: 70 },
    { title: '操作人', dataIndex: 'create_user', width: 100 },
    { title: '时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 150,
      fixed: actionFixed,
      render: (_, b) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => void navigate(`/fees/feebilllist?batch_id=${b.id}`)}>
            查看账单
          </Button>
          {b.status === 'done' && b.paid_count === 0 && (
            <Button
              size="small"
              type="link"
              danger
              data-testid={`batch-cancel-${b.id}`}
              onClick={() =>
                confirmDelete(async () => {
                  const answer = await request('feebatchcancel', { id: b.id });
                  noticeSuccess(answer.return_msg ?? '操作成功');
                  batches.reload();
                })
              }
            >
              撤销
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const running = job && jobInProgress(job.status);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle">
      <Card title="生成账单" data-testid="feebillworkadd-page">
        <Form layout="horizontal" labelCol={{ span: 3 }} wrapperCol={{ span: 16 }}>
          <Form.Item label="账期" required>
            <DatePicker
              picker="month"
              value={period}
              onChange={(d) => d && setPeriod(d)}
              allowClear={false}
              inputReadOnly
              data-testid="gen-period"
            />
          </Form.Item>
          <Form.Item label="收费项目" required>
            <Select
              mode="multiple"
              value={itemIds}
              onChange={setItemIds}
              style={{ minWidth: 320 }}
              data-testid="gen-items"
              options={things.map((i) => ({ value: i.id, label: i.title }))}
              placeholder="选择收费项目"
            />
          </Form.Item>
          <Form.Item label="范围" extra="不选则为已绑定该项目的全部房屋">
            <RoomSelects value={scope} onChange={setScope} withRoom={false} testId="gen-scope" />
          </Form.Item>
          <Form.Item wrapperCol={{ sm: { offset: 3 } }}>
            <Space>
              <Button onClick={() => void doPreview()} disabled={itemIds.length === 0} data-testid="gen-preview">
                预览
              </Button>
              <SafeButton
                type="primary"
                onClick={() => void doConfirm()}
                disabled={!preview || preview.count === 0 || !!running}
                data-testid="gen-confirm"
              >
                确认生成
              </SafeButton>
            </Space>
          </Form.Item>
        </Form>
        {preview && (
          <Space size="large" wrap data-testid="gen-preview-result">
            <Statistic title="将生成账单（张）" value={preview.count} />
            <MoneyStatistic title="合计金额" value={preview.total_fee} />
          </Space>
        )}
        {job && (
          <div style={{ marginTop: 16 }} data-testid="gen-progress">
            <Progress percent={job.percent} status={job.status === 'failed' ? 'exception' : job.status === 'done' ? 'success' : 'active'} />
            {job.status === 'done' && (
              <Alert
                type="success"
                showIcon
                title={`已生成 ${(job.result as { count?: number } | null)?.count ?? job.progress} 张账单`}
                action={
                  <Button size="small" onClick={() => void navigate('/fees/feebilllist')}>
                    查看账单
                  </Button>
                }
              />
            )}
            {job.status === 'failed' && <Alert type="error" showIcon title={job.error || '生成失败'} />}
          </div>
        )}
      </Card>
      <Card title="生成记录">
        <Table<BatchRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={batches.items}
          loading={batches.loading}
          scroll={{ x: 'max-content' }}
          pagination={{ current: batches.page, pageSize: batches.limit, total: batches.total, onChange: (p, s) => batches.setPage(p, s) }}
        />
      </Card>
    </Space>
  );
}
