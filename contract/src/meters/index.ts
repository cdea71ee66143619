/**
 * 智能表计 (docs/product.md#smart-meters): the method schemas and answers, gathered for the
 * catalogue (contract/src/index.ts).
 */
export * from './roles.js';
export * from './pricing.js';
export * from './meters.js';
