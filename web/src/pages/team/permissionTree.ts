import type { PermissionNode } from '@wuye/contract/team/permissions';

/** A tree node as antd's Tree takes it: an area of the menu has a key of its own ('area:<title>'). */
export interface TreeNode {
  key: string;
  title: string;
  children?: TreeNode[];
}

export const areaKey = (title: string) => `area:${title}`;
const isArea = (key: string) => key.startsWith('area:');

export function toTreeNodes(nodes: PermissionNode[]): TreeNode[] {
  return nodes.map((n) => ({
    key: n.code ?? areaKey(n.title),
    title: n.title,
    children: n.children ? toTreeNodes(n.children) : undefined,
  }));
}

function descendants(node: TreeNode): string[] {
  return (node.children ?? []).flatMap((c) => [c.key, ...descendants(c)]);
}

function find(nodes: TreeNode[], key: string, parents: TreeNode[] = []): { node: TreeNode; parents: TreeNode[] } | undefined {
  for (const n of nodes) {
    if (n.key === key) return { node: n, parents };
    const inner = n.children && find(n.children, key, [...parents, n]);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * The codes after one box was ticked or cleared (docs/product.md#team): an action brings the page
 * it sits under ("manage implies view"); clearing a page clears its actions; an area ticks or
 * clears everything in it.
 */
export function toggleCode(tree: TreeNode[], codes: readonly string[], key: string, checked: boolean): string[] {
  const found = find(tree, key);
  if (!found) return [...codes];
  const out = new Set(codes);
  const below = descendants(found.node).filter((k) => !isArea(k));
  if (checked) {
    if (!isArea(key)) out.add(key);
    for (const k of isArea(key) ? below : []) out.add(k);
    for (const p of found.parents) if (!isArea(p.key)) out.add(p.key);
  } else {
    out.delete(key);
    for (const k of below) out.delete(k);
  }
  return [...out];
}

/** What the Tree shows: ticked codes, and areas ticked when all their codes are, half when some are. */
export function treeChecks(tree: TreeNode[], codes: readonly string[]): { checked: string[]; halfChecked: string[] } {
  const have = new Set(codes);
  const checked: string[] = [];
  const halfChecked: string[] = [];
  const visit = (nodes: TreeNode[]) => {
    for (const n of nodes) {
      if (n.children) visit(n.children);
      if (isArea(n.key)) {
        const below = descendants(n).filter((k) => !isArea(k));
        const held = below.filter((k) => have.has(k)).length;
        if (below.length && held === below.length) checked.push(n.key);
        else if (held) halfChecked.push(n.key);
      } else if (have.has(n.key)) checked.push(n.key);
    }
  };
  visit(tree);
  return { checked, halfChecked };
}

/** The tree cut to the nodes whose title holds `word`, with their parents (the tree's search). */
export function filterTree(nodes: TreeNode[], word: string): TreeNode[] {
  if (!word) return nodes;
  return nodes.flatMap((n) => {
    if (n.title.includes(word)) return [n];
    const children = n.children ? filterTree(n.children, word) : [];
    return children.length ? [{ ...n, children }] : [];
  });
}
