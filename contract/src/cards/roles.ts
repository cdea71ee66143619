/**
 * Who may do what with member cards (/carpark card system; docs/product.md#member-cards): the spec
 * role `card` holds the card pages (a merchant account holds it too, to serve members); the action
 * code `cardset` sets the cards up. admin always passes.
 */
export const CARD_ROLES = {
  /** reading the card templates; members' cards and their ledgers */
  staff: ['card'],
  /** opening members' cards, their actions (freeze, lost, close, points) and recharges at the counter */
  issue: ['cardopen'],
  /** a recharge at the counter: those who open cards, and the cashiers */
  recharge: ['cardopen', 'cashier'],
  /** recharge packages, and approving a recharge's refund */
  approve: ['cardset', 'financecount'],
  /** card templates: their face, validity and points rules (not a merchant's) */
  manage: ['cardset'],
  /** the points mall: its settings, categories, goods and stock, and the members' orders (redeem, ship, complete, cancel) */
  mall: ['cardmall'],
  /** merchants: their settlement accounts, login accounts and the communities they serve (never a merchant account's) */
  merchants: ['merchantset'],
  /** members' coupons: their templates, giving and voiding them (never a merchant account's) */
  coupons: ['cardcoupon'],
} as const;
