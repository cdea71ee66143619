import { describe, expect, it } from 'vitest';
import Fuse from 'fuse.js';
import type { AppRoute } from './types';
import {
  aliasTarget,
  affixRoutes,
  breadcrumbTrail,
  filterRoutes,
  findFlat,
  firstPagePath,
  flattenRoutes,
  groupAliases,
  inModule,
  matchPattern,
  searchEntries,
  topMenuRoutes,
  topOf,
} from './helpers';
import { SEARCH_OPTIONS } from '../shell/searchOptions';

const Page = () => null;
const tree: AppRoute[] = [
  { path: '/dashboard', component: Page, meta: { title: 'route.dashboard', affix: true } },
  {
    path: '/fees',
    meta: { title: '收费管理' },
    children: [
      { path: 'payment', component: Page, meta: { title: '缴费', roles: ['payment'] } },
      { path: 'feeedit/:id', component: Page, hidden: true, meta: { title: '编辑', roles: ['fees'], activeMenu: '/fees/payment' } },
      {
        path: 'cost',
        meta: { title: '费用登记' },
        children: [{ path: 'costdetaillist', component: Page, meta: { title: '登记明细', roles: ['fees'] } }],
      },
    ],
  },
  {
    path: '/setup',
    meta: { title: '系统设置', roles: ['setup'] },
    children: [{ path: 'backlog', component: Page, meta: { title: '待办' } }],
  },
];

describe('permitted routes (spec 2.1, 6)', () => {
  it('admin sees everything', () => {
    expect(flattenRoutes(filterRoutes(tree, ['admin'])).map((f) => f.fullPath)).toEqual([
      '/dashboard',
      '/fees/payment',
      '/fees/feeedit/:id',
      '/fees/cost/costdetaillist',
      '/setup/backlog',
    ]);
  });
  it('leaves out a closed module’s pages for everyone, the administrator too, and a group they emptied', () => {
    const modular: AppRoute[] = [tree[0]!, ...inModule('fees', [tree[1]!]), tree[2]!];
    expect(flattenRoutes(filterRoutes(modular, ['admin'], undefined, ['fees', 'parking'])).map((f) => f.fullPath)).toEqual([
      '/dashboard',
      '/setup/backlog',
    ]);
    expect(flattenRoutes(filterRoutes(modular, ['admin'], undefined, ['parking'])).map((f) => f.fullPath)).toContain('/fees/payment');
  });
  it('others by meta.roles, children likewise, empty groups dropped', () => {
    const cashier = filterRoutes(tree, ['cashier', 'payment']);
    expect(flattenRoutes(cashier).map((f) => f.fullPath)).toEqual(['/dashboard', '/fees/payment']);
    expect(cashier.map((r) => r.path)).toEqual(['/dashboard', '/fees']);
  });
  it('a parent role gates its children', () => {
    expect(flattenRoutes(filterRoutes(tree, ['fees'])).map((f) => f.fullPath)).toEqual([
      '/dashboard',
      '/fees/feeedit/:id',
      '/fees/cost/costdetaillist',
    ]);
  });
});

describe('route lookups', () => {
  const flat = flattenRoutes(tree);
  it('matches params', () => {
    expect(matchPattern('/fees/feeedit/:id', '/fees/feeedit/12')).toBe(true);
    expect(matchPattern('/fees/feeedit/:id', '/fees/feeedit')).toBe(false);
    expect(matchPattern('/redirect/*', '/redirect/a/b')).toBe(true);
    expect(findFlat(flat, '/fees/feeedit/3')?.route.meta?.title).toBe('编辑');
    expect(findFlat(flat, '/nope')).toBeUndefined();
  });
  it('finds the top route, first page and affix pages', () => {
    expect(topOf(tree, '/fees/cost/costdetaillist')?.path).toBe('/fees');
    expect(topOf(tree, '/feesx')).toBeUndefined();
    expect(firstPagePath(tree[1]!)).toBe('/fees/payment');
    // a redirect to a page the user lacks leads to the first page it has
    const reports: AppRoute = {
      path: '/feecounts',
      redirect: '/feecounts/fees_count',
      children: [{ path: 'repaircount', component: Page }],
    };
    expect(firstPagePath(reports)).toBe('/feecounts/repaircount');
    expect(firstPagePath({ ...reports, children: [{ path: 'fees_count', component: Page }, ...reports.children!] })).toBe(
      '/feecounts/fees_count',
    );
    expect(topMenuRoutes(tree).map((r) => r.path)).toEqual(['/dashboard', '/fees', '/setup']);
    expect(affixRoutes(flat).map((f) => f.fullPath)).toEqual(['/dashboard']);
  });
  it('breadcrumbs are rooted at /dashboard', () => {
    expect(breadcrumbTrail(findFlat(flat, '/fees/cost/costdetaillist')).map((c) => c.title)).toEqual([
      'route.dashboard',
      '收费管理',
      '费用登记',
      '登记明细',
    ]);
    expect(breadcrumbTrail(findFlat(flat, '/dashboard'))).toHaveLength(1);
  });
});

