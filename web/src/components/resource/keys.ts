import type { QueryClient } from '@tanstack/react-query';
import type { AnyResource } from './types';
import { building, roomCategory, unit } from '@wuye/contract/structure';
import { department, position } from '@wuye/contract/team/departments';

/**
 * The cache of every resource lives under ['res', <resource name>]: its list pages, its small
 * list (dropdowns) and its rows. A write of a resource invalidates that key, so every page's
 * dropdowns and lists of it refresh at once (react-admin's cache keyed by resource).
 */
export const resourceKey = (name: string) => ['res', name] as const;

/** The resources the web knows by description (their small lists are keyed by them). */
const DESCRIBED: readonly AnyResource[] = [roomCategory, building, unit, department, position];

/** Small lists that belong to a resource not described yet (its writes invalidate the same key). */
const SMALL_OWNERS: Readonly<Record<string, string>> = {
  room_small_list: 'room',
  role_small_list: 'role',
  feebill_cate_small_list: 'costtype',
  feethinglist: 'feeitem',
  carpark_small_list: 'carpark',
  parkingbooth_small_list: 'parkingbooth',
  parkingspace_small_list: 'parkingspace',
  carmain_small_list: 'car',
  parkcoupon_small_list: 'parkcoupon',
  graphic_small_list: 'graphic',
  assetcate_small_list: 'assetcate',
  asset_small_list: 'asset',
  maintainstandard_small_list: 'maintainstandard',
  maintainplan_small_list: 'maintainplan',
  // the points mall: the goods' dropdowns and the redeemable specifications move with the goods (stock)
  cate_small_list: 'mallcate',
  goods_small_list: 'goods',
  mall_spec_small_list: 'goods',
  // 成本登记: the item tree's dropdowns move with its writes
  costitem_small_list: 'costitem',
  costcategory_small_list: 'costitem',
};

/** The resource a small-list method belongs to (the method itself when none claims it). */
export function resourceOfSmall(method: string): string {
  for (const r of DESCRIBED) if (r.def.methods.small === method) return r.def.name;
  return SMALL_OWNERS[method] ?? method;
}

/**
 * After a write of `name`: refetch what is on screen of it (lists, dropdowns), and mark the lists
 * of the other resources stale, since their counts may have moved (a unit added changes the
 * building list's unit count), so they refetch when shown again.
 */
export function invalidateResource(queryClient: QueryClient, name: string): Promise<void> {
  void queryClient.invalidateQueries({
    predicate: (q) => q.queryKey[0] === 'res' && q.queryKey[1] !== name && q.queryKey[2] === 'list',
    refetchType: 'none',
  });
  return queryClient.invalidateQueries({ queryKey: resourceKey(name) });
}
