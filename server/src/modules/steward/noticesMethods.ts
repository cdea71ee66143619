import type { MethodDef } from '../../http/registry.js';
import { noticeModule as methods } from './notices.js';
import './noticesJob.js';

/** 通知公告 (docs/product.md#notices): the methods, and the scheduled-publishing job registered with them. */
export const noticeModule: MethodDef[] = methods;
