import { useState } from 'react';
import { Alert, Button, Card, Col, Descriptions, InputNumber, Row, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SimPersonItem, SimStateItem } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { SmallSelect } from '../../components/resource';

/**
 * /carpark/accesssim (门禁模拟器; docs/product.md#access-control): a simulated face terminal: its
 * online state, capacity, the toggles 离线 and 拒收照片, its person store, and 模拟通行 by a person it
 * may hold or by an unknown face. The passes land in 通行记录 like a real terminal's.
 */
export default function AccessSim() {
  const queryClient = useQueryClient();
  const [deviceId, setDeviceId] = useState<number | undefined>();
  const [grantId, setGrantId] = useState<number | undefined>();
  const [last, setLast] = useState<{ ok: boolean; text: string } | null>(null);
  const key = ['accesssiminfo', deviceId];
  const sim = useQuery({
    queryKey: key,
    queryFn: () => call('accesssiminfo', { device_id: deviceId! }),
    enabled: deviceId !== undefined,
    refetchInterval: 2000,
    retry: false,
  });
  const people = useQuery({
    queryKey: ['accessgrantlist', 'sim'],
    queryFn: () => call('accessgrantlist', { limit: 200, revoked: 'N', sort: 'desc' }),
  });
  const s: SimStateItem | undefined = sim.data;
  const set = async (values: { offline?: 'Y' | 'N'; reject_photos?: 'Y' | 'N'; capacity?: number }) => {
    try {
      const answer = await request('accesssimset', { device_id: deviceId!, ...values });
      queryClient.setQueryData(key, answer.data);
      noticeSuccess(answer.return_msg);
    } catch {
      /* shown by the client */
    }
  };
  const pass = async (mode: 'face' | 'card', unknown: boolean) => {
    try {
      const answer = await request('accesssimpass', { device_id: deviceId!, mode, grant_id: unknown ? undefined : grantId });
      setLast({ ok: answer.data.result === 'open', text: answer.return_msg });
    } catch {
      /* shown by the client */
    }
  };
  return (
    <Card title="门禁模拟器" variant="borderless" data-testid="sim-page">
      <Space direction="vertical" style={{ width: '100%' }} size="large">
        <Space wrap>
          <span>模拟终端</span>
          <SmallSelect
            widget={{ small: 'accessdevice_small_list' }}
            values={{}}
            value={deviceId}
            onChange={(v) => setDeviceId(v as number | undefined)}
            style={{ width: 260 }}
            testId="sim-device"
          />
        </Space>
        {s && (
          <Row gutter={24}>
            <Col xs={24} lg={10}>
              <Descriptions size="small" column={1} bordered>
                <Descriptions.Item label="状态">
                  <Tag color={s.online === 'Y' ? 'success' : 'default'} data-testid="sim-online">
                    {s.online === 'Y' ? '在线' : '离线'}
                  </Tag>
                  <Typography.Text type="secondary">最后心跳 {s.last_heartbeat || '—'}</Typography.Text>
                </Descriptions.Item>
                <Descriptions.Item label="离线（停止心跳、不应答）">
                  <Switch checked={s.offline === 'Y'} onChange={(v) => void set({ offline: v ? 'Y' : 'N' })} data-testid="sim-offline" />
                </Descriptions.Item>
                <Descriptions.Item label="拒收照片">
                  <Switch
                    checked={s.reject_photos === 'Y'}
                    onChange={(v) => void set({ reject_photos: v ? 'Y' : 'N' })}
                    data-testid="sim-reject"
                  />
                </Descriptions.Item>
                <Descriptions.Item label="容量">
                  <InputNumber
                    min={1}
                    max={100000}
                    defaultValue={s.capacity}
                    onBlur={(e) => void set({ capacity: Number(e.target.value) || s.capacity })}
                  />
                  <span style={{ marginLeft: 8 }}>已存 {s.person_count} 人</span>
                </Descriptions.Item>
              </Descriptions>
              <Card size="small" title="模拟通行" style={{ marginTop: 16 }}>
                <Space direction="vertical" style={{ width: '100%' }}>
                  <Select
                    allowClear
                    showSearch={{ optionFilterProp: 'label' }}
                    placeholder="选择人员（门禁授权）"
                    style={{ width: '100%' }}
                    value={grantId}
                    onChange={setGrantId}
                    options={(people.data?.items ?? []).map((g) => ({
                      value: g.id,
                      label: `${g.person_name} ${g.address}（${g.status_ch}）`,
                    }))}
                    data-testid="sim-person"
                  />
                  <Space wrap>
                    <Button type="primary" disabled={!grantId} onClick={() => void pass('face', false)} data-testid="sim-pass-face">
                      刷脸
                    </Button>
                    <Button disabled={!grantId} onClick={() => void pass('card', false)} data-testid="sim-pass-card">
                      刷卡
                    </Button>
                    <Button danger onClick={() => void pass('face', true)} data-testid="sim-pass-unknown">
                      陌生人脸
                    </Button>
                  </Space>
                  {last && <Alert type={last.ok ? 'success' : 'error'} message={last.text} data-testid="sim-result" />}
                </Space>
              </Card>
            </Col>
            <Col xs={24} lg={14}>
              <Table<SimPersonItem>
                rowKey="subject"
                size="small"
                title={() => '设备人员库'}
                data-testid="sim-persons"
                dataSource={s.persons}
                pagination={{ pageSize: 10 }}
                columns={[
                  { key: 'person_name', title: '姓名', dataIndex: 'person_name' },
                  { key: 'subject', title: '授权', dataIndex: 'subject', width: 100 },
                  { key: 'face', title: '人脸', dataIndex: 'face_image', width: 60, render: (v: string) => (v ? '有' : '—') },
                  { key: 'card_no', title: '卡号', dataIndex: 'card_no', width: 90 },
                  { key: 'valid_to', title: '有效至', dataIndex: 'valid_to', width: 170 },
                  { key: 'added_at', title: '下发时间', dataIndex: 'added_at', width: 170 },
                ]}
              />
            </Col>
          </Row>
        )}
      </Space>
    </Card>
  );
}
