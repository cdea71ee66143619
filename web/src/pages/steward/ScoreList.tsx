import { useEffect, useMemo, useState } from 'react';
import {
  Button,
  Card,
  Checkbox,
  DatePicker,
  Drawer,
  Empty,
  Form,
  Input,
  Modal,
  Rate,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined, EditOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { steward, STEWARD_POST, type StewardPost } from '@wuye/contract/steward/profiles';
import { LOW_SCORE, PERIOD_TYPE, type ScoreDetailRow, type ScoreSummaryRow } from '@wuye/contract/steward/scores';
import { call, request } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { EnumTag, useCanWrite } from '../../components/resource';
import { validValues } from '../../utils/forms';
import EChart from '../fees/EChart';
import './steward.css';

type PeriodType = 'year' | 'quarter' | 'month';

const quarterOf = (d: Dayjs) => Math.floor(d.month() / 3) + 1;
function periodOf(type: PeriodType, d: Dayjs): string {
  if (type === 'year') return d.format('YYYY');
  if (type === 'quarter') return `${d.year()}-Q${quarterOf(d)}`;
  return d.format('YYYY-MM');
}
const pickerFormat = (type: PeriodType) => (d: Dayjs) =>
  type === 'year' ? `${d.year()}年` : type === 'quarter' ? `${d.year()}年第${quarterOf(d)}季度` : `${d.year()}年${d.month() + 1}月`;

/** '4.50' with its count as a tooltip; '—' when nobody scored. */
const avgCell = (avg: string, count: number, unit = '条') =>
  avg ? (
    <Tooltip title={`${count} ${unit}`}>
      <span className={Number(avg) <= LOW_SCORE ? 'steward-low' : undefined}>{avg}</span>
    </Tooltip>
  ) : (
    <Typography.Text type="secondary">—</Typography.Text>
  );

interface DetailTarget {
  row: ScoreSummaryRow;
  lowOnly: boolean;
}

/** The individual scores behind a row: house, masked owner, item, score, text, month, who entered it. */
function DetailDrawer({
  target,
  periodType,
  period,
  onClose,
}: {
  target: DetailTarget | null;
  periodType: PeriodType;
  period: string;
  onClose: () => void;
}) {
  const [itemId, setItemId] = useState<number>();
  const [lowOnly, setLowOnly] = useState(false);
  const [page, setPage] = useState(1);
  useEffect(() => {
    setItemId(undefined);
    setLowOnly(target?.lowOnly ?? false);
    setPage(1);
  }, [target]);
  const payload = {
    period_type: periodType,
    period,
    profile_id: target?.row.profile_id,
    item_id: itemId,
    low_only: lowOnly,
    page,
    limit: 10,
  };
  const q = useQuery({ queryKey: ['scoredetail', payload], queryFn: () => call('scoredetail', payload), enabled: !!target });
  const columns: TableColumnsType<ScoreDetailRow> = [
    { key: 'address', title: '房屋', dataIndex: 'address', width: 130 },
    { key: 'owner_name', title: '业主', dataIndex: 'owner_name', width: 80, render: (v: string) => v || '—' },
    { key: 'item_name', title: '考核项目', dataIndex: 'item_name', width: 100 },
    {
      key: 'score',
      title: '分数',
      dataIndex: 'score',
      width: 150,
      render: (v: number) => (
        <Space size={4}>
          <Rate disabled value={v} style={{ fontSize: 12 }} />
          {v <= LOW_SCORE && <Tag color="error">差评</Tag>}
        </Space>
      ),
    },
    { key: 'content', title: '评语', dataIndex: 'content', ellipsis: true, render: (v: string) => v || '—' },
    { key: 'period', title: '月份', dataIndex: 'period', width: 90 },
    { key: 'entered_by', title: '录入人', dataIndex: 'entered_by', width: 80 },
    { key: 'update_time', title: '录入时间', dataIndex: 'update_time', width: 160 },
  ];
  return (
    <Drawer
      open={!!target}
      onClose={onClose}
      width={Math.min(1000, window.innerWidth)}
      title={target ? `${target.row.name}的评分明细` : ''}
      destroyOnHidden
      data-testid="score-detail"
    >
      <Space wrap className="steward-score-filters">
        <Select
          allowClear
          placeholder="全部考核项目"
          style={{ width: 180 }}
          value={itemId}
          onChange={(v?: number) => {
            setItemId(v);
            setPage(1);
          }}
          options={(target?.row.items ?? []).map((i) => ({ value: i.item_id, label: `${i.name}（${i.weight}%）` }))}
          data-testid="score-detail-item"
        />
        <Checkbox
          checked={lowOnly}
          onChange={(e) => {
            setLowOnly(e.target.checked);
            setPage(1);
          }}
          data-testid="score-detail-low"
        >
          只看差评（≤{LOW_SCORE}分）
        </Checkbox>
      </Space>
      <Table
        rowKey="id"
        size="small"
        loading={q.isFetching}
        columns={columns}
        dataSource={q.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: 10,
          total: q.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          showTotal: (t) => `共 ${t} 条`,
        }}
        locale={{ emptyText: <Empty description="该周期没有评分" /> }}
        data-testid="score-detail-table"
      />
    </Drawer>
  );
}

