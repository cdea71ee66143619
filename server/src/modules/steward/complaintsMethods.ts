import type { MethodDef } from '../../http/registry.js';
import { complaintCountMethods } from './complaintCount.js';
import { complaintMethods } from './complaints.js';
import './complaintsJobs.js';

/** 投诉建议 (docs/product.md#complaints): categories, the complaint workflow, its list, detail, export and report. */
export const complaintsModule: MethodDef[] = [...complaintMethods, ...complaintCountMethods];
