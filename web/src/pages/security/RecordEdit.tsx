import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Image, Input, List, Modal, Radio, Space, Tag, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { TASK_POINT_STATUS, TASK_STATUS, type PatrolTaskPointRow } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { EnumTag } from '../../components/resource';

type Action = 'makeup' | 'result' | 'remark';
const ACTION_TEXT: Record<Action, string> = { makeup: '标记补检', result: '改正常/异常', remark: '加备注' };

/** One point of the task: its window and state, the check-in as uploaded (never changed), corrections. */
function PointCard({ p, canEdit, onEdit }: { p: PatrolTaskPointRow; canEdit: boolean; onEdit: (a: Action) => void }) {
  const c = p.checkin;
  return (
    <Card
      size="small"
      style={{ marginBottom: 8 }}
      title={`${p.sort}. ${p.point_name}（${p.point_number}）`}
      extra={
        <Space size={4}>
          <EnumTag enum={TASK_POINT_STATUS} value={p.status} />
          {p.result === 'A' && <Tag color="error">异常</Tag>}
          {p.result === 'N' && <Tag color="success">正常</Tag>}
        </Space>
      }
      data-testid={`taskpoint-${p.point_name}`}
    >
      <Descriptions size="small" column={{ xs: 1, sm: 2 }}>
        <Descriptions.Item label="点时段">{p.due_text}</Descriptions.Item>
        {p.order_no && <Descriptions.Item label="工单">{p.order_no}</Descriptions.Item>}
        {p.remark && <Descriptions.Item label="备注">{p.remark}</Descriptions.Item>}
        {c && (
          <>
            <Descriptions.Item label="服务器时间">{c.server_time}</Descriptions.Item>
            <Descriptions.Item label="设备时间">{c.device_time || '—'}</Descriptions.Item>
            <Descriptions.Item label="方式">{c.method_ch}</Descriptions.Item>
            <Descriptions.Item label="准时">
              {c.timing_ch}
              {c.out_of_order && (
                <Tag color="warning" style={{ marginLeft: 4 }}>
                  未按顺序
                </Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="位置">
              {c.lat !== null && c.lng !== null ? (
                <a
                  href={`https://www.openstreetmap.org/?mlat=${c.lat}&mlon=${c.lng}#map=18/${c.lat}/${c.lng}`}
                  target="_blank"
                  rel="noreferrer"
                >
                  {c.lat}, {c.lng}
                </a>
              ) : (
                '未定位'
              )}
              {c.distance_m !== null && <span>（距点位 {c.distance_m} 米）</span>}
              {c.outside && (
                <Tag color="warning" style={{ marginLeft: 4 }}>
                  超出范围
                </Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="签到结果">{c.result_ch}</Descriptions.Item>
            {c.answers.map((a) => (
              <Descriptions.Item key={a.title} label={a.title}>
                {a.value}
              </Descriptions.Item>
            ))}
            {c.note && <Descriptions.Item label="说明">{c.note}</Descriptions.Item>}
          </>
        )}
      </Descriptions>
      {c && c.photos.length > 0 && (
        <Image.PreviewGroup>
          <Space wrap>
            {c.photos.map((u) => (
              <Image key={u} src={u} width={72} height={72} style={{ objectFit: 'cover' }} />
            ))}
          </Space>
        </Image.PreviewGroup>
      )}
      {canEdit && (
        <Space style={{ marginTop: 8 }}>
          {(p.status === 'M' || p.status === 'W') && (
            <Button size="small" onClick={() => onEdit('makeup')} data-testid={`edit-makeup-${p.id}`}>
              标记补检
            </Button>
          )}
          {(p.status === 'Y' || p.status === 'B') && (
            <Button size="small" onClick={() => onEdit('result')} data-testid={`edit-result-${p.id}`}>
              改正常/异常
            </Button>
          )}
          <Button size="small" onClick={() => onEdit('remark')}>
            加备注
          </Button>
        </Space>
      )}
    </Card>
  );
}

/**
 * /security/patrolrecordedit?id= (巡更记录详情与修正; docs/product.md#patrols): a task's points with
 * each check-in as uploaded (times, way, position and distance, early/on time/late, order,
 * checklist, photos, the work order); a supervisor (not the task's guard) marks a make-up, changes
 * normal/abnormal or adds a remark, each logged below, the check-in itself never changed.
 */
export default function RecordEdit() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const task = useQuery({ queryKey: ['patroltaskinfo', id], queryFn: () => call('patroltaskinfo', { id }), enabled: id > 0 });
  const [editing, setEditing] = useState<{ point: PatrolTaskPointRow; action: Action } | null>(null);
  const [reason, setReason] = useState('');
  const [result, setResult] = useState<'N' | 'A'>('N');

  const save = async () => {
    if (!editing) return;
    try {
      const answer = await request('patrolrecordedit', {
        task_point_id: editing.point.id,
        action: editing.action,
        result: editing.action === 'result' ? result : '',
        reason,
      });
      noticeSuccess(answer.return_msg ?? '保存成功');
      setEditing(null);
      void task.refetch();
    } catch {
      // toasted by the client
    }
  };

  if (!id) return <Empty description="请从巡更记录中选择任务" />;
  const t = task.data;
  return (
    <Card
      title={t ? `巡更任务 ${t.no}` : '巡更任务'}
      loading={task.isLoading}
      extra={<Button onClick={() => void navigate('/security/patrolrecordlist')}>返回</Button>}
      data-testid="patroltask-detail"
    >
      {t && (
        <>
          <Descriptions size="small" column={{ xs: 1, sm: 3 }} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="计划">{t.plan_name}</Descriptions.Item>
            <Descriptions.Item label="时段">{t.window_text}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <EnumTag enum={TASK_STATUS} value={t.status} />
            </Descriptions.Item>
            <Descriptions.Item label="巡更人">
              {t.current_guard_name}
              {t.guard_id !== t.current_guard_id && `（原 ${t.guard_name}，${t.transfer_reason}）`}
            </Descriptions.Item>
            <Descriptions.Item label="完成">
              <b data-testid="detail-completion">{t.completion}</b>
            </Descriptions.Item>
            <Descriptions.Item label="异常">{t.abnormal_count}</Descriptions.Item>
          </Descriptions>
          {t.missed_names && (
            <Alert type="error" showIcon style={{ marginBottom: 12 }} message={`漏巡：${t.missed_names}`} data-testid="detail-missed" />
          )}
          {t.points.map((p) => (
            <PointCard
              key={p.id}
              p={p}
              canEdit={t.can_edit}
              onEdit={(action) => {
                setEditing({ point: p, action });
                setReason('');
                setResult(p.result === 'A' ? 'N' : 'A');
              }}
            />
          ))}
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            修改记录
          </Typography.Title>
          <List
            size="small"
            dataSource={t.edits}
            locale={{ emptyText: '没有修改' }}
            renderItem={(e) => (
              <List.Item>
                {e.create_time} {e.operator} {e.action_ch} {e.point_name}：{e.old_value || '—'} → {e.new_value}（{e.reason}）
              </List.Item>
            )}
          />
        </>
      )}
      <Modal
        open={editing !== null}
        title={editing ? `${ACTION_TEXT[editing.action]}：${editing.point.point_name}` : ''}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        okButtonProps={{ disabled: !reason.trim() }}
        destroyOnHidden
      >
        {editing?.action === 'result' && (
          <Radio.Group
            value={result}
            onChange={(e) => setResult(e.target.value as 'N' | 'A')}
            options={[
              { value: 'N', label: '正常' },
              { value: 'A', label: '异常' },
            ]}
            style={{ marginBottom: 8 }}
          />
        )}
        <Input.TextArea
          value={reason}
          maxLength={200}
          onChange={(e) => setReason(e.target.value)}
          placeholder={editing?.action === 'remark' ? '备注' : '原因'}
          data-testid="edit-reason"
        />
      </Modal>
    </Card>
  );
}
