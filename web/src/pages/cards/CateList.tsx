import { useMemo } from 'react';
import { Select } from 'antd';
import { mallCategory, type MallCategoryItem } from '@wuye/contract/cards/mall';
import { TreeResourcePage, useSmallList, type Widgets } from '../../components/resource';

/** 上级分类: the top-level categories (a category has two levels at most); empty for a top-level one. */
function ParentSelect(props: { value?: number; onChange?: (v: number | undefined) => void; 'data-testid'?: string }) {
  const { items, loading } = useSmallList('cate_small_list', {});
  const options = useMemo(() => items.filter((c) => c.parent_id === null).map((c) => ({ value: c.id, label: c.title })), [items]);
  return (
    <Select
      allowClear
      placeholder="不选为一级分类"
      options={options}
      loading={loading}
      value={props.value ?? undefined}
      onChange={(v?: number) => props.onChange?.(v)}
      data-testid={props['data-testid']}
    />
  );
}

const widgets = { parent_id: ParentSelect } as unknown as Widgets;

/**
 * /carpark/catelist (商品分类, 积分商城; docs/product.md#member-cards): the mall's categories as a
 * two-level tree (name, sort, the goods of each); 新增下级 opens the form with a top-level row as
 * parent. A category holding children or goods is not deleted (the server says which).
 */
export default function CateList() {
  return (
    <TreeResourcePage<MallCategoryItem>
      resource={mallCategory}
      title="商品分类"
      widgets={widgets}
      canHaveChildren={(row) => row.parent_id === null}
    />
  );
}
