import { Card, Empty, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { CONTRACT_STATUS } from '@wuye/contract/crm/contracts';
import { call } from '../../../api/client';
import { Money } from '../../../components/Money';
import { EnumTag } from '../../../components/resource';

const COLORS: Record<string, string> = {
  approve: 'green',
  reject: 'red',
  terminate: 'red',
  void: 'gray',
  expire: 'orange',
  renewed: 'blue',
  change: 'blue',
};

/**
 * /crm/contract_audit_info?id= (审批记录; docs/product.md#crm-contracts): every step of a contract
 * and of its change requests, oldest first: who, when, from which state to which, with what opinion.
 */
export default function AuditInfo() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const info = useQuery({
    queryKey: ['contractauditinfo', id],
    queryFn: () => call('contractauditinfo', { id }),
    enabled: id > 0,
    retry: false,
  });
  if (!id) return <Empty description="请从合同审批列表打开" />;
  const d = info.data;
  if (!d)
    return <Spin spinning={info.isLoading}>{info.isError ? <Empty description="合同不存在" /> : <div style={{ minHeight: 200 }} />}</Spin>;
  const c = d.contract;
  return (
    <Card
      data-testid="contract-audit-info"
      title={
        <Space wrap>
          <Link to={`/crm/roomshow?id=${c.id}`}>{c.contract_no}</Link>
          <span>{c.name}</span>
          <EnumTag enum={CONTRACT_STATUS} value={c.status} />
        </Space>
      }
      extra={
        <span>
          乙方 {c.party_name}，总额 <Money value={c.total_amount} unit="元" />
        </span>
      }
    >
      <Timeline
        items={d.trail.map((t) => ({
          color: COLORS[t.transition] ?? 'blue',
          content: (
            <div data-testid={`trail-${t.id}`}>
              <Space wrap>
                <Typography.Text strong>{t.transition_ch}</Typography.Text>
                {t.from_state_ch && t.from_state !== t.to_state && (
                  <Tag>
                    {t.from_state_ch} → {t.to_state_ch}
                  </Tag>
                )}
                <Typography.Text type="secondary">
                  {t.operator} {t.create_time}
                </Typography.Text>
              </Space>
              {t.opinion && <div>意见：{t.opinion}</div>}
              {t.change_id !== null &&
                d.changes
                  .find((g) => g.id === t.change_id && t.transition === 'create')
                  ?.diff.map((x) => (
                    <div key={x.label}>
                      <Typography.Text type="secondary">
                        {x.label}：{x.before} → {x.after}
                      </Typography.Text>
                    </div>
                  ))}
            </div>
          ),
        }))}
      />
    </Card>
  );
}
