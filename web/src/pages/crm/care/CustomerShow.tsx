import { useRef, useState } from 'react';
import { Button, Card, Col, Descriptions, Empty, Pagination, Result, Row, Space, Spin, Statistic, Tag, Timeline, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CARE_CUSTOMER_KIND, CARE_STATUS, careCustomer } from '@wuye/contract/crm/care';
import { AFFAIR_KIND, careAffair, type CareAffairItem } from '@wuye/contract/crm/careAffairs';
import { call } from '../../../api/client';
import { useList } from '../../../api/useList';
import { EnumTag, invalidateResource, useCanWrite, useResourceForm } from '../../../components/resource';
import { affairDefaults } from './CustomerList';
import { AffairCancelDialog, AffairDoneDialog, AffairFormModal, AffairState, AttentionTags, WordTags } from './parts';

const DOT: Record<string, string> = { P: 'orange', Y: 'green', C: 'gray' };

/** One affair in the customer's history: what, when, who, and how it ended. */
function AffairEntry({ a, act }: { a: CareAffairItem; act?: (a: CareAffairItem, what: 'done' | 'cancel') => void }) {
  return (
    <div data-testid={`care-history-${a.id}`}>
      <Space size={4} wrap>
        <EnumTag enum={AFFAIR_KIND} value={a.kind} />
        <Typography.Text strong>计划 {a.due_date}</Typography.Text>
        <AffairState affair={a} />
        <Typography.Text type="secondary">负责人 {a.assignee_name}</Typography.Text>
        {a.source !== 'manual' && <Tag>{a.source === 'rule' ? `规则：${a.rule_name}` : `批量：${a.batch_title}`}</Tag>}
      </Space>
      {a.content && <div>{a.content}</div>}
      {a.status === 'Y' && (
        <div>
          <Typography.Text type="success">结果：</Typography.Text>
          {a.result}
          <Typography.Text type="secondary">
            {' '}
            · {a.done_by_name} 于 {a.done_time} 完成
          </Typography.Text>
        </div>
      )}
      {a.status === 'C' && (
        <Typography.Text type="secondary">
          已取消：{a.cancel_reason}（{a.cancel_time}）
        </Typography.Text>
      )}
      {a.status === 'P' && act && (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => act(a, 'done')} data-testid={`careaffair-done-${a.id}`}>
            完成
          </Button>
          <Button size="small" type="link" danger onClick={() => act(a, 'cancel')} data-testid={`careaffair-cancel-${a.id}`}>
            取消
          </Button>
        </Space>
      )}
    </div>
  );
}

/**
 * /crm/customshow?id= (客户档案; docs/product.md#crm-care): the record, its care figures and the
 * history of its affairs, newest first, with 完成 and 取消 of the open ones and 新建事务.
 */
