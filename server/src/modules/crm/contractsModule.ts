/** Room-sales and other contracts (docs/product.md#crm-contracts): every method of the part, for crm/methods.ts. */
import { contractMethods } from './contracts.js';
import { fileMethods } from './contractsFiles.js';
import { flowMethodList } from './contractsFlow.js';
import { moneyMethods } from './contractsMoney.js';
import { monthlyMethods } from './contractsMonthly.js';
import { unitMethods } from './contractsUnits.js';

export const contractsModule = [...contractMethods, ...flowMethodList, ...fileMethods, ...moneyMethods, ...monthlyMethods, ...unitMethods];
