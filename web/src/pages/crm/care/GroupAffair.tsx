import { useRef, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Form,
  Input,
  Pagination,
  Progress,
  Radio,
  Row,
  Select,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { BIRTH_MONTH, CARE_ATTENTION, CARE_CUSTOMER_KIND, careCustomer } from '@wuye/contract/crm/care';
import { AFFAIR_KIND, ASSIGN_MODE, careAffair, type CareBatchRow, type GroupAffairPreview } from '@wuye/contract/crm/careAffairs';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { useList } from '../../../api/useList';
import { EnumTag, SmallSelect, invalidateResource, useCanWrite } from '../../../components/resource';
import { TextPromptModal } from '../../../components/TextPromptModal';

interface Criteria {
  bid?: number;
  tag?: string;
  attention?: string;
  birth_month?: string;
  kind?: string;
  steward_id?: number;
}
interface AffairValues {
  title: string;
  affair_kind: string;
  content?: string;
  due_date: dayjs.Dayjs;
  assign_mode: 'steward' | 'fixed';
  assignee_id: number;
}

const clean = (c: Criteria) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined && v !== null && v !== ''));

/** One group affair with its progress: done of all, open, cancelled, late; its bulk actions. */
function BatchItem({ b, onChanged }: { b: CareBatchRow; onChanged: () => void }) {
  const navigate = useNavigate();
  const canWrite = useCanWrite(careAffair.def.roles.write);
  const [acting, setActing] = useState<'cancel' | 'assign' | null>(null);
  // read when the confirmation is accepted, not when it opened
  const assignee = useRef<number | undefined>(undefined);
  const { modal } = App.useApp();
  const percent = Math.round((b.done * 100) / b.total);
  const assign = () =>
    modal.confirm({
      title: `转派「${b.title}」的 ${b.open} 条待办事务`,
      content: (
        <SmallSelect
          widget={{ small: 'care_staff_small_list' }}
          values={{}}
          onChange={(v) => (assignee.current = v as number)}
          placeholder="请选择新的负责人"
          style={{ width: '100%' }}
          testId={`care-batch-assignee-${b.id}`}
        />
      ),
      okButtonProps: { 'data-testid': `care-batch-assign-ok-${b.id}` } as never,
      onOk: async () => {
        const answer = await request('groupaffairassign', { id: b.id, assignee_id: assignee.current ?? 0 });
        noticeSuccess(answer.return_msg);
        onChanged();
      },
    });
  const actions = [
    <Button
      key="view"
      size="small"
      type="link"
      onClick={() => void navigate(`/crm/affair?batch_id=${b.id}`)}
      data-testid={`care-batch-view-${b.id}`}
    >
      查看事务
    </Button>,
    ...(canWrite && b.open > 0
      ? [
          <Button key="assign" size="small" type="link" onClick={assign} data-testid={`care-batch-assign-${b.id}`}>
            转派待办
          </Button>,
          <Button
            key="cancel"
            size="small"
            type="link"
            danger
            onClick={() => setActing('cancel')}
            data-testid={`care-batch-cancel-${b.id}`}
          >
            取消待办
          </Button>,
        ]
      : []),
  ];
  return (
    <Card
      size="small"
      data-testid={`care-batch-${b.id}`}
      title={
        <Space wrap size={4}>
          <span>{b.title}</span>
          <EnumTag enum={AFFAIR_KIND} value={b.affair_kind} />
          {b.overdue > 0 && <Tag color="red">逾期 {b.overdue}</Tag>}
        </Space>
      }
      actions={actions}
    >
      <Space orientation="vertical" size={2} style={{ width: '100%' }}>
        <Typography.Text>
          对象：{b.criteria_text} · 计划 {b.due_date}
        </Typography.Text>
        <Typography.Text type="secondary">
          {b.assign_mode_ch}（{b.assignee_name}） · {b.creator} 于 {b.create_time} 创建
        </Typography.Text>
        {b.content && <Typography.Text type="secondary">{b.content}</Typography.Text>}
        <Progress
          percent={percent}
          size="small"
          format={() => `${b.done}/${b.total}`}
          status={b.open === 0 ? 'success' : 'active'}
          data-testid={`care-batch-progress-${b.id}`}
        />
        <Typography.Text type="secondary">
          已完成 {b.done} · 待办 {b.open} · 已取消 {b.cancelled}
        </Typography.Text>
      </Space>
      {acting === 'cancel' && (
        <TextPromptModal
          open
          title={`取消「${b.title}」的 ${b.open} 条待办事务`}
          label="取消原因"
          required="请填写取消原因"
          maxLength={200}
          danger
          testIds={{ text: `care-batch-cancel-reason-${b.id}`, ok: `care-batch-cancel-ok-${b.id}` }}
          send={(reason) => request('groupaffaircancel', { id: b.id, reason })}
          onDone={() => {
            setActing(null);
            onChanged();
          }}
          onCancel={() => setActing(null)}
        >
          <Typography.Paragraph type="secondary">已完成的事务不受影响，负责人的待办随之关闭。</Typography.Paragraph>
        </TextPromptModal>
      )}
    </Card>
  );
}