interface EntryForm {
  profile_id?: number;
  hid?: number;
  month: Dayjs;
  scores: Record<string, number>;
  content: string;
}

/** 录入评分: a household's scores of a staff member for a month, entered on its behalf (a phone survey). */
function ScoreEntry({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<EntryForm>();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [houseKeyword, setHouseKeyword] = useState('');
  const profileId = Form.useWatch('profile_id', form);
  const profiles = useQuery({
    queryKey: ['stewardlist', 'enabled'],
    queryFn: () => call('stewardlist', { status: 'Y', limit: 200 }),
    enabled: open,
  });
  const info = useQuery({
    queryKey: ['stewardinfo', profileId],
    queryFn: () => call('stewardinfo', { id: profileId! }),
    enabled: !!profileId,
  });
  const houses = useQuery({
    queryKey: ['stewardhouses', profileId, houseKeyword],
    queryFn: () => call('stewardhouses', { id: profileId!, keyword: houseKeyword, limit: 50 }),
    enabled: !!profileId,
  });
  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    const scores = Object.entries(v.scores ?? {})
      .filter(([, s]) => s > 0)
      .map(([item, s]) => ({ item_id: Number(item), score: s }));
    setSaving(true);
    try {
      const answer = await request('scoreadd', {
        profile_id: v.profile_id!,
        hid: v.hid!,
        period: v.month.format('YYYY-MM'),
        scores,
        content: v.content ?? '',
      });
      noticeSuccess(answer.return_msg ?? '评分已保存');
      void queryClient.invalidateQueries({ queryKey: ['scorelist'] });
      void queryClient.invalidateQueries({ queryKey: ['scoredetail'] });
      form.resetFields(['hid', 'scores', 'content']);
      onClose();
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title="录入评分"
      onCancel={onClose}
      onOk={() => void save()}
      okText="保存"
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'score-entry-save' } as Record<`data-${string}`, string>}
    >
      <Typography.Paragraph type="secondary">
        代住户录入（如电话回访、上门走访）；同一户对同一员工的同一项目，每月一个分数，再次录入即覆盖。
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ month: dayjs(), scores: {}, content: '' }}
        preserve={false}
        data-testid="score-entry"
      >
        <Form.Item name="profile_id" label="被评员工" rules={[{ required: true, message: '请选择被评员工' }]}>
          <Select
            showSearch
            optionFilterProp="label"
            loading={profiles.isLoading}
            onChange={() => form.setFieldsValue({ hid: undefined, scores: {} })}
            options={(profiles.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.name}（${p.post_ch}）` }))}
            data-testid="score-entry-profile"
          />
        </Form.Item>
        <Form.Item
          name="hid"
          label="住户"
          rules={[{ required: true, message: '请选择住户' }]}
          extra={info.data ? `负责范围：${info.data.areas_text}` : undefined}
        >
          <Select
            showSearch
            filterOption={false}
            onSearch={setHouseKeyword}
            disabled={!profileId}
            loading={houses.isFetching}
            placeholder="输入地址或业主姓名搜索"
            options={(houses.data?.items ?? []).map((h) => ({
              value: h.hid,
              label: h.owner_name ? `${h.address}（${h.owner_name}）` : h.address,
            }))}
            data-testid="score-entry-house"
          />
        </Form.Item>
        <Form.Item name="month" label="评分月份" rules={[{ required: true, message: '请选择月份' }]}>
          <DatePicker picker="month" allowClear={false} inputReadOnly disabledDate={(d) => d.isAfter(dayjs(), 'month')} />
        </Form.Item>
        <Form.Item
          label="各项评分（1–5 分）"
          required
          name="scores"
          rules={[
            {
              validator: (_, v: Record<string, number>) =>
                Object.values(v ?? {}).some((s) => s > 0) ? Promise.resolve() : Promise.reject(new Error('请为至少一个考核项目评分')),
            },
          ]}
        >
          <ScoresInput items={info.data?.items ?? []} />
        </Form.Item>
        <Form.Item name="content" label="评语" rules={[{ max: 500, message: '评语最多500字' }]}>
          <Input.TextArea rows={2} placeholder="住户的原话或回访记录" data-testid="score-entry-content" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ScoresInput({
  items,
  value,
  onChange,
}: {
  items: Array<{ item_id: number; name: string; weight: string }>;
  value?: Record<string, number>;
  onChange?: (v: Record<string, number>) => void;
}) {
  if (!items.length) return <Typography.Text type="secondary">先选择被评员工</Typography.Text>;
  return (
    <div>
      {items.map((i) => (
        <div className="steward-rate-row" key={i.item_id}>
          <span className="steward-rate-name">
            {i.name} <Typography.Text type="secondary">{i.weight}%</Typography.Text>
          </span>
          <Rate
            value={value?.[i.item_id] ?? 0}
            onChange={(s) => onChange?.({ ...value, [i.item_id]: s })}
            data-testid={`score-entry-rate-${i.item_id}`}
          />
        </div>
      ))}
    </div>
  );
}

/**
 * /steward/scorelist (管家评分; docs/product.md#steward-scores): by year, quarter or month, per
 * staff member: rank, post, buildings served, per-item averages, weighted total, households rated
 * against served, low scores, the repair and complaint ratings and the overall figure; a chart of
 * the figures, details per row, export, and the entry of a household's scores.
 */
export default function ScoreList() {
  const [params, setParams] = useSearchParams();
  const [periodType, setPeriodType] = useState<PeriodType>('month');
  const [date, setDate] = useState<Dayjs>(dayjs());
  const [post, setPost] = useState<StewardPost>();
  const [keyword, setKeyword] = useState('');
  const [detail, setDetail] = useState<DetailTarget | null>(null);
  const [entry, setEntry] = useState(false);
  const canWrite = useCanWrite(steward.def.roles.write);
  const period = periodOf(periodType, date);
  const payload = { period_type: periodType, period, post: post ?? ('' as const), keyword };
  const q = useQuery({ queryKey: ['scorelist', payload], queryFn: () => call('scorelist', payload) });
  const data = q.data;

  // 查看评分 from the profiles opens this page on a profile's details
  const wanted = Number(params.get('profile')) || 0;
  useEffect(() => {
    if (!wanted || !data) return;
    const row = data.items.find((r) => r.profile_id === wanted);
    if (row) setDetail({ row, lowOnly: false });
    setParams({}, { replace: true });
  }, [wanted, data, setParams]);

  const columns = useMemo<TableColumnsType<ScoreSummaryRow>>(() => {
    const itemCols = (data?.columns ?? []).map((c) => ({
      key: `item-${c.item_id}`,
      title: c.name,
      width: 90,
      align: 'center' as const,
      render: (_: unknown, r: ScoreSummaryRow) => {
        const i = r.items.find((x) => x.item_id === c.item_id);
        if (!i) return <Typography.Text type="secondary">不考核</Typography.Text>;
        return avgCell(i.avg, i.count);
      },
    }));
    return [
      {
        key: 'rank',
        title: '排名',
        dataIndex: 'rank',
        width: 64,
        fixed: 'left',
        align: 'center',
        render: (v: number | null) => (v === null ? '—' : v <= 3 ? <Tag color={['gold', 'default', 'orange'][v - 1]}>{v}</Tag> : v),
      },
      { key: 'name', title: '员工', dataIndex: 'name', width: 90, fixed: 'left' },
      { key: 'post', title: '岗位', dataIndex: 'post', width: 70, render: (v: string) => <EnumTag enum={STEWARD_POST} value={v} /> },
      { key: 'areas_text', title: '负责楼栋', dataIndex: 'areas_text', width: 150, ellipsis: true },
      ...itemCols,
      {
        key: 'weighted_total',
        title: <Tooltip title="各项平均分按档案的权重加权；未被评分的项目不计入">加权总分</Tooltip>,
        dataIndex: 'weighted_total',
        width: 90,
        align: 'center',
        render: (v: string) => (v ? <b>{v}</b> : '—'),
      },
      {
        key: 'rated',
        title: '评分/服务户数',
        width: 120,
        align: 'center',
        render: (_: unknown, r) => (
          <Tooltip title={r.coverage ? `覆盖率 ${r.coverage}%` : undefined}>
            {r.rated_households} / {r.served_households}
          </Tooltip>
        ),
      },
      {
        key: 'low_count',
        title: `差评数（≤${LOW_SCORE}分）`,
        dataIndex: 'low_count',
        width: 110,
        align: 'center',
        render: (v: number, r) =>
          v ? (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => setDetail({ row: r, lowOnly: true })}
              data-testid={`score-low-${r.profile_id}`}
            >
              {v}
            </Button>
          ) : (
            0
          ),
      },
      {
        key: 'repair',
        title: '维修评价',
        width: 90,
        align: 'center',
        render: (_: unknown, r) => avgCell(r.repair_avg, r.repair_count, '单'),
      },
      { key: 'repair_count', title: '维修评价数', dataIndex: 'repair_count', width: 90, align: 'center' },
      {
        key: 'complaint',
        title: '投诉评价',
        width: 90,
        align: 'center',
        render: (_: unknown, r) => avgCell(r.complaint_avg, r.complaint_count, '单'),
      },
      { key: 'complaint_count', title: '投诉评价数', dataIndex: 'complaint_count', width: 90, align: 'center' },
      {
        key: 'overall',
        title: <Tooltip title="加权总分与维修、投诉评价的合并：每户评分一票、每张评价过的工单一票；按它排名">综合得分</Tooltip>,
        dataIndex: 'overall',
        width: 90,
        align: 'center',
        render: (v: string) => (v ? <b>{v}</b> : '—'),
      },
      {
        key: 'actions',
        title: '操作',
        width: 80,
        fixed: 'right',
        render: (_: unknown, r) => (
          <Button
            type="link"
            size="small"
            onClick={() => setDetail({ row: r, lowOnly: false })}
            data-testid={`score-detail-${r.profile_id}`}
          >
            明细
          </Button>
        ),
      },
    ];
  }, [data]);

  const ranked = useMemo(() => (data?.items ?? []).filter((r) => r.overall !== ''), [data]);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: ['加权总分', '综合得分'], top: 0, right: 0 },
      grid: { left: 40, right: 16, bottom: 30, top: 44 },
      xAxis: { type: 'category', data: ranked.map((r) => r.name) },
      yAxis: { type: 'value', name: '分', min: 0, max: 5 },
      series: [
        {
          name: '加权总分',
          type: 'bar',
          data: ranked.map((r) => (r.weighted_total === '' ? null : Number(r.weighted_total))),
          barMaxWidth: 28,
        },
        { name: '综合得分', type: 'bar', data: ranked.map((r) => Number(r.overall)), barMaxWidth: 28 },
      ],
    }),
    [ranked],
  );

  return (
    <Card title={`管家评分${data ? ` · ${data.period_label}` : ''}`} variant="borderless" data-testid="score-page">
      <Space wrap className="steward-score-filters">
        <Segmented<PeriodType>
          value={periodType}
          onChange={setPeriodType}
          options={enumOptions(PERIOD_TYPE)}
          data-testid="score-period-type"
        />
        <DatePicker
          picker={periodType}
          value={date}
          allowClear={false}
          inputReadOnly
          format={pickerFormat(periodType)}
          onChange={(d) => d && setDate(d)}
          data-testid="score-period"
        />
        <Select
          allowClear
          placeholder="全部岗位"
          style={{ width: 120 }}
          value={post}
          onChange={setPost}
          options={enumOptions(STEWARD_POST)}
          data-testid="score-post"
        />
        <Input.Search placeholder="姓名/账号" allowClear onSearch={(v) => setKeyword(v.trim())} style={{ width: 180 }} />
        <Button icon={<DownloadOutlined />} onClick={() => void runExport('scoreexport', payload)} data-testid="score-export">
          导出
        </Button>
        {canWrite && (
          <Button type="primary" icon={<EditOutlined />} onClick={() => setEntry(true)} data-testid="score-entry-open">
            录入评分
          </Button>
        )}
      </Space>
      {ranked.length > 0 && (
        <div className="steward-chart">
          <EChart option={option} height={260} testId="score-chart" />
        </div>
      )}
      <Table
        rowKey="profile_id"
        size="middle"
        bordered
        loading={q.isFetching}
        columns={columns}
        dataSource={data?.items ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description="还没有管家档案，请先在“管家档案”中建档" /> }}
        data-testid="score-table"
      />
      <Typography.Text type="secondary" className="steward-note">
        分数为 1–5 分；服务户数为当前负责范围内的房屋数；维修、投诉评价来自业主对工单的评价，计入处理人的综合得分。
      </Typography.Text>
      <DetailDrawer target={detail} periodType={periodType} period={period} onClose={() => setDetail(null)} />
      <ScoreEntry open={entry} onClose={() => setEntry(false)} />
    </Card>
  );
}
