/** The team area (团队管理, /team): departments and positions of the property company (staff and roles: team/staff.ts). */
import type { ResourceOutputs } from './kit/resource.js';
import { department, position, type DeptItem, type DeptSmallItem, type PositionItem } from './team/departments.js';
export * from './team/departments.js';

export const teamMethods = {
  ...department.schemas,
  ...position.schemas,
} as const;

export type TeamOutputs = Omit<ResourceOutputs<typeof department.def, DeptItem>, 'dept_small_list'> & {
  /** the tree select's rows: the tree is built from parent_id */
  dept_small_list: { items: DeptSmallItem[] };
} & ResourceOutputs<typeof position.def, PositionItem>;
