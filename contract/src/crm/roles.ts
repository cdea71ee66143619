/**
 * Who may do what with customers and contracts (/crm; docs/product.md#crm): the spec roles `crm`
 * (sales customers), `care` (customer care), `rentroom` (room-sales and other contracts) and
 * `tenant` (tenant leases) hold their pages; the action codes `contractaudit` and `leaseaudit`
 * approve contracts and leases. admin always passes.
 */
export const CRM_ROLES = {
  /** sales customers, their follow-ups, visits and intention deposits; the pool */
  sales: ['crm'],
  /** customer care: records and affairs */
  care: ['care'],
  /** room-sales and other contracts: drafting, submitting, collection, attachments, units for sale or rent */
  contracts: ['rentroom'],
  /** approving contracts, their changes and their refunds */
  contractAudit: ['contractaudit'],
  /** tenant leases: drafting, submitting, renewal, check-out */
  leases: ['tenant'],
  /** approving leases */
  leaseAudit: ['leaseaudit'],
  /** setcrmsys: contract types, numbering, lease defaults, pool rules */
  settings: ['crm', 'rentroom', 'tenant'],
} as const;