describe('route search (spec 2.3, 9)', () => {
  const entries = searchEntries(tree, (k) => (k === 'route.dashboard' ? '首页' : k));
  it('lists visible pages with their title trail', () => {
    expect(entries).toEqual([
      { path: '/dashboard', title: '首页' },
      { path: '/fees/payment', title: '收费管理 > 缴费' },
      { path: '/fees/cost/costdetaillist', title: '收费管理 > 费用登记 > 登记明细' },
      { path: '/setup/backlog', title: '系统设置 > 待办' },
    ]);
  });
  it('uses weights 0.7 title / 0.3 path and threshold 0.4', () => {
    expect(SEARCH_OPTIONS.threshold).toBe(0.4);
    expect(SEARCH_OPTIONS.keys).toEqual([
      { name: 'title', weight: 0.7 },
      { name: 'path', weight: 0.3 },
    ]);
    const fuse = new Fuse(entries, SEARCH_OPTIONS);
    expect(fuse.search('待办')[0]?.item.path).toBe('/setup/backlog');
    expect(fuse.search('payment')[0]?.item.path).toBe('/fees/payment');
  });
});

/** An area whose pages keep the product's addresses at the root, gathered under one menu group. */
const rooted: AppRoute[] = [
  ...tree,
  {
    path: '/basis',
    redirect: '/roomlist',
    meta: { title: '房产管理', roles: ['memberbasis'] },
    children: [
      { path: '/buildinglist', component: Page, meta: { title: '楼栋管理', roles: ['memberbasis'] } },
      { path: '/roomlist', component: Page, meta: { title: '房屋管理', roles: ['memberbasis'] } },
      { path: '/editroom', component: Page, hidden: true, meta: { title: '编辑房屋', roles: ['memberbasis'], activeMenu: '/roomlist' } },
      { path: '/addroom', component: Page, hidden: true, meta: { title: '新增房屋', roles: ['memberbasis'], search: true } },
    ],
  },
  {
    path: '/updatelog',
    redirect: '/updatelog/updatelog',
    meta: { title: '更新日志', roles: ['admin', 'updatelog'] },
    children: [{ path: 'updatelog', component: Page, meta: { title: '更新日志', roles: ['admin', 'updatelog'] } }],
  },
];

describe("the product's own addresses (spec 2.6 root area)", () => {
  it('a page at the root belongs to the menu group that lists it', () => {
    expect(flattenRoutes(rooted).map((f) => f.fullPath)).toContain('/buildinglist');
    expect(topOf(rooted, '/buildinglist')?.path).toBe('/basis');
    expect(topOf(rooted, '/roomlist')?.path).toBe('/basis');
    expect(topOf(rooted, '/fees/payment')?.path).toBe('/fees');
    expect(topOf(rooted, '/nowhere')).toBeUndefined();
  });
  it("each group's own address leads to its first page the user may open", () => {
    expect(groupAliases(filterRoutes(rooted, ['admin']))).toEqual([
      { from: '/fees', to: '/fees/payment' },
      { from: '/fees/cost', to: '/fees/cost/costdetaillist' },
      { from: '/setup', to: '/setup/backlog' },
      { from: '/basis', to: '/roomlist' },
      { from: '/updatelog', to: '/updatelog/updatelog' },
    ]);
    // a redirect the user may not open gives way to the group's first page the user may
    const reports: AppRoute[] = [
      {
        path: '/feecounts',
        redirect: '/feecounts/fees_count',
        children: [
          { path: 'fees_count', component: Page, meta: { roles: ['feecount'] } },
          { path: 'financereport', component: Page, meta: { roles: ['financecount'] } },
        ],
      },
    ];
    expect(groupAliases(filterRoutes(reports, ['financecount']))).toEqual([{ from: '/feecounts', to: '/feecounts/financereport' }]);
  });
  it("an alias fills its params and keeps the visitor's query and hash", () => {
    expect(aliasTarget('/editroom?id=:id', { id: '12' })).toBe('/editroom?id=12');
    expect(aliasTarget('/editroom?id=:id', { id: '12' }, '?from=list', '#top')).toBe('/editroom?id=12&from=list#top');
    expect(aliasTarget('/*', { '*': 'roomlist' }, '?bid=3&tid=4')).toBe('/roomlist?bid=3&tid=4');
    expect(aliasTarget('/updatelog/updatelog', {}, '?v=2')).toBe('/updatelog/updatelog?v=2');
    // the alias's own query wins over the visitor's of the same name
    expect(aliasTarget('/editroom?id=:id', { id: '5' }, '?id=9')).toBe('/editroom?id=5');
  });
  it('the route search finds a hidden page that says so, not the others', () => {
    const paths = searchEntries(rooted, (k) => k).map((e) => e.path);
    expect(paths).toContain('/addroom');
    expect(paths).not.toContain('/editroom');
    expect(paths).not.toContain('/fees/feeedit/:id');
  });
});
