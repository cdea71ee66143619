export { STRUCTURE_WRITERS } from '@wuye/contract';
