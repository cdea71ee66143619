import type { MethodDef } from '../../http/registry.js';
import { profileMethodList } from './profiles.js';
import { scoreMethodList } from './scores.js';

/** Steward profiles, assessment items and scores (docs/product.md#steward-profiles). */
export const profilesModule: MethodDef[] = [...profileMethodList, ...scoreMethodList];
