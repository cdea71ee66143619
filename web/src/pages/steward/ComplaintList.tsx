import { useEffect, useMemo, useState } from 'react';
import {
  App,
  Button,
  Checkbox,
  DatePicker,
  Descriptions,
  Drawer,
  Form,
  Input,
  Modal,
  Radio,
  Rate,
  Select,
  Space,
  Spin,
  Switch,
  Tag,
  Typography,
} from 'antd';
import type { ButtonProps, TableColumnsType } from 'antd';
import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import type { Dayjs } from 'dayjs';
import { enumOptions } from '@wuye/contract/kit/resource';
import {
  COMPLAINT_KIND,
  COMPLAINT_STATUS,
  complaintFlow,
  complaintSchemas,
  type ComplaintRow,
  type ComplaintStatus,
} from '@wuye/contract/steward/complaints';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { StatusBar, type StatusBarKey } from '../../components/StatusBar';
import { useActionFixed } from '../../components/TablePage';
import { EnumTag, invalidateResource, RoomCascader, useRoles, useSmallList, WorkflowTimeline, zodRule } from '../../components/resource';
import { rangePickerPresets } from '../../components/resource/dateRanges';
import { PhotoGallery, PhotosInput } from '../../components/PhotosInput';
import { useSystem } from '../../stores/system';
import ComplaintActions, { useComplaintStaff } from './ComplaintActions';
import ComplaintToRepair from './ComplaintToRepair';

interface Filters {
  no?: string;
  kind?: '' | 'C' | 'S' | 'Q';
  category_id?: number;
  handler_id?: number;
  room?: number[];
  phone?: string;
  created?: [Dayjs, Dayjs] | null;
  overdue?: '' | 'Y' | 'N';
  mine?: boolean;
}

type Bar = StatusBarKey<ComplaintStatus>;

const toQuery = (v: Filters) => ({
  no: v.no ?? '',
  kind: v.kind ?? '',
  category_id: v.category_id,
  handler_id: v.handler_id,
  hid: v.room?.[2],
  phone: v.phone ?? '',
  created: v.created ? ([v.created[0].format('YYYY-MM-DD'), v.created[1].format('YYYY-MM-DD')] as [string, string]) : undefined,
  overdue: v.overdue ?? '',
  mine: !!v.mine,
});

/** 超时 beside the state, with which deadline was missed. */
function OverdueTag({ row }: { row: ComplaintRow }) {
  if (!row.overdue) return null;
  const what = [row.respond_overdue && '首次响应', row.close_overdue && '办结'].filter(Boolean).join('、');
  return (
    <Tag color="red" title={`${what}超时`} data-testid={`complaint-overdue-${row.id}`}>
      超时
    </Tag>
  );
}

const addSchema = complaintSchemas.complaintadd.shape;

