/**
 * The figure cards of the dashboard. Who sees which card is HOME_CARDS in the contract: the
 * server's first screen draws the same cards with their figures (server/src/http/first-screen.ts).
 * The cards are in the dashboard's chunk, not lazy: the page must draw them in the commit that
 * takes the first screen away, or the figures would blink out while their code downloads.
 */
import type { ComponentType } from 'react';
import { visibleHomeCards, type HomeCardKey } from '@wuye/contract/home';
import type { Side } from '../../utils/auth';
import { AccessCard, ActivitiesCard, MetersCard, ParkingCard, PatrolCard, RepairsCard } from './areaCards';
import BacklogCard from './BacklogCard';
import { FeesArrearsCard, FeesMonthCard } from './FeesCards';
import ServiceCard from './ServiceCard';

const CARD_COMPONENTS: Record<HomeCardKey, ComponentType> = {
  backlog: BacklogCard,
  feesMonth: FeesMonthCard,
  feesArrears: FeesArrearsCard,
  repairs: RepairsCard,
  parking: ParkingCard,
  access: AccessCard,
  meters: MetersCard,
  patrol: PatrolCard,
  activities: ActivitiesCard,
  daysLeft: ServiceCard,
};

/** The cards the user sees, in order. */
export function dashboardCards(ctx: {
  side: Side;
  roles: readonly string[];
  sysType?: string | undefined;
  modulesOff?: readonly string[];
}) {
  return visibleHomeCards(ctx).map((key) => ({ key, Component: CARD_COMPONENTS[key] }));
}
