import { Button, InputNumber, Input, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { meterPlan, type MeterPlanItem, type MeterTier } from '@wuye/contract';
import { ResourcePage } from '../../components/resource';

/** The tiers of a plan: each a month's usage it reaches and its price; the last is open. */
function TiersInput({ value, onChange }: { value?: MeterTier[]; onChange?: (v: MeterTier[]) => void }) {
  const tiers = value?.length ? value : [{ upto: null, price: '' }];
  const set = (next: MeterTier[]) => onChange?.(next.map((t, i) => (i === next.length - 1 ? { ...t, upto: null } : t)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="meterplan-tiers">
      {tiers.map((t, i) => (
        <Space key={i} wrap>
          <Typography.Text style={{ width: 48, display: 'inline-block' }}>第 {i + 1} 档</Typography.Text>
          {i < tiers.length - 1 ? (
            <InputNumber
              min={0.01}
              precision={2}
              value={t.upto ?? undefined}
              addonBefore="用量至"
              onChange={(v) => set(tiers.map((x, j) => (j === i ? { ...x, upto: v === null ? null : Number(v) } : x)))}
              data-testid={`meterplan-upto-${i}`}
            />
          ) : (
            <Typography.Text type="secondary">以上不设上限</Typography.Text>
          )}
          <Input
            style={{ width: 150 }}
            addonAfter="元"
            placeholder="单价"
            value={t.price}
            onChange={(e) => set(tiers.map((x, j) => (j === i ? { ...x, price: e.target.value.trim() } : x)))}
            data-testid={`meterplan-price-${i}`}
          />
          {tiers.length > 1 && <Button icon={<DeleteOutlined />} onClick={() => set(tiers.filter((_x, j) => j !== i))} />}
        </Space>
      ))}
      {tiers.length < 5 && (
        <Button
          icon={<PlusOutlined />}
          onClick={() =>
            set([
              ...tiers.slice(0, -1),
              { ...tiers[tiers.length - 1]!, upto: (tiers[tiers.length - 2]?.upto ?? 0) + 100 },
              { upto: null, price: '' },
            ])
          }
          data-testid="meterplan-addtier"
        >
          增加一档
        </Button>
      )}
    </Space>
  );
}

/** /carpark/meterplan (单价方案; docs/product.md#smart-meters): tiered prices per meter kind; a price change is a new version. */
export default function MeterPlans() {
  return (
    <ResourcePage<MeterPlanItem>
      resource={meterPlan}
      title="单价方案"
      widgets={{ tiers: TiersInput as never }}
      formOptions={{ defaults: () => ({ tiers: [{ upto: null, price: '' }] }) }}
    />
  );
}
