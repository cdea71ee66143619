/**
 * 充电桩 (docs/product.md#charging-piles): the method schemas and answers, gathered for the
 * catalogue (contract/src/index.ts).
 */
export * from './roles.js';
export * from './pricing.js';
export * from './charging.js';
