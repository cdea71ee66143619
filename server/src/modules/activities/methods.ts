import type { MethodDef } from '../../http/registry.js';
import { activityMethods } from './activities.js';
import { signupMethods } from './signups.js';
import './clock.js';

/** 社区活动报名 (/service; docs/product.md#activities): activities, sign-ups, and the clock job registered with them. */
export const activitiesModule: MethodDef[] = [...activityMethods, ...signupMethods];
