import type { CSSProperties } from 'react';
import { useMemo } from 'react';
import { TreeSelect } from 'antd';
import type { DeptSmallItem } from '@wuye/contract/team/departments';
import { useSmallList } from '../../components/resource';

interface TreeNode {
  value: number;
  title: string;
  disabled?: boolean;
  children?: TreeNode[];
}

/** The departments as a tree select's nodes; `exclude` and its sub-departments cannot be chosen (no loops). */
function treeOf(items: readonly DeptSmallItem[], exclude?: number): TreeNode[] {
  const nodes = new Map<number, TreeNode>(items.map((d) => [d.id, { value: d.id, title: d.title }]));
  const roots: TreeNode[] = [];
  for (const d of items) {
    const parent = d.parent_id === null ? undefined : nodes.get(d.parent_id);
    if (parent) (parent.children ??= []).push(nodes.get(d.id)!);
    else roots.push(nodes.get(d.id)!);
  }
  const disable = (n: TreeNode) => {
    n.disabled = true;
    n.children?.forEach(disable);
  };
  if (exclude !== undefined && nodes.has(exclude)) disable(nodes.get(exclude)!);
  return roots;
}

/** A department picked on the tree of the company's departments (上级部门 here, 部门 on the staff pages). */
export function DepartmentSelect({
  value,
  onChange,
  exclude,
  placeholder = '不选为顶级部门',
  ...rest
}: {
  value?: number | null;
  onChange?: (v: number | null) => void;
  exclude?: number;
  placeholder?: string;
  style?: CSSProperties;
  'data-testid'?: string;
}) {
  const { items, loading } = useSmallList('dept_small_list', {});
  const treeData = useMemo(() => treeOf(items, exclude), [items, exclude]);
  return (
    <TreeSelect
      {...rest}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      treeData={treeData}
      loading={loading}
      allowClear
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      placeholder={placeholder}
    />
  );
}
