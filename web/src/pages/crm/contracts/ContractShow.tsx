import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Row,
  Space,
  Spin,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CHANGE_STATUS, CONTRACT_STATUS, contractFlow, type ContractDetail } from '@wuye/contract/crm/contracts';
import { CRM_ROLES } from '@wuye/contract/crm/roles';
import { REFUND_APPLY_ROLES } from '@wuye/contract/fees/refund';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import MoneyInput from '../../../components/MoneyInput';
import { Money } from '../../../components/Money';
import { PhotoGallery } from '../../../components/PhotosInput';
import { TextPromptModal } from '../../../components/TextPromptModal';
import { EnumTag, WorkflowActions, WorkflowTimeline, useRoles } from '../../../components/resource';
import { DAY, PlanEditor, PlanLines, planFromRows, planToWire, type PlanLine } from './parts';

/** Only the steps a detail offers as buttons: approval has its own page. */
const detailFlow = {
  def: {
    ...contractFlow.def,
    transitions: {
      submit: contractFlow.def.transitions.submit,
      void: contractFlow.def.transitions.void,
      terminate: contractFlow.def.transitions.terminate,
    },
  },
};

interface ChangeValues {
  reason: string;
  party_name: string;
  party_mobile: string;
  party_id_card: string;
  total_amount: string;
  sign_date: dayjs.Dayjs;
  start_date: dayjs.Dayjs;
  end_date: dayjs.Dayjs | null;
  instalments: PlanLine[];
}

