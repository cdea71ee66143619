import type { MethodDef } from '../../http/registry.js';
import { rosterMethodList } from './roster.js';

/** Issue 36's duty rosters (docs/product.md#duty-rosters): shifts, rosters, the month grid and its export. */
export const rosterModule: MethodDef[] = [...rosterMethodList];
