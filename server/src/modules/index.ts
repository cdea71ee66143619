import type { MethodDef } from '../http/registry.js';
import { authModule } from './auth/methods.js';
import { regionModule } from './region/methods.js';
import { renewalModule } from './renewal/methods.js';
import { systemModule } from './system/methods.js';

/** Every area's methods; adding an area = one line here. */
export const modules: MethodDef[][] = [authModule, systemModule, renewalModule, regionModule];
