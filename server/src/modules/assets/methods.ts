import type { MethodDef } from '../../http/registry.js';
import { ledgerModule } from './ledger.js';
import { maintainModule } from './maintain.js';
import './maintainJobs.js';

/** 设备台账 and 维保 (docs/product.md#equipment-ledger): categories, assets, their log and labels; standards, plans, tasks. */
export const assetsModule: MethodDef[] = [...ledgerModule, ...maintainModule];