/** 变更: the amounts, plan, dates and party as they would be; applied once approved. */
function ChangeDialog({ contract, onClose }: { contract: ContractDetail; onClose: (sent: boolean) => void }) {
  const [form] = Form.useForm<ChangeValues>();
  const [busy, setBusy] = useState(false);
  const total = Form.useWatch('total_amount', form);
  const send = async () => {
    if (
      !(await form
        .validateFields()
        .then(() => true)
        .catch(() => false))
    )
      return;
    const v = form.getFieldsValue(true) as ChangeValues;
    setBusy(true);
    try {
      const answer = await request('contractchangeadd', {
        id: contract.id,
        reason: v.reason,
        party_name: v.party_name,
        party_mobile: v.party_mobile,
        party_id_card: v.party_id_card ?? '',
        total_amount: v.total_amount,
        sign_date: v.sign_date.format(DAY),
        start_date: v.start_date.format(DAY),
        end_date: v.end_date ? v.end_date.format(DAY) : '',
        instalments: planToWire(v.instalments),
      } as never);
      noticeSuccess(answer.return_msg);
      onClose(true);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`变更合同 ${contract.contract_no}`}
      width={760}
      onCancel={() => onClose(false)}
      onOk={() => void send()}
      okText="提交变更"
      okButtonProps={{ loading: busy, 'data-testid': 'change-save' } as never}
      destroyOnHidden
    >
      <Alert type="info" showIcon title="变更须审批通过后才写入合同；已出账的款项不能修改。" style={{ marginBottom: 12 }} />
      <Form<ChangeValues>
        form={form}
        layout="vertical"
        initialValues={{
          party_name: contract.party_name,
          party_mobile: contract.party_mobile,
          party_id_card: contract.party_id_card,
          total_amount: contract.total_amount,
          sign_date: dayjs(contract.sign_date),
          start_date: dayjs(contract.start_date),
          end_date: contract.end_date ? dayjs(contract.end_date) : null,
          instalments: planFromRows(contract.instalments),
        }}
        data-testid="change-form"
      >
        <Form.Item name="reason" label="变更原因" rules={[{ required: true, whitespace: true, message: '请填写变更原因' }]}>
          <Input maxLength={200} data-testid="change-reason" />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item name="party_name" label="乙方" rules={[{ required: true, message: '乙方不能为空' }]}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="party_mobile"
              label="联系电话"
              rules={[{ required: true, pattern: /^1[3-9]\d{9}$/, message: '联系电话格式不正确，应为11位手机号' }]}
            >
              <Input maxLength={11} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="party_id_card" label="证件号码">
              <Input maxLength={30} />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="total_amount" label="合同总额（元）" rules={[{ required: true, message: '合同总额不能为空' }]}>
              <MoneyInput data-testid="change-total" />
            </Form.Item>
          </Col>
          <Col xs={8} md={6}>
            <Form.Item name="sign_date" label="签订日期" rules={[{ required: true, message: '签订日期不能为空' }]}>
              <DatePicker inputReadOnly style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={8} md={6}>
            <Form.Item name="start_date" label="生效日期" rules={[{ required: true, message: '生效日期不能为空' }]}>
              <DatePicker inputReadOnly style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={8} md={6}>
            <Form.Item name="end_date" label="结束日期">
              <DatePicker inputReadOnly style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label="收款计划">
          <PlanEditor total={total} testId="change-plan" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /crm/roomshow?id= (合同详情; docs/product.md#crm-contracts): the contract with its units, its plan
 * and what was paid, attachments, changes and the whole record; the actions its state allows.
 */
export default function ContractShow() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const can = useRoles();
  const queryClient = useQueryClient();
  const [changing, setChanging] = useState(false);
  const [refunding, setRefunding] = useState<{ payment_id: number; bill_id: number; name: string } | null>(null);
  const contract = useQuery({
    queryKey: ['roomsalesinfo', id],
    queryFn: () => call('roomsalesinfo', { id }),
    enabled: id > 0,
    retry: false,
  });
  const files = useQuery({
    queryKey: ['contractfilelist', id],
    queryFn: () => call('contractfilelist', { contract_id: id, limit: 200 }),
    enabled: id > 0,
    retry: false,
  });
  const changes = useQuery({
    queryKey: ['contractchangelist', id],
    queryFn: () => call('contractchangelist', { contract_id: id, limit: 50 }),
    enabled: id > 0,
    retry: false,
  });
  const reload = () => {
    void contract.refetch();
    void changes.refetch();
    void queryClient.invalidateQueries({ queryKey: ['contractlog'] });
  };
  const c = contract.data;
  if (!id) return <Empty description="请从合同列表打开合同" />;
  if (!c)
    return (
      <Spin spinning={contract.isLoading}>
        {contract.isError ? <Empty description="合同不存在" /> : <div style={{ minHeight: 200 }} />}
      </Spin>
    );
  const writer = can([...CRM_ROLES.contracts]);
  const renew = async () => {
    try {
      const answer = await request('contractrenew', { id });
      noticeSuccess(answer.return_msg);
      void navigate(`/crm/editroomsales?id=${answer.data.id}`);
    } catch {
      /* shown by the client */
    }
  };
  const custom = c.type_fields.filter((f) => c.custom[f.key] !== undefined && c.custom[f.key] !== '');
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="roomshow-page">
      <Card
        title={
          <Space wrap>
            <span data-testid="roomshow-no">{c.contract_no}</span>
            <span>{c.name}</span>
            <span data-testid="roomshow-status">
              <EnumTag enum={CONTRACT_STATUS} value={c.status} />
            </span>
            {c.pending_change && <Tag color="warning">变更审批中</Tag>}
          </Space>
        }
      >
        {/* the actions below the title: a phone's header has no room for both */}
        <div style={{ marginBottom: 12 }}>
          <Space wrap>
            {c.status === 'D' && writer && (
              <Button onClick={() => void navigate(`/crm/editroomsales?id=${id}`)} data-testid="roomshow-edit">
                编辑
              </Button>
            )}
            <WorkflowActions flow={detailFlow} row={c as never} resource="roomsales" onDone={reload} size="middle" />
            {c.status === 'A' && can([...CRM_ROLES.contractAudit]) && !c.mine && (
              <Button type="primary" onClick={() => void navigate(`/crm/contract_audit?id=${id}`)} data-testid="roomshow-audit">
                审批
              </Button>
            )}
            {(c.status === 'Y' || c.status === 'E') && writer && !c.pending_change && (
              <Button onClick={() => setChanging(true)} data-testid="roomshow-change">
                变更
              </Button>
            )}
            {(c.status === 'Y' || c.status === 'E') && writer && !c.renewal_id && (
              <Button onClick={() => void renew()} data-testid="roomshow-renew">
                续签
              </Button>
            )}
            {writer && c.status !== 'V' && (
              <Button onClick={() => void navigate(`/crm/uploadimg?id=${id}`)} data-testid="roomshow-upload">
                上传附件
              </Button>
            )}
            <Button type="link" onClick={() => void navigate(`/crm/contract_audit_info?id=${id}`)}>
              审批记录
            </Button>
          </Space>
        </div>
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} data-testid="roomshow-info">
          <Descriptions.Item label="合同类型">{c.type_name}</Descriptions.Item>
          <Descriptions.Item label="类别">{c.kind_ch}</Descriptions.Item>
          <Descriptions.Item label="乙方">
            {c.party_name} {c.party_mobile}
          </Descriptions.Item>
          <Descriptions.Item label="证件号码">{c.party_id_card || '-'}</Descriptions.Item>
          {c.customer_name && <Descriptions.Item label="销售客户">{c.customer_name}</Descriptions.Item>}
          <Descriptions.Item label="合同总额">
            <Money value={c.total_amount} unit="元" />
          </Descriptions.Item>
          <Descriptions.Item label="已收">
            <Money value={c.paid_amount} unit="元" testId="roomshow-paid" />
          </Descriptions.Item>
          <Descriptions.Item label="逾期未收">
            <Typography.Text type={c.overdue_amount !== '0.00' ? 'danger' : undefined}>
              <Money value={c.overdue_amount} unit="元" />
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="签订日期">{c.sign_date}</Descriptions.Item>
          <Descriptions.Item label="合同期">
            {c.start_date} 至 {c.end_date ?? '长期'}
          </Descriptions.Item>
          {c.parent_no && (
            <Descriptions.Item label="原合同">
              <Link to={`/crm/roomshow?id=${c.parent_id}`}>{c.parent_no}</Link>
            </Descriptions.Item>
          )}
          {c.renewal_no && (
            <Descriptions.Item label="续签合同">
              <Link to={`/crm/roomshow?id=${c.renewal_id}`}>{c.renewal_no}</Link>
            </Descriptions.Item>
          )}
          <Descriptions.Item label="起草">
            {c.creator} {c.create_time}
          </Descriptions.Item>
          {c.approved_by_name && (
            <Descriptions.Item label="审批通过">
              {c.approved_by_name} {c.approve_time}
            </Descriptions.Item>
          )}
          {c.end_reason && (
            <Descriptions.Item label={c.status === 'V' ? '作废原因' : '终止原因'}>
              {c.end_reason}（{c.ended_on}）
            </Descriptions.Item>
          )}
          {custom.map((f) => (
            <Descriptions.Item key={f.key} label={f.label}>
              {String(c.custom[f.key])}
            </Descriptions.Item>
          ))}
          {c.remark && <Descriptions.Item label="备注">{c.remark}</Descriptions.Item>}
        </Descriptions>
        {(c.kind === 'sale' || c.kind === 'parking') && c.status === 'Y' && c.hid && !c.owner_of_room && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 12 }}
            title={c.member_name ? `乙方已关联住户「${c.member_name}」，但尚未登记为该房屋的业主` : '买受人尚未登记为该房屋的业主'}
            description={
              <span>
                请在 <Link to="/basismembers/index">业主管理</Link> 中为该房屋添加业主 {c.party_name}（{c.party_mobile}）。
              </span>
            }
            data-testid="roomshow-owner-hint"
          />
        )}
      </Card>
      <Card size="small">
        <Tabs
          items={[
            {
              key: 'plan',
              label: '收款计划',
              children: (
                <PlanLines
                  rows={c.instalments}
                  actions={(i) => (
                    <>
                      {(i.state === 'billed' || i.state === 'overdue') && i.bill_id && c.hid && can(['cashier', 'payment']) && (
                        <Link to={`/desktop/cashier?hid=${c.hid}`}>去收款</Link>
                      )}
                      {i.state === 'paid' && i.payment_id && i.refund_status !== 'E' && can([...REFUND_APPLY_ROLES]) && (
                        <Button
                          size="small"
                          type="link"
                          onClick={() => setRefunding({ payment_id: i.payment_id!, bill_id: i.bill_id!, name: i.name })}
                          data-testid={`instalment-refund-${i.seq}`}
                        >
                          申请退款
                        </Button>
                      )}
                    </>
                  )}
                />
              ),
            },
            {
              key: 'units',
              label: `房源（${c.units.length}）`,
              children: c.units.length ? (
                <Space orientation="vertical">
                  {c.units.map((u) => (
                    <Space key={u.id} wrap>
                      <Tag>{u.unit_kind_ch}</Tag>
                      <Typography.Text strong>{u.title}</Typography.Text>
                      {u.area !== '0.00' && <span>{u.area} ㎡</span>}
                      <Money value={u.price} unit="元" />
                      {u.unit_price && <Typography.Text type="secondary">单价 {u.unit_price} 元/㎡</Typography.Text>}
                    </Space>
                  ))}
                </Space>
              ) : (
                <Typography.Text type="secondary">未关联房源</Typography.Text>
              ),
            },
            {
              key: 'files',
              label: `附件（${files.data?.total ?? c.files}）`,
              children: files.data?.items.length ? (
                <Space wrap size="large">
                  {files.data.items.map((f) => (
                    <Space key={f.id} orientation="vertical" size={2}>
                      <PhotoGallery urls={[f.url]} size={96} />
                      <Typography.Text>{f.category}</Typography.Text>
                      <Typography.Text type="secondary">{f.caption || f.name}</Typography.Text>
                    </Space>
                  ))}
                </Space>
              ) : (
                <Typography.Text type="secondary">暂无附件</Typography.Text>
              ),
            },
            {
              key: 'changes',
              label: `变更记录（${changes.data?.total ?? 0}）`,
              children: changes.data?.items.length ? (
                <Space orientation="vertical" style={{ width: '100%' }}>
                  {changes.data.items.map((g) => (
                    <Card
                      key={g.id}
                      size="small"
                      title={
                        <Space>
                          {g.create_time} {g.applicant}
                          <EnumTag enum={CHANGE_STATUS} value={g.status} />
                        </Space>
                      }
                    >
                      <Typography.Paragraph>原因：{g.reason}</Typography.Paragraph>
                      {g.diff.map((d) => (
                        <div key={d.label}>
                          {d.label}：<Typography.Text delete>{d.before}</Typography.Text> →{' '}
                          <Typography.Text strong>{d.after}</Typography.Text>
                        </div>
                      ))}
                      {g.decider && (
                        <Typography.Text type="secondary">
                          {g.decider} {g.decide_time} {g.opinion}
                        </Typography.Text>
                      )}
                    </Card>
                  ))}
                </Space>
              ) : (
                <Typography.Text type="secondary">暂无变更</Typography.Text>
              ),
            },
            { key: 'log', label: '处理记录', children: <WorkflowTimeline flow={contractFlow} id={id} /> },
          ]}
        />
      </Card>
      {changing && (
        <ChangeDialog
          contract={c}
          onClose={(sent) => {
            setChanging(false);
            if (sent) reload();
          }}
        />
      )}
      <TextPromptModal
        open={!!refunding}
        title={`申请退款：${refunding?.name ?? ''}`}
        label="退款原因"
        required="请填写退款原因"
        maxLength={200}
        danger
        testIds={{ text: 'refund-reason', ok: 'refund-ok' }}
        send={(reason) => request('refundapply', { payment_id: refunding!.payment_id, bill_ids: [refunding!.bill_id], reason })}
        onDone={() => {
          setRefunding(null);
          reload();
        }}
        onCancel={() => setRefunding(null)}
      >
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title="退款申请由财务审核；合同执行中退款后该款项恢复为待收，合同终止或作废后退款则该款项结清。"
        />
      </TextPromptModal>
    </Space>
  );
}
