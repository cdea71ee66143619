/**
 * Who may do what on the steward desk (管家服务, /steward; role names of docs/product.md#roles;
 * admin always passes). A dispatcher (客服管家) holds `steward`; a technician holds `repairs` and
 * acts only on the tickets handed to them; `notices` writes the notices.
 */
export const STEWARD_ROLES = {
  /** the desk: register tickets for owners, dispatch, close, follow up; complaints; type settings */
  desk: ['steward'],
  /** read the repair list and details: the desk and the technicians */
  repairRead: ['steward', 'repairs'],
  /** a technician's own steps: grab, accept, pause, resume, transfer, return, finish */
  technician: ['repairs'],
  /** internal work orders: raised and handled by the desk and the technicians */
  internalOrder: ['steward', 'repairs'],
  /** write and publish notices */
  noticeWrite: ['notices'],
  /** read notices and their read receipts */
  noticeRead: ['notices', 'steward'],
  /** steward profiles and the score sheets */
  profiles: ['steward'],
  /** the desk's reports under the fee panels (repaircount, complaintcount) */
  reports: ['steward', 'feecount'],
} as const;
