import { useMemo } from 'react';
import { Select } from 'antd';
import { useSmallList } from '../../../components/resource';

/** What a form or a filter gives a custom input. */
interface InputProps {
  value?: number;
  onChange?: (v: number | undefined) => void;
  'data-testid'?: string;
}

/**
 * 成本项目: the items grouped under their categories (a cost is registered on an item, never on a
 * category). `enabledOnly` (the cost form) leaves out the disabled items but the one chosen.
 */
export function CostItemSelect({ value, onChange, enabledOnly = false, ...rest }: InputProps & { enabledOnly?: boolean }) {
  const { items, loading } = useSmallList('costitem_small_list', {});
  const options = useMemo(
    () =>
      items
        .filter((c) => c.parent_id === null)
        .map((c) => ({
          label: c.name,
          title: c.name,
          options: items
            .filter((i) => i.parent_id === c.id && (!enabledOnly || i.status === 'Y' || i.id === value))
            .map((i) => ({ value: i.id, label: i.status === 'Y' ? i.name : `${i.name}（停用）` })),
        }))
        .filter((g) => g.options.length > 0),
    [items, enabledOnly, value],
  );
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder="选择成本项目"
      options={options}
      loading={loading}
      value={value}
      onChange={(v?: number) => onChange?.(v)}
      style={{ minWidth: 160 }}
      data-testid={rest['data-testid']}
    />
  );
}

/** The form's item: enabled items only (and the one the cost already has). */
export const FormItemSelect = (p: InputProps) => <CostItemSelect {...p} enabledOnly />;

/** 所属分类: a category (the tree has two levels); empty makes the row a category itself. */
export function CategorySelect({ value, onChange, exclude, ...rest }: InputProps & { exclude?: number }) {
  const { items, loading } = useSmallList('costitem_small_list', {});
  const options = useMemo(
    () => items.filter((c) => c.parent_id === null && c.id !== exclude).map((c) => ({ value: c.id, label: c.name })),
    [items, exclude],
  );
  return (
    <Select
      allowClear
      placeholder="不选为成本分类"
      options={options}
      loading={loading}
      value={value ?? undefined}
      onChange={(v?: number) => onChange?.(v)}
      data-testid={rest['data-testid']}
    />
  );
}