/** 登记投诉建议: the desk registers what an owner says on the phone or at the front desk. */
function AddComplaint({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: (id: number) => void }) {
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const categories = useSmallList('complaintcategory_small_list', open ? {} : null);
  const submit = async () => {
    let v: Record<string, unknown>;
    try {
      v = (await form.validateFields()) as Record<string, unknown>;
    } catch {
      return;
    }
    setBusy(true);
    try {
      const room = v.room as number[] | undefined;
      const answer = await call('complaintadd', {
        kind: v.kind as 'C' | 'S' | 'Q',
        category_id: v.category_id as number,
        hid: room?.[2],
        contact: String(v.contact ?? ''),
        phone: String(v.phone ?? ''),
        content: String(v.content ?? ''),
        photos: (v.photos as string[] | undefined) ?? [],
        anonymous: !!v.anonymous,
      });
      noticeSuccess(`已登记，编号 ${answer.no}`);
      form.resetFields();
      onAdded(answer.id);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title="登记投诉建议"
      open={open}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'complaint-save' } as ButtonProps}
      destroyOnHidden
      width={620}
    >
      <Form form={form} layout="vertical" initialValues={{ kind: 'C', anonymous: false, photos: [] }}>
        <Form.Item name="kind" label="类型" rules={[{ required: true, message: '请选择类型' }]}>
          <Radio.Group options={enumOptions(COMPLAINT_KIND)} optionType="button" data-testid="complaint-kind" />
        </Form.Item>
        <Form.Item name="category_id" label="分类" rules={[{ required: true, message: '请选择分类' }]}>
          <Select options={categories.options} placeholder="选择分类" data-testid="complaint-category" />
        </Form.Item>
        <Form.Item name="room" label="房屋" extra="公共区域的投诉可不选房屋">
          <RoomCascader testId="complaint-room" />
        </Form.Item>
        <Space.Compact block>
          <Form.Item name="contact" label="联系人" rules={[zodRule(addSchema.contact, '联系人')]} style={{ flex: 1 }}>
            <Input maxLength={30} data-testid="complaint-contact" />
          </Form.Item>
          <Form.Item name="phone" label="联系电话" rules={[zodRule(addSchema.phone, '联系电话')]} style={{ flex: 1, marginLeft: 12 }}>
            <Input maxLength={13} data-testid="complaint-phone" />
          </Form.Item>
        </Space.Compact>
        <Form.Item name="content" label="内容" rules={[zodRule(addSchema.content, '内容')]}>
          <Input.TextArea rows={4} maxLength={500} showCount data-testid="complaint-content" />
        </Form.Item>
        <Form.Item name="photos" label="图片（最多 9 张）">
          <PhotosInput max={9} testId="complaint-photos" />
        </Form.Item>
        <Form.Item name="anonymous" label="匿名" valuePropName="checked" extra="匿名时处理人看不到联系人和电话，管家仍可看到">
          <Switch data-testid="complaint-anonymous" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A complaint's detail: what was registered, its deadlines, the handling and rating, photos and the timeline. */
function ComplaintDetail({ id, onClose, onChanged }: { id: number | null; onClose: () => void; onChanged: () => void }) {
  const can = useRoles();
  const info = useQuery({
    queryKey: ['res', 'complaint', 'info', id],
    queryFn: () => call('complaintinfo', { id: id! }),
    enabled: id !== null,
  });
  const r = info.data;
  return (
    <Drawer open={id !== null} onClose={onClose} title={r ? `${r.kind_ch} ${r.no}` : '投诉详情'} size="large" destroyOnHidden>
      {!r ? (
        <Spin />
      ) : (
        <div data-testid="complaint-detail">
          <Space style={{ marginBottom: 12 }} wrap>
            <EnumTag enum={COMPLAINT_STATUS} value={r.status} />
            <OverdueTag row={r} />
            {r.anonymous && <Tag>匿名</Tag>}
            <ComplaintActions
              row={r}
              size="middle"
              onDone={() => {
                void info.refetch();
                onChanged();
              }}
            />
            {can(STEWARD_ROLES.desk) && r.repair_id === null && (r.status === 'W' || r.status === 'D') && (
              <ComplaintToRepair
                row={r}
                size="middle"
                onDone={() => {
                  void info.refetch();
                  onChanged();
                }}
              />
            )}
          </Space>
          <Descriptions
            column={{ xs: 1, md: 2 }}
            size="small"
            bordered
            items={[
              { key: 'kind', label: '类型', children: r.kind_ch },
              { key: 'cat', label: '分类', children: r.category },
              { key: 'room', label: '房屋', children: r.address || '公共区域' },
              { key: 'contact', label: '联系人', children: `${r.contact} ${r.phone}` },
              {
                key: 'content',
                label: '内容',
                span: 2,
                children: <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{r.content}</Typography.Paragraph>,
              },
              { key: 'handler', label: '处理人', children: r.handler_name || '—' },
              { key: 'creator', label: '登记', children: `${r.creator} ${r.create_time}` },
              {
                key: 'respond',
                label: '首次响应截止',
                children: (
                  <>
                    {r.respond_deadline} {r.accept_time && <Typography.Text type="secondary">（{r.accept_time} 受理）</Typography.Text>}
                  </>
                ),
              },
              {
                key: 'close',
                label: '办结截止',
                children: (
                  <>
                    {r.close_deadline} {r.finish_time && <Typography.Text type="secondary">（{r.finish_time} 办结）</Typography.Text>}
                  </>
                ),
              },
              ...(r.finish_note ? [{ key: 'note', label: '办结说明', span: 2, children: r.finish_note }] : []),
              ...(r.rating !== null
                ? [
                    {
                      key: 'rating',
                      label: '评价',
                      span: 2,
                      children: (
                        <>
                          <Rate disabled value={r.rating} style={{ fontSize: 14 }} /> {r.rated_auto ? '系统默认好评' : r.rating_text}
                        </>
                      ),
                    },
                  ]
                : []),
              ...(r.close_reason ? [{ key: 'closed', label: '关闭原因', span: 2, children: `${r.close_reason_ch} ${r.close_note}` }] : []),
              ...(r.repair_id !== null
                ? [
                    {
                      key: 'repair',
                      label: '报修单',
                      span: 2,
                      children: (
                        <Link to={`/steward/repairs?id=${r.repair_id}`} data-testid="complaint-repair-link">
                          {r.repair_no || `报修单 #${r.repair_id}`}
                        </Link>
                      ),
                    },
                  ]
                : []),
            ]}
          />
          {r.photos.length > 0 && (
            <div style={{ marginTop: 12 }}>
              <PhotoGallery urls={r.photos} testId="complaint-photos-view" />
            </div>
          )}
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            处理记录
          </Typography.Title>
          <WorkflowTimeline flow={complaintFlow} items={r.log} />
        </div>
      )}
    </Drawer>
  );
}

/**
 * 投诉建议 (/steward/complaintlist; docs/product.md#complaints): a status bar with the counts per state
 * and 超时, the filters, the actions each row's state and the user allow, export, registration and
 * the detail with its timeline (?id= opens one, as the to-do list links it).
 */
export default function ComplaintList() {
  const list = useList('complaintlist', { sort: 'desc' });
  const [form] = Form.useForm<Filters>();
  const [bar, setBar] = useState<Bar>('');
  const [adding, setAdding] = useState(false);
  const [params, setParams] = useSearchParams();
  const viewing = Number(params.get('id')) || null;
  const can = useRoles();
  const desk = can(STEWARD_ROLES.desk);
  const actionFixed = useActionFixed();
  const queryClient = useQueryClient();
  const categories = useSmallList('complaintcategory_small_list', {});
  const staff = useComplaintStaff();
  const zone = useSystem((s) => s.info?.time_zone) || undefined;
  const presets = useMemo(() => rangePickerPresets(zone), [zone]);
  const { message } = App.useApp();
  const counts = list.answer?.counts;

  const open = (id: number | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('id', String(id));
    else next.delete('id');
    setParams(next, { replace: true });
  };
  useEffect(() => {
    if (viewing) void queryClient.invalidateQueries({ queryKey: ['res', 'complaint', 'info', viewing] });
  }, [viewing, queryClient]);

  const apply = (b: Bar, v: Filters = form.getFieldsValue(true) as Filters) => {
    const q = toQuery(v);
    list.setFilters({
      sort: 'desc',
      ...q,
      status: b === 'overdue' || b === '' ? '' : b,
      overdue: b === 'overdue' ? 'Y' : q.overdue,
    });
  };

  const columns: TableColumnsType<ComplaintRow> = [
    {
      title: '编号',
      dataIndex: 'no',
      width: 100,
      render: (no: string, r) => (
        <a onClick={() => open(r.id)} data-testid={`complaint-view-${r.id}`}>
          {no}
        </a>
      ),
    },
    { title: '类型', dataIndex: 'kind', width: 70, render: (k: string) => <EnumTag enum={COMPLAINT_KIND} value={k} /> },
    { title: '分类', dataIndex: 'category', width: 100 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 130,
      render: (s: ComplaintStatus, r) => (
        <Space size={2}>
          <EnumTag enum={COMPLAINT_STATUS} value={s} />
          <OverdueTag row={r} />
        </Space>
      ),
    },
    { title: '房屋', dataIndex: 'address', width: 150, render: (a: string) => a || '公共区域' },
    {
      title: '联系人',
      dataIndex: 'contact',
      width: 100,
      render: (c: string, r) => (
        <span>
          {c}
          {r.anonymous && desk && <Typography.Text type="secondary">（匿名）</Typography.Text>}
        </span>
      ),
    },
    { title: '电话', dataIndex: 'phone', width: 120 },
    { title: '内容', dataIndex: 'content', width: 220, ellipsis: true },
    { title: '处理人', dataIndex: 'handler_name', width: 90 },
    { title: '首次响应截止', dataIndex: 'respond_deadline', width: 170 },
    { title: '办结截止', dataIndex: 'close_deadline', width: 170 },
    {
      title: '满意度',
      dataIndex: 'rating',
      width: 120,
      render: (v: number | null) => (v === null ? '' : <Rate disabled value={v} style={{ fontSize: 12 }} />),
    },
    { title: '登记时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 330,
      fixed: actionFixed,
      render: (_, r) => (
        <Space size={4} wrap>
          <Button size="small" type="link" onClick={() => open(r.id)} data-testid={`complaint-detail-${r.id}`}>
            详情
          </Button>
          <ComplaintActions row={r} onDone={list.reload} />
        </Space>
      ),
    },
  ];

  return (
    <>
      <StatusBar
        states={['W', 'D', 'E', 'Y', 'X'] as const}
        labels={COMPLAINT_STATUS}
        waiting={['W'] as const}
        counts={counts}
        value={bar}
        onChange={(b) => {
          setBar(b);
          apply(b);
        }}
        testId="complaint"
      />
      <TablePage<ComplaintRow, Filters>
        testId="complaintlist-page"
        title="投诉建议"
        list={list}
        form={form}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 1900 } }}
        onSearch={(v) => apply(bar, v)}
        onExport={
          desk
            ? async (v) => {
                const q = toQuery(v);
                await runExport('complaintexport', {
                  ...q,
                  sort: 'desc',
                  status: bar === 'overdue' || bar === '' ? '' : bar,
                  overdue: bar === 'overdue' ? 'Y' : q.overdue,
                });
              }
            : undefined
        }
        toolbar={
          desk && (
            <Space wrap>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="complaint-add">
                登记投诉建议
              </Button>
              <Link to="/steward/complaintcategory">
                <Button icon={<SettingOutlined />} data-testid="complaint-categories">
                  分类设置
                </Button>
              </Link>
            </Space>
          )
        }
        filters={
          <>
            <Form.Item name="no" label="编号">
              <Input allowClear placeholder="TS000001" style={{ width: 120 }} data-testid="complaint-filter-no" />
            </Form.Item>
            <Form.Item name="kind" label="类型">
              <Select allowClear options={enumOptions(COMPLAINT_KIND)} style={{ width: 90 }} data-testid="complaint-filter-kind" />
            </Form.Item>
            <Form.Item name="category_id" label="分类">
              <Select allowClear options={categories.options} style={{ width: 120 }} data-testid="complaint-filter-category" />
            </Form.Item>
            {desk && (
              <Form.Item name="handler_id" label="处理人">
                <Select
                  allowClear
                  showSearch
                  optionFilterProp="label"
                  options={staff}
                  style={{ width: 140 }}
                  data-testid="complaint-filter-handler"
                />
              </Form.Item>
            )}
            <Form.Item name="room" label="房屋">
              <RoomCascader testId="complaint-filter-room" style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="phone" label="电话">
              <Input allowClear style={{ width: 130 }} data-testid="complaint-filter-phone" />
            </Form.Item>
            <Form.Item name="created" label="登记时间">
              <DatePicker.RangePicker presets={presets} inputReadOnly style={{ maxWidth: 240 }} />
            </Form.Item>
            <Form.Item name="overdue" label="超时">
              <Select
                allowClear
                style={{ width: 90 }}
                options={[
                  { value: 'Y', label: '超时' },
                  { value: 'N', label: '未超时' },
                ]}
                data-testid="complaint-filter-overdue"
              />
            </Form.Item>
            <Form.Item name="mine" valuePropName="checked">
              <Checkbox data-testid="complaint-filter-mine">只看我处理的</Checkbox>
            </Form.Item>
          </>
        }
      />
      <AddComplaint
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(id) => {
          setAdding(false);
          void invalidateResource(queryClient, 'complaint');
          list.reload();
          void message.info('已加入待受理，可在详情中受理并指派处理人');
          open(id);
        }}
      />
      <ComplaintDetail id={viewing} onClose={() => open(null)} onChanged={list.reload} />
    </>
  );
}
