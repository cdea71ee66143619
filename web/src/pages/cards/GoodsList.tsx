import { useMemo } from 'react';
import { Space, Typography } from 'antd';
import { mallGoods, type GoodsItem } from '@wuye/contract/cards/mall';
import { PhotosInput } from '../../components/PhotosInput';
import { ResourcePage, type ResourceFormOptions, type Widgets } from '../../components/resource';
import { Cover, NEW_SPEC, SpecsInput, type SpecValue } from './mallParts';

const widgets = {
  images: (p: { value?: string[]; onChange?: (v: string[]) => void }) => <PhotosInput {...p} max={9} testId="goods-images" />,
  specs: SpecsInput,
} as unknown as Widgets;

/** The specifications as the form edits them: each remembers the stock it was opened with. */
const formOptions: ResourceFormOptions = {
  defaults: () => ({ specs: [{ ...NEW_SPEC }], images: [] }),
  fromRow: (row) => {
    const r = row as unknown as GoodsItem;
    return {
      ...r,
      specs: r.specs.map((s) => ({ id: s.id, name: s.name, price: s.price, points: s.points, stock: s.stock, stock_seen: s.stock })),
    };
  },
  toPayload: (values) => ({
    ...values,
    specs: ((values.specs as SpecValue[] | undefined) ?? []).map((s) => ({ ...s, price: s.price || '0.00' })),
  }),
};

/**
 * /carpark/goods (商品管理, 积分商城; docs/product.md#member-cards): the mall's goods with their
 * images, category, specifications (reference price, points, stock), limit per member and whether
 * they are on sale. A category filter takes a top-level category's children too. Managing them takes
 * `cardmall`; the card staff read them.
 */
export default function GoodsList() {
  const columns = useMemo(
    () => ({
      images: { title: '图片', render: (v: string[]) => <Cover url={v[0]} /> },
      points_text: {
        render: (v: string, r: GoodsItem) => (
          <Space orientation="vertical" size={0}>
            <Typography.Text strong>{v}</Typography.Text>
            {r.specs.length > 1 && <Typography.Text type="secondary">{r.specs.length} 个规格</Typography.Text>}
          </Space>
        ),
      },
      stock: {
        render: (v: number) => (v === 0 ? <Typography.Text type="danger">售罄</Typography.Text> : v),
      },
    }),
    [],
  );
  return (
    <ResourcePage<GoodsItem>
      resource={mallGoods}
      title="商品管理"
      widgets={widgets}
      formOptions={formOptions}
      columns={columns}
      extraColumns={[
        {
          key: 'spec_list',
          title: '规格（积分 / 库存）',
          width: 240,
          render: (_: unknown, r: GoodsItem) => (
            <Space orientation="vertical" size={0}>
              {r.specs.map((s) => (
                <Typography.Text key={s.id} type={s.stock === 0 ? 'secondary' : undefined}>
                  {s.name}：{s.points} 积分 / 库存 {s.stock}
                </Typography.Text>
              ))}
            </Space>
          ),
        },
      ]}
    />
  );
}
