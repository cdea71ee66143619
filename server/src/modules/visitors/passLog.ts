/**
 * Where a visitor's pass is checked and logged: the community's door device (the access area's
 * `doorOf`) and the pass record through the access area's one writer, `recordPass` (method qr, with
 * the visitor's id; server/src/db/OWNERS.md).
 */
import type { CommunityCtx } from '../../http/registry.js';
import { doorOf } from '../access/devices.js';
import { recordPass } from '../access/passes.js';

export interface PassDevice {
  id: number;
  title: string;
  enabled: boolean;
}

/** The community's door device, or 门禁设备不存在. */
export async function passDevice(ctx: CommunityCtx, id: number): Promise<PassDevice> {
  const d = await doorOf(ctx.db, ctx.rid, id);
  return { id: Number(d.id), title: d.title, enabled: d.enabled === 'Y' };
}

/** Logs a scan of a visitor's pass code, opened or refused (a code nobody holds is logged without a visitor). */
export async function logVisitorPass(
  ctx: CommunityCtx,
  pass: {
    device: PassDevice;
    visitorId: number | null;
    name: string;
    hid: number | null;
    memberId: number | null;
    at: Date;
    open: boolean;
  },
): Promise<void> {
  await recordPass(ctx.db, ctx.rid, {
    deviceId: pass.device.id,
    method: 'qr',
    result: pass.open ? 'open' : 'refused',
    personName: pass.name,
    memberId: pass.memberId,
    hid: pass.hid,
    visitorId: pass.visitorId,
    at: pass.at,
  });
}
