import { Button, Image, Input, InputNumber, Tag, Typography } from 'antd';
import { DeleteOutlined, PictureOutlined, PlusOutlined } from '@ant-design/icons';
import { MALL_MAX_SPECS, MALL_ORDER_STATUS, type MallOrderItem } from '@wuye/contract/cards/mall';
import MoneyInput from '../../components/MoneyInput';
import './mall.css';

/** A specification as the goods form edits it; `stock_seen` is the stock the form was opened with. */
export interface SpecValue {
  id?: number;
  name?: string;
  price?: string;
  points?: number | null;
  stock?: number | null;
  stock_seen?: number;
}

export const NEW_SPEC: SpecValue = { name: '', price: '', points: null, stock: 0 };

/**
 * 规格: the goods' specifications as rows (名称, 参考价, 兑换积分, 库存) with 添加规格 and a remove
 * button; the value is the list the goods form sends. Test ids `${testId}-<cell>-<row>`.
 */
export function SpecsInput({
  value,
  onChange,
  'data-testid': testId = 'goods-specs',
}: {
  value?: SpecValue[];
  onChange?: (v: SpecValue[]) => void;
  'data-testid'?: string;
}) {
  const rows = value ?? [];
  const set = (i: number, patch: Partial<SpecValue>) => onChange?.(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  return (
    <div className="mall-specs" data-testid={testId}>
      <div className="mall-specs-row mall-specs-head" aria-hidden>
        <span>规格名称</span>
        <span>参考价（元）</span>
        <span>兑换积分</span>
        <span>库存</span>
        <span />
      </div>
      {rows.map((r, i) => (
        <div className="mall-specs-row" key={r.id ?? `new-${i}`}>
          <label className="mall-specs-cell">
            <span className="mall-specs-cell-label">规格名称</span>
            <Input
              value={r.name}
              maxLength={20}
              placeholder="如 500ml"
              aria-label="规格名称"
              onChange={(e) => set(i, { name: e.target.value })}
              data-testid={`${testId}-name-${i}`}
            />
          </label>
          <label className="mall-specs-cell">
            <span className="mall-specs-cell-label">参考价（元）</span>
            <MoneyInput
              value={r.price}
              placeholder="0.00"
              aria-label="参考价"
              onChange={(v) => set(i, { price: v })}
              data-testid={`${testId}-price-${i}`}
            />
          </label>
          <label className="mall-specs-cell">
            <span className="mall-specs-cell-label">兑换积分</span>
            <InputNumber
              value={r.points}
              min={1}
              precision={0}
              placeholder="积分"
              aria-label="兑换积分"
              style={{ width: '100%' }}
              onChange={(v) => set(i, { points: v })}
              data-testid={`${testId}-points-${i}`}
            />
          </label>
          <label className="mall-specs-cell">
            <span className="mall-specs-cell-label">库存</span>
            <InputNumber
              value={r.stock}
              min={0}
              precision={0}
              aria-label="库存"
              style={{ width: '100%' }}
              onChange={(v) => set(i, { stock: v })}
              data-testid={`${testId}-stock-${i}`}
            />
          </label>
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label="删除规格"
            disabled={rows.length <= 1}
            onClick={() => onChange?.(rows.filter((_, k) => k !== i))}
            data-testid={`${testId}-remove-${i}`}
          />
        </div>
      ))}
      {rows.length < MALL_MAX_SPECS && (
        <Button type="dashed" icon={<PlusOutlined />} onClick={() => onChange?.([...rows, { ...NEW_SPEC }])} data-testid={`${testId}-add`}>
          添加规格
        </Button>
      )}
    </div>
  );
}

/** The goods' cover as a small thumbnail (a placeholder when it has none). */
export function Cover({ url, size = 48 }: { url: string | undefined; size?: number }) {
  if (!url)
    return (
      <span className="mall-cover-empty" style={{ width: size, height: size }}>
        <PictureOutlined />
      </span>
    );
  return <Image src={url} width={size} height={size} style={{ objectFit: 'cover', borderRadius: 4 }} alt="商品图片" />;
}

/** An order's state in its own words (待自提 / 待发货 …) with the state's colour. */
export function OrderStatusTag({ row }: { row: Pick<MallOrderItem, 'status' | 'status_ch'> }) {
  const tone = MALL_ORDER_STATUS[row.status]?.tone ?? 'default';
  return (
    <Tag color={tone === 'default' ? undefined : tone} style={{ marginInlineEnd: 0 }} data-testid="mallorder-status">
      {row.status_ch}
    </Tag>
  );
}

/** Points, signed and coloured (a spend red). */
export function Points({ value }: { value: number }) {
  return <Typography.Text type={value < 0 ? 'danger' : undefined}>{value.toLocaleString('zh-CN')}</Typography.Text>;
}
