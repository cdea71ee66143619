import { useState } from 'react';
import { Button, Card, Col, Form, Input, Radio, Row, Space, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { MeterAmountItem } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import MoneyInput from '../../components/MoneyInput';
import { useCanWrite } from '../../components/resource';

interface Values {
  amounts?: string;
  custom?: 'Y' | 'N';
  min_amount?: string;
  max_amount?: string;
}

function KindCard({ item, canWrite, onSaved }: { item: MeterAmountItem; canWrite: boolean; onSaved: () => void }) {
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const save = async (v: Values) => {
    setBusy(true);
    try {
      const amounts = (v.amounts ?? '')
        .split(/[,，\s]+/)
        .map((a) => a.trim())
        .filter(Boolean);
      noticeSuccess(
        (
          await request('meteramountset', {
            kind: item.kind,
            amounts,
            custom: v.custom ?? 'Y',
            min_amount: v.min_amount ?? '',
            max_amount: v.max_amount ?? '',
          })
        ).return_msg,
      );
      onSaved();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title={item.kind_ch} data-testid={`meteramount-${item.kind}`}>
      <Space wrap style={{ marginBottom: 12 }}>
        {item.amounts.map((a) => (
          <Tag key={a} color="processing">
            ¥{a}
          </Tag>
        ))}
        {item.custom === 'Y' && <Tag>可自定义</Tag>}
      </Space>
      <Form<Values>
        form={form}
        layout="vertical"
        disabled={!canWrite}
        initialValues={{ amounts: item.amounts.join(', '), custom: item.custom, min_amount: item.min_amount, max_amount: item.max_amount }}
        onFinish={(v) => void save(v)}
      >
        <Form.Item name="amounts" label="预设档位（元，逗号分隔，最多 10 个）">
          <Input data-testid={`meteramount-${item.kind}-amounts`} />
        </Form.Item>
        <Form.Item name="custom" label="允许自定义金额">
          <Radio.Group
            options={[
              { value: 'Y', label: '允许' },
              { value: 'N', label: '仅限档位' },
            ]}
          />
        </Form.Item>
        <Space align="start">
          <Form.Item name="min_amount" label="单笔最小（元）" rules={[{ required: true, message: '请输入最小金额' }]}>
            <MoneyInput style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="max_amount" label="单笔最大（元）" rules={[{ required: true, message: '请输入最大金额' }]}>
            <MoneyInput style={{ width: 120 }} />
          </Form.Item>
        </Space>
        {canWrite && (
          <div>
            <Button type="primary" htmlType="submit" loading={busy} data-testid={`meteramount-${item.kind}-save`}>
              保存
            </Button>
          </div>
        )}
      </Form>
    </Card>
  );
}

/** /carpark/meteramount (充值金额; docs/product.md#smart-meters): the amounts offered per meter kind at the cashier and in the owner app, and the limits of one order. */
export default function MeterAmounts() {
  const canWrite = useCanWrite(['carpark', 'devicelist']);
  const q = useQuery({ queryKey: ['meteramountlist'], queryFn: () => call('meteramountlist', {}), retry: false });
  return (
    <Card title="充值金额" data-testid="meteramount-page">
      <Row gutter={[12, 12]}>
        {(q.data?.items ?? []).map((item) => (
          <Col key={item.kind} xs={24} lg={8}>
            <KindCard item={item} canWrite={canWrite} onSaved={() => void q.refetch()} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}
