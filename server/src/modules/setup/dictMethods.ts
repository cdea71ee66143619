import type { MethodDef } from '../../http/registry.js';
import { categoryMethods, categorySmall } from './categories.js';
import { dictMethodList } from './dict.js';

/** The setup area's business categories (/setup/category) and data dictionary (/setup/dict_list). */
export const dictModule: MethodDef[] = [...categoryMethods, categorySmall, ...dictMethodList];
