/** The fees area's role sets live in the contract, beside its resources. */
export { FEE_ROLES as ROLES } from '@wuye/contract';