export default function CustomerShow() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(careCustomer.def.roles.write);
  const info = useQuery({
    queryKey: ['res', careCustomer.def.name, 'info', id],
    queryFn: () => call('careinfo', { id }),
    enabled: id > 0,
    retry: false,
  });
  const history = useList('affairlist', { customer_id: id, sort: 'desc' } as never);
  const counts = useQuery({
    queryKey: ['res', careAffair.def.name, 'counts', 'customer', id],
    queryFn: () => call('affaircounts', { customer_id: id }),
    enabled: id > 0,
  });
  const [acting, setActing] = useState<{ a: CareAffairItem; what: 'done' | 'cancel' } | null>(null);
  const c = info.data;
  const affairFor = useRef(c ?? null);
  affairFor.current = c ?? null;
  const changed = () => {
    history.reload();
    void invalidateResource(queryClient, careCustomer.def.name);
    void invalidateResource(queryClient, careAffair.def.name);
  };
  const affairForm = useResourceForm<CareAffairItem>(careAffair, { defaults: () => affairDefaults(affairFor.current), onSaved: changed });

  if (!id || info.isError)
    return (
      <Result
        status="404"
        title="关怀客户不存在"
        extra={<Button onClick={() => void navigate('/crm/customerlist')}>返回客户列表</Button>}
      />
    );
  if (!c) return <Spin />;
  const figures = counts.data;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="carecustomer-profile">
      <Card
        variant="borderless"
        title={
          <Space wrap>
            <span>{c.realname}</span>
            <EnumTag enum={CARE_CUSTOMER_KIND} value={c.kind} />
            <EnumTag enum={CARE_STATUS} value={c.status} />
            <AttentionTags value={c.attention} />
          </Space>
        }
        extra={
          canWrite && (
            <Space wrap>
              <Button onClick={() => void navigate(`/crm/editcus?id=${c.id}`)} data-testid="carecustomer-profile-edit">
                编辑
              </Button>
              {c.status === 'Y' && (
                <Button type="primary" onClick={() => affairForm.open()} data-testid="carecustomer-profile-affair">
                  新建事务
                </Button>
              )}
            </Space>
          )
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label="手机号">{c.mobile}</Descriptions.Item>
          <Descriptions.Item label="性别">{c.gender_ch}</Descriptions.Item>
          <Descriptions.Item label="生日">{c.birthday ? `${c.birthday}（${c.age} 岁）` : '—'}</Descriptions.Item>
          <Descriptions.Item label="身份证号">{c.id_card || '—'}</Descriptions.Item>
          <Descriptions.Item label="入住日期">{c.move_in_date ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="负责管家">{c.steward_name || '未分配'}</Descriptions.Item>
          <Descriptions.Item label="房屋" span={{ xs: 1, sm: 2, lg: 3 }}>
            {c.houses || '—'}
            {c.member_id !== null && <Tag style={{ marginInlineStart: 8 }}>已关联住户</Tag>}
          </Descriptions.Item>
          <Descriptions.Item label="标签">{c.tags.length ? <WordTags value={c.tags} /> : '—'}</Descriptions.Item>
          <Descriptions.Item label="家庭情况" span={{ xs: 1, sm: 2, lg: 2 }}>
            {c.family_notes || '—'}
          </Descriptions.Item>
          <Descriptions.Item label="偏好与禁忌" span={{ xs: 1, sm: 2, lg: 3 }}>
            {c.preferences || '—'}
          </Descriptions.Item>
          {c.remark && (
            <Descriptions.Item label="备注" span={{ xs: 1, sm: 2, lg: 3 }}>
              {c.remark}
            </Descriptions.Item>
          )}
        </Descriptions>
      </Card>
      <Row gutter={[16, 16]}>
        {[
          ['待办', figures?.P, 'care-figure-open'],
          ['逾期', figures?.overdue, 'care-figure-overdue'],
          ['已完成', figures?.Y, 'care-figure-done'],
          ['已取消', figures?.C, 'care-figure-cancelled'],
        ].map(([title, value, testId]) => (
          <Col key={String(title)} xs={12} md={6}>
            <Card variant="borderless" size="small">
              <Statistic title={title} value={(value as number | undefined) ?? 0} data-testid={testId as string} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card variant="borderless" title="关怀记录" extra={c.last_care_time ? `最近关怀：${c.last_care_time}` : '尚无完成的关怀'}>
        {history.loading && !history.items.length ? (
          <Spin />
        ) : history.items.length === 0 ? (
          <Empty description="还没有关怀事务" />
        ) : (
          <>
            <Timeline
              data-testid="care-history"
              items={history.items.map((a) => ({
                key: a.id,
                color: a.overdue ? 'red' : DOT[a.status],
                content: <AffairEntry a={a} act={canWrite ? (x, what) => setActing({ a: x, what }) : undefined} />,
              }))}
            />
            {history.total > history.limit && (
              <Pagination
                size="small"
                current={history.page}
                pageSize={history.limit}
                total={history.total}
                onChange={(p, l) => history.setPage(p, l)}
                showSizeChanger={false}
              />
            )}
          </>
        )}
      </Card>
      <AffairFormModal form={affairForm} />
      {acting?.what === 'done' && (
        <AffairDoneDialog
          affair={acting.a}
          onClose={(done) => {
            setActing(null);
            if (done) changed();
          }}
        />
      )}
      {acting?.what === 'cancel' && (
        <AffairCancelDialog
          affair={acting.a}
          onClose={(done) => {
            setActing(null);
            if (done) changed();
          }}
        />
      )}
    </Space>
  );
}
