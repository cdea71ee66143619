/**
 * Who may do what with visitors (docs/product.md#visitors). The spec files the visitor page under access
 * control (`currents`); the guards at the gate (`security`, demo account `guard`) register visitors,
 * cancel them, revoke a pass and check passes too. Approving or refusing a registration and the
 * community's visitor settings are the access-control managers' alone. admin always passes.
 */
export const VISITOR_ROLES = {
  /** the list, register, edit, cancel, revoke, the pass check, export */
  staff: ['currents', 'security'],
  /** approve or refuse (review on), the settings */
  manager: ['currents'],
} as const;
