import type { MethodDef } from '../../http/registry.js';
import { applyModule } from './apply.js';
import { contentModule } from './content.js';

/** The owner app's content and services (docs/product.md#owner-app). */
export const mobilesysModule: MethodDef[] = [...contentModule, ...applyModule];