/**
 * /crm/groupaffairadds (批量事务; docs/product.md#crm-care): choose the customers (building, tag,
 * special attention, birthday month, kind, steward), see how many and who, then one affair for each
 * of them at once (all or nothing); below, the group affairs made, their progress and the bulk
 * reassign and cancel of what is still open.
 */
export default function GroupAffair() {
  const [criteria] = Form.useForm<Criteria>();
  const [affair] = Form.useForm<AffairValues>();
  const [preview, setPreview] = useState<GroupAffairPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(careAffair.def.roles.write);
  const batches = useList('groupaffairlist', { sort: 'desc' } as never);

  const look = async () => {
    setPreview(await call('groupaffairpreview', clean(criteria.getFieldsValue()) as never));
  };
  const create = async () => {
    const v = await affair.validateFields().catch(() => null);
    if (!v || !preview) return;
    const payload = {
      ...clean(criteria.getFieldsValue()),
      title: v.title.trim(),
      affair_kind: v.affair_kind,
      content: (v.content ?? '').trim(),
      due_date: v.due_date.format('YYYY-MM-DD'),
      assign_mode: v.assign_mode,
      assignee_id: v.assignee_id,
    };
    modal.confirm({
      title: `为 ${preview.total} 位客户各新建一条事务？`,
      content: `对象：${preview.criteria_text}。全部成功才会创建；每条事务会进入负责人的待办。`,
      okButtonProps: { 'data-testid': 'care-group-confirm' } as never,
      onOk: async () => {
        setBusy(true);
        try {
          const answer = await request('groupaffairadds', payload as never);
          noticeSuccess(answer.return_msg);
          setPreview(null);
          affair.resetFields();
          batches.reload();
          void invalidateResource(queryClient, careAffair.def.name);
          void invalidateResource(queryClient, careCustomer.def.name);
        } finally {
          setBusy(false);
        }
      },
    });
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {canWrite && (
        <Card variant="borderless" title="新建批量事务" data-testid="care-group-form">
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            1. 选择客户
          </Typography.Title>
          <Form form={criteria} layout="vertical" onValuesChange={() => setPreview(null)}>
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item name="bid" label="楼栋">
                  <SmallSelect
                    widget={{ small: 'building_small_list' }}
                    values={{}}
                    placeholder="全部楼栋"
                    allowClear
                    testId="care-group-bid"
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="attention" label="特别关注">
                  <Select options={enumOptions(CARE_ATTENTION)} placeholder="不限" allowClear data-testid="care-group-attention" />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="tag" label="标签">
                  <Input maxLength={10} placeholder="如重点客户" allowClear data-testid="care-group-tag" />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="birth_month" label="生日月份">
                  <Select options={enumOptions(BIRTH_MONTH)} placeholder="不限" allowClear data-testid="care-group-birth_month" />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="kind" label="客户类型">
                  <Select options={enumOptions(CARE_CUSTOMER_KIND)} placeholder="不限" allowClear data-testid="care-group-kind" />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="steward_id" label="负责管家">
                  <SmallSelect
                    widget={{ small: 'care_staff_small_list' }}
                    values={{}}
                    placeholder="不限"
                    allowClear
                    testId="care-group-steward"
                  />
                </Form.Item>
              </Col>
            </Row>
            <Button onClick={() => void look()} data-testid="care-group-preview">
              预览客户
            </Button>
          </Form>
          {preview && (
            <Alert
              style={{ marginTop: 12 }}
              type={preview.total === 0 || preview.total > preview.limit ? 'warning' : 'success'}
              title={
                preview.total === 0
                  ? `${preview.criteria_text}：没有关怀中的客户`
                  : preview.total > preview.limit
                    ? `${preview.criteria_text}：共 ${preview.total} 位，超过一次最多 ${preview.limit} 位，请缩小范围`
                    : `${preview.criteria_text}：共 ${preview.total} 位客户`
              }
              description={
                preview.names.length ? `${preview.names.join('、')}${preview.total > preview.names.length ? ' 等' : ''}` : undefined
              }
              data-testid="care-group-count"
            />
          )}
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            2. 事务内容
          </Typography.Title>
          <Form
            form={affair}
            layout="vertical"
            initialValues={{ affair_kind: 'festival', assign_mode: 'steward', due_date: dayjs().add(3, 'day') }}
          >
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item name="title" label="批量事务名称" rules={[{ required: true, whitespace: true, message: '请输入批量事务名称' }]}>
                  <Input maxLength={40} placeholder="如：中秋节慰问（1号楼）" data-testid="care-group-title" />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="affair_kind" label="事务类型" rules={[{ required: true, message: '请选择事务类型' }]}>
                  <Select options={enumOptions(AFFAIR_KIND)} data-testid="care-group-kind-affair" />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="due_date" label="计划日期" rules={[{ required: true, message: '请选择计划日期' }]}>
                  <DatePicker
                    inputReadOnly
                    style={{ width: '100%' }}
                    disabledDate={(d) => d.isBefore(dayjs(), 'day')}
                    data-testid="care-group-due"
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="assign_mode" label="分配方式">
                  <Radio.Group options={enumOptions(ASSIGN_MODE)} data-testid="care-group-mode" />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item
                  name="assignee_id"
                  label="负责人"
                  extra="客户没有负责管家时（或统一指定时）由此人负责"
                  rules={[{ required: true, message: '请选择负责人' }]}
                >
                  <SmallSelect
                    widget={{ small: 'care_staff_small_list' }}
                    values={{}}
                    placeholder="请选择负责人"
                    testId="care-group-assignee"
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="content" label="事务内容">
                  <Input.TextArea rows={1} maxLength={500} placeholder="如：上门送月饼，了解近况" data-testid="care-group-content" />
                </Form.Item>
              </Col>
            </Row>
            <Button
              type="primary"
              loading={busy}
              disabled={!preview || preview.total === 0 || preview.total > preview.limit}
              onClick={() => void create()}
              data-testid="care-group-create"
            >
              {preview && preview.total > 0 ? `为 ${preview.total} 位客户创建` : '请先预览客户'}
            </Button>
          </Form>
        </Card>
      )}
      <Card variant="borderless" title="批量事务记录" data-testid="care-batches">
        {batches.loading && !batches.items.length ? (
          <Spin />
        ) : batches.items.length === 0 ? (
          <Empty description="还没有批量事务" />
        ) : (
          <Row gutter={[16, 16]}>
            {batches.items.map((b) => (
              <Col key={b.id} xs={24} lg={12}>
                <BatchItem
                  b={b}
                  onChanged={() => {
                    batches.reload();
                    void invalidateResource(queryClient, careAffair.def.name);
                  }}
                />
              </Col>
            ))}
          </Row>
        )}
        {batches.total > batches.limit && (
          <Pagination
            style={{ marginTop: 16 }}
            size="small"
            current={batches.page}
            pageSize={batches.limit}
            total={batches.total}
            onChange={(p, l) => batches.setPage(p, l)}
            showSizeChanger={false}
          />
        )}
      </Card>
    </Space>
  );
}
