import { describe, expect, it } from 'vitest';
import { BACKLOG_KIND } from '@wuye/contract/system';
import { enumText } from '@wuye/contract/kit/resource';
import { backlogTarget } from './backlogTarget';

const pages = new Set(['/fees/refundlist', '/fees/feebillworkadd', '/setup/backlog', '/roomlist']);
const canOpen = (p: string) => pages.has(p);

describe('where 去处理 leads', () => {
  it("to the item's own page when the user may open it, its query kept", () => {
    expect(backlogTarget({ kind: 'other', link: '/roomlist?bid=2' }, canOpen)).toEqual({ page: '/roomlist?bid=2' });
    expect(backlogTarget({ kind: 'other', link: 'https://help.example.com/a' }, canOpen)).toEqual({
      external: 'https://help.example.com/a',
    });
  });
  it("to its kind's page when the link is missing, unknown, forbidden or the to-do list itself", () => {
    expect(backlogTarget({ kind: 'refund', link: '' }, canOpen)).toEqual({ page: '/fees/refundlist' });
    expect(backlogTarget({ kind: 'refund', link: '/setup/backlog' }, canOpen)).toEqual({ page: '/fees/refundlist' });
    expect(backlogTarget({ kind: 'fees', link: '/no/such/page' }, canOpen)).toEqual({ page: '/fees/feebillworkadd' });
    // a technician who may not open the desk's list goes to their own tickets
    const techPages = (p: string) => p === '/steward/myrepairs';
    expect(backlogTarget({ kind: 'repairwork', link: '/steward/repairs?id=7' }, techPages)).toEqual({ page: '/steward/myrepairs' });
    expect(backlogTarget({ kind: 'repair', link: '' }, (p) => p === '/steward/repairs')).toEqual({ page: '/steward/repairs' });
  });
  it('nowhere (its details open) when neither can be opened: never a 404', () => {
    // a user who may open no repair page
    expect(backlogTarget({ kind: 'repair', link: '/steward/repairs' }, canOpen)).toBeNull();
    expect(backlogTarget({ kind: 'complaint', link: '/setup/backlog' }, canOpen)).toBeNull();
    // a cashier who may not open the bill generation
    expect(backlogTarget({ kind: 'fees', link: '' }, (p) => p === '/setup/backlog')).toBeNull();
  });
  it('names the kinds in Chinese', () => {
    expect(['repair', 'refund', 'fees', 'complaint', 'other'].map((k) => enumText(BACKLOG_KIND, k))).toEqual([
      '报修',
      '退款',
      '收费',
      '投诉',
      '其他',
    ]);
  });
});
