import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Space, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CHANGE_STATUS, CONTRACT_STATUS } from '@wuye/contract/crm/contracts';
import { CRM_ROLES } from '@wuye/contract/crm/roles';
import { call, request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { Money } from '../../../components/Money';
import SafeButton from '../../../components/SafeButton';
import { EnumTag, useRoles } from '../../../components/resource';
import { PlanLines } from './parts';

/**
 * /crm/contract_audit?id= (a contract submitted) or ?change= (a change request) (审批合同;
 * docs/product.md#crm-contracts): what is decided, the opinion, 通过 or 退回 (an opinion required);
 * one's own submission is never decided here.
 */
export default function AuditPage() {
  const [params] = useSearchParams();
  const changeId = Number(params.get('change')) || 0;
  const navigate = useNavigate();
  const can = useRoles();
  const [form] = Form.useForm<{ opinion: string }>();
  const [busy, setBusy] = useState(false);
  const change = useQuery({
    queryKey: ['contractchangeinfo', changeId],
    queryFn: () => call('contractchangeinfo', { id: changeId }),
    enabled: changeId > 0,
    retry: false,
  });
  const contractId = changeId ? (change.data?.contract_id ?? 0) : Number(params.get('id')) || 0;
  const contract = useQuery({
    queryKey: ['roomsalesinfo', contractId],
    queryFn: () => call('roomsalesinfo', { id: contractId }),
    enabled: contractId > 0,
    retry: false,
  });
  const c = contract.data;
  const g = change.data;
  if (!contractId && !changeId) return <Empty description="请从合同审批列表打开" />;
  if (!c || (changeId && !g))
    return (
      <Spin spinning={contract.isLoading || change.isLoading}>
        <div style={{ minHeight: 200 }} />
      </Spin>
    );
  const waiting = changeId ? g!.status === 'A' : c.status === 'A';
  const mine = changeId ? g!.mine : c.mine;
  const approver = can([...CRM_ROLES.contractAudit]);

  const decide = async (approve: boolean) => {
    const opinion = (form.getFieldValue('opinion') as string | undefined)?.trim() ?? '';
    if (!approve && !opinion) {
      form.setFields([{ name: 'opinion', errors: ['请填写退回意见'] }]);
      return;
    }
    setBusy(true);
    try {
      const answer = changeId
        ? await request('contractchangeaudit', { id: changeId, approve, opinion })
        : await request('contractaudit', { id: contractId, approve, opinion });
      noticeSuccess(answer.return_msg);
      void navigate('/crm/contract_audit_list');
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="contract-decide-page">
      <Card
        title={
          <Space wrap>
            {changeId ? '合同变更审批' : '合同审批'}
            <Link to={`/crm/roomshow?id=${c.id}`}>{c.contract_no}</Link>
            {changeId ? <EnumTag enum={CHANGE_STATUS} value={g!.status} /> : <EnumTag enum={CONTRACT_STATUS} value={c.status} />}
          </Space>
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label="合同名称">{c.name}</Descriptions.Item>
          <Descriptions.Item label="合同类型">{c.type_name}</Descriptions.Item>
          <Descriptions.Item label="乙方">
            {c.party_name} {c.party_mobile}
          </Descriptions.Item>
          <Descriptions.Item label="房源">{c.units_text || '-'}</Descriptions.Item>
          <Descriptions.Item label="合同总额">
            <Money value={c.total_amount} unit="元" />
          </Descriptions.Item>
          <Descriptions.Item label="合同期">
            {c.start_date} 至 {c.end_date ?? '长期'}
          </Descriptions.Item>
          <Descriptions.Item label="提交">
            {changeId ? `${g!.applicant} ${g!.create_time}` : `${c.creator} ${c.submit_time}`}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      {changeId ? (
        <Card title="变更内容" size="small" data-testid="audit-change-diff">
          <Typography.Paragraph>变更原因：{g!.reason}</Typography.Paragraph>
          {g!.diff.map((d) => (
            <Typography.Paragraph key={d.label}>
              <Typography.Text strong>{d.label}</Typography.Text>：<Typography.Text delete>{d.before}</Typography.Text> →{' '}
              <Typography.Text type="success">{d.after}</Typography.Text>
            </Typography.Paragraph>
          ))}
        </Card>
      ) : (
        <Card title="收款计划" size="small">
          <PlanLines rows={c.instalments} />
        </Card>
      )}
      <Card title="审批意见" size="small">
        {!waiting ? (
          <Alert type="info" showIcon title="该申请已处理" />
        ) : !approver ? (
          <Alert type="info" showIcon title="您没有合同审批权限" />
        ) : mine ? (
          <Alert type="warning" showIcon title={`不能审批自己提交的${changeId ? '变更申请' : '合同'}，请由其他有审批权限的人员处理`} />
        ) : (
          <Form form={form} layout="vertical">
            <Form.Item name="opinion" label="意见" extra="退回时必须填写意见">
              <Input.TextArea rows={3} maxLength={200} showCount data-testid="audit-opinion" />
            </Form.Item>
            <Space>
              <SafeButton type="primary" loading={busy} onClick={() => void decide(true)} data-testid="audit-approve">
                通过
              </SafeButton>
              <SafeButton danger loading={busy} onClick={() => void decide(false)} data-testid="audit-reject">
                退回
              </SafeButton>
              <Button onClick={() => void navigate('/crm/contract_audit_list')}>返回</Button>
            </Space>
          </Form>
        )}
      </Card>
    </Space>
  );
}
