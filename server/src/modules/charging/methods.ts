import type { MethodDef } from '../../http/registry.js';
import { monthCardMethods } from './monthCards.js';
import { phoneMethods } from './phone.js';
import { pileMethods } from './piles.js';
import { sessionMethods } from './sessions.js';
import './sim.js';
import { toolMethods } from './tools.js';

/** 充电桩 (docs/product.md#charging-piles): piles and ports, sessions, the simulator, month cards, reconciliation, the report, the owner's phone. */
export const chargingModule: MethodDef[] = [...pileMethods, ...sessionMethods, ...toolMethods, ...monthCardMethods, ...phoneMethods];
