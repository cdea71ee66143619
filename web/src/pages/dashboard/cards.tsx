/**
 * The figure cards of the dashboard. A feature area adds its figures by appending an entry
 * (lazy import its card component to keep the dashboard chunk small).
 */
import { lazy, type ComponentType } from 'react';
import type { Side } from '../../utils/auth';

export interface DashboardCard {
  key: string;
  Component: ComponentType;
  /** starts downloading the component's code (the same import() as its lazy Component) */
  preload?: () => Promise<unknown>;
  /** shown to holders of one of these roles (admin sees all); none = everybody */
  roles?: readonly string[];
  /** sides the card belongs to; none = both */
  sides?: readonly Side[];
  /** hidden for these roles (e.g. the to-do card for leader_admin) */
  hiddenFor?: readonly string[];
  /** hidden for these account types (e.g. merchant) */
  hiddenForSysTypes?: readonly string[];
}

function lazyCard(load: () => Promise<{ default: ComponentType }>): Pick<DashboardCard, 'Component' | 'preload'> {
  return { Component: lazy(load), preload: load };
}

export const dashboardCards: DashboardCard[] = [
  {
    key: 'backlog',
    ...lazyCard(() => import('./BacklogCard')),
    sides: ['community'],
    hiddenFor: ['leader_admin'],
    hiddenForSysTypes: ['merchant'],
  },
  {
    key: 'feesMonth',
    ...lazyCard(() => import('./FeesMonthCard')),
    sides: ['community'],
    roles: ['fees', 'cashier', 'payment', 'feecount', 'fees_count', 'financecount'],
  },
  {
    key: 'feesArrears',
    ...lazyCard(() => import('./FeesArrearsCard')),
    sides: ['community'],
    roles: ['fees', 'feecount', 'fees_count', 'financecount'],
  },
  {
    key: 'daysLeft',
    ...lazyCard(() => import('./ServiceCard')),
    sides: ['community'],
  },
];

export function visibleCards(
  cards: readonly DashboardCard[],
  ctx: { side: Side; roles: readonly string[]; sysType?: string },
): DashboardCard[] {
  const admin = ctx.roles.includes('admin');
  return cards.filter(
    (c) =>
      (!c.sides || c.sides.includes(ctx.side)) &&
      (!c.roles || admin || c.roles.some((r) => ctx.roles.includes(r))) &&
      !c.hiddenFor?.some((r) => ctx.roles.includes(r)) &&
      !(ctx.sysType && c.hiddenForSysTypes?.includes(ctx.sysType)),
  );
}

/** Starts downloading the cards' code while the rest of the home page is still on its way. */
export function preloadCards(): void {
  for (const c of dashboardCards) void c.preload?.();
}
