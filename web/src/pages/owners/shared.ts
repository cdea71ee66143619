/** The room the drawer and its tabs work on (docs/product.md#owner-drawer-tabs: every tab receives rid, bid, tid, hid). */
export interface HouseRef {
  /** 0 when unknown: the server then uses the session's community */
  rid: number;
  bid: number;
  tid: number;
  hid: number;
}

/** Roles that manage owners and cars (the server checks the same). */
export { MEMBER_MANAGERS, CAR_MANAGERS } from '@wuye/contract/owners/roles';

/** The room's ids as a payload; an unknown rid (0) is left out. */
export const houseFields = (h: HouseRef) => ({ ...(h.rid ? { rid: h.rid } : {}), bid: h.bid, tid: h.tid, hid: h.hid });

export { fileToBase64, saveFile } from '../../utils/files';
