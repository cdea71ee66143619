import { useMemo, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { DownloadOutlined, MinusCircleOutlined, PlusCircleOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  SMS_QUOTA_KIND,
  SMS_QUOTA_MAX_TOPUP,
  type SmsQuotaKind,
  type SmsQuotaLedgerItem,
  type SmsQuotaRegionUse,
} from '@wuye/contract/leader/smsquota';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import { rangePickerPresets, usePagination } from '../../components/resource';
import { useSystem } from '../../stores/system';
import { saveFile } from '../../utils/files';

const INFO_KEY = ['smsquotainfo'];
const KIND_COLORS: Record<SmsQuotaKind, string> = { topup: 'success', send: 'default', refund: 'processing', adjust: 'warning' };

interface Filters {
  kind?: SmsQuotaKind;
  rid?: number;
  date_from?: string;
  date_to?: string;
}

/**
 * 短信额度 (/setup/smsquota on the group side, issue 45): the group's SMS quota package: its balance,
 * 充值 and 调整 (each confirmed), the low-balance threshold, this month's use per community and the
 * ledger with its filters and export. Needs the account permission is_smsset_auth.
 */
export default function SmsQuota() {
  const queryClient = useQueryClient();
  const { modal } = App.useApp();
  const info = useQuery({ queryKey: INFO_KEY, queryFn: () => call('smsquotainfo', {}) });
  const [filters, setFiltersState] = useState<Filters>({});
  const ledger = useList('smsquotaledger', { sort: 'desc' });
  const paging = usePagination(ledger);
  const [dialog, setDialog] = useState<'topup' | 'adjust' | null>(null);
  const [form] = Form.useForm<{ count: number; note: string }>();
  const [threshold, setThreshold] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);
  const zone = useSystem((s) => s.info?.time_zone) || undefined;
  const presets = useMemo(() => rangePickerPresets(zone), [zone]);
  const q = info.data;

  const setFilters = (patch: Partial<Filters>) => {
    const next = { ...filters, ...patch };
    setFiltersState(next);
    ledger.setFilters({ sort: 'desc', ...next });
  };

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: INFO_KEY });
    ledger.reload();
  };

  const open = (kind: 'topup' | 'adjust') => {
    form.resetFields();
    setDialog(kind);
  };

  const submit = async () => {
    const values = await form.validateFields();
    const topup = dialog === 'topup';
    const count = Number(values.count);
    const after = (q?.balance ?? 0) + count;
    modal.confirm({
      title: topup ? `确认充值 ${count} 条短信？` : `确认调整 ${count > 0 ? '+' : ''}${count} 条？`,
      content: topup
        ? `充值后余量约 ${after} 条${q?.enabled ? '' : '；首次充值将启用短信额度，此后各小区发送按计费条数扣减，余量为 0 时停止发送'}。`
        : `调整后余量 ${after} 条。原因：${values.note}`,
      okText: '确认',
      okButtonProps: { 'data-testid': 'smsquota-confirm-ok' } as Record<string, string>,
      onOk: async () => {
        const answer = topup
          ? await request('smsquotatopup', { count, note: values.note ?? '' })
          : await request('smsquotaadjust', { count, note: values.note });
        noticeSuccess(answer.return_msg);
        setDialog(null);
        await refresh();
      },
    });
  };

  const saveThreshold = async () => {
    if (threshold === null) return;
    try {
      const answer = await request('smsquotaset', { low_threshold: threshold });
      noticeSuccess(answer.return_msg);
      setThreshold(null);
      await refresh();
    } catch {
      // the client showed the refusal
    }
  };

  const exportLedger = async () => {
    setExporting(true);
    try {
      saveFile(await call('smsquotaledgerexport', { sort: 'desc', ...filters }));
    } catch {
      // the client showed the refusal
    } finally {
      setExporting(false);
    }
  };

  const regions = q?.regions ?? [];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless" title="短信额度" loading={info.isLoading} data-testid="smsquota-card">
        {q && !q.enabled && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="smsquota-disabled"
            message="未启用额度"
            description="集团尚未购买短信套餐，各小区发送短信不限条数。首次充值后启用额度：每条短信按计费条数（含签名，70 字内 1 条，超出按每 67 字 1 条）从余量扣减，余量为 0 时停止发送。"
          />
        )}
        {q?.enabled && q.low && (
          <Alert
            type={q.balance === 0 ? 'error' : 'warning'}
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="smsquota-low"
            message={
              q.balance === 0
                ? '短信余量为 0，各小区已停止发送短信，请充值'
                : `短信余量不足：剩余 ${q.balance} 条，低于提醒线 ${q.low_threshold} 条`
            }
          />
        )}
        {q && (
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6}>
              <Statistic title="当前余量（条）" value={q.enabled ? q.balance : '不限'} data-testid="smsquota-balance" />
              <Tag color={q.enabled ? 'success' : 'default'} data-testid="smsquota-enabled">
                {q.enabled ? '已启用额度' : '未启用额度'}
              </Tag>
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={`本月已用（${q.month}）`} value={q.month_used} data-testid="smsquota-month-used" />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title="本月充值" value={q.month_topup} />
            </Col>
            <Col xs={12} md={6}>
              <Typography.Text type="secondary">余量提醒线（条）</Typography.Text>
              <Space.Compact style={{ display: 'flex', marginTop: 8, maxWidth: 220 }}>
                <InputNumber
                  min={0}
                  max={SMS_QUOTA_MAX_TOPUP}
                  precision={0}
                  disabled={!q.enabled}
                  style={{ width: '100%' }}
                  value={threshold ?? q.low_threshold}
                  onChange={(v) => setThreshold(v === null ? null : Number(v))}
                  data-testid="smsquota-threshold"
                />
                <Button
                  disabled={!q.enabled || threshold === null}
                  onClick={() => void saveThreshold()}
                  data-testid="smsquota-threshold-save"
                >
                  保存
                </Button>
              </Space.Compact>
            </Col>
            <Col xs={24}>
              <Space wrap>
                <Button type="primary" icon={<PlusCircleOutlined />} onClick={() => open('topup')} data-testid="smsquota-topup">
                  充值
                </Button>
                <Button icon={<MinusCircleOutlined />} disabled={!q.enabled} onClick={() => open('adjust')} data-testid="smsquota-adjust">
                  调整
                </Button>
                {q.update_time && <Typography.Text type="secondary">更新于 {q.update_time}</Typography.Text>}
              </Space>
            </Col>
          </Row>
        )}
      </Card>

      <Card variant="borderless" title="本月各小区用量" size="small">
        <Table<SmsQuotaRegionUse>
          rowKey="rid"
          size="small"
          loading={info.isLoading}
          dataSource={regions}
          pagination={regions.length > 10 ? { pageSize: 10 } : false}
          scroll={{ x: 360 }}
          data-testid="smsquota-regions"
          columns={[
            { title: '小区', dataIndex: 'title' },
            { title: '发送条数（计费）', dataIndex: 'used', width: 140, sorter: (a, b) => a.used - b.used },
            { title: '短信数', dataIndex: 'sends', width: 100 },
          ]}
        />
      </Card>

      <Card variant="borderless" title="额度明细" size="small">
        <Space wrap style={{ marginBottom: 12 }}>
          <Select<SmsQuotaKind>
            placeholder="全部类型"
            allowClear
            style={{ width: 120 }}
            options={enumOptions(SMS_QUOTA_KIND)}
            value={filters.kind}
            onChange={(kind) => setFilters({ kind })}
            data-testid="smsquota-filter-kind"
          />
          <Select<number>
            placeholder="全部小区"
            allowClear
            showSearch
            optionFilterProp="label"
            style={{ width: 180 }}
            options={regions.map((r) => ({ value: r.rid, label: r.title }))}
            value={filters.rid}
            onChange={(rid) => setFilters({ rid })}
            data-testid="smsquota-filter-region"
          />
          <DatePicker.RangePicker
            presets={presets}
            inputReadOnly
            allowClear
            style={{ maxWidth: 300 }}
            placeholder={['开始日期', '结束日期']}
            data-testid="smsquota-filter-dates"
            onChange={(v: [Dayjs | null, Dayjs | null] | null) =>
              setFilters(
                v?.[0] && v[1]
                  ? { date_from: v[0].format('YYYY-MM-DD'), date_to: v[1].format('YYYY-MM-DD') }
                  : { date_from: undefined, date_to: undefined },
              )
            }
          />
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportLedger()} data-testid="smsquota-export">
            导出
          </Button>
        </Space>
        <Table<SmsQuotaLedgerItem>
          rowKey="id"
          size="small"
          loading={ledger.loading}
          dataSource={ledger.items}
          pagination={paging}
          scroll={{ x: 980 }}
          data-testid="smsquota-ledger"
          columns={[
            { title: '时间', dataIndex: 'create_time', width: 170 },
            { title: '类型', dataIndex: 'kind_ch', width: 80, render: (t: string, r) => <Tag color={KIND_COLORS[r.kind]}>{t}</Tag> },
            {
              title: '条数',
              dataIndex: 'count',
              width: 90,
              render: (n: number) => <Typography.Text type={n < 0 ? 'danger' : 'success'}>{n > 0 ? `+${n}` : n}</Typography.Text>,
            },
            { title: '变动后余量', dataIndex: 'balance_after', width: 110 },
            { title: '小区', dataIndex: 'region_title', width: 140, render: (t: string) => t || '集团' },
            {
              title: '用途',
              dataIndex: 'purpose_ch',
              width: 140,
              render: (t: string, r) => (r.ref_id ? `${t} #${r.ref_id}` : t || '—'),
            },
            { title: '备注/原因', dataIndex: 'note', ellipsis: true },
            { title: '操作人', dataIndex: 'creator', width: 100 },
          ]}
        />
      </Card>

      <Modal
        open={dialog !== null}
        title={dialog === 'topup' ? '充值短信额度' : '调整短信余量'}
        okText="下一步"
        onOk={() => void submit().catch(() => undefined)}
        onCancel={() => setDialog(null)}
        destroyOnHidden
        width={420}
        okButtonProps={{ 'data-testid': 'smsquota-dialog-ok' } as Record<string, string>}
      >
        <Form form={form} layout="vertical" preserve={false}>
          {dialog === 'topup' ? (
            <Form.Item
              name="count"
              label="充值条数"
              rules={[{ required: true, message: '请输入充值条数' }]}
              extra={`1 至 ${SMS_QUOTA_MAX_TOPUP.toLocaleString()} 条`}
            >
              <InputNumber min={1} max={SMS_QUOTA_MAX_TOPUP} precision={0} style={{ width: '100%' }} data-testid="smsquota-count" />
            </Form.Item>
          ) : (
            <Form.Item
              name="count"
              label="调整条数"
              extra={`正数增加，负数扣减；调整后余量不能小于 0（当前 ${q?.balance ?? 0} 条）`}
              rules={[
                { required: true, message: '请输入调整条数' },
                { validator: (_, v) => (Number(v) === 0 ? Promise.reject(new Error('调整条数不能为 0')) : Promise.resolve()) },
              ]}
            >
              <InputNumber
                min={-SMS_QUOTA_MAX_TOPUP}
                max={SMS_QUOTA_MAX_TOPUP}
                precision={0}
                style={{ width: '100%' }}
                data-testid="smsquota-count"
              />
            </Form.Item>
          )}
          <Form.Item
            name="note"
            label={dialog === 'topup' ? '备注' : '调整原因'}
            rules={dialog === 'adjust' ? [{ required: true, whitespace: true, message: '请填写调整原因' }] : []}
          >
            <Input
              maxLength={100}
              showCount
              placeholder={dialog === 'topup' ? '如 套餐订单号' : '如 冲正误充'}
              data-testid="smsquota-note"
            />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
