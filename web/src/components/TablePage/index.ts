export { default, TABLE_PAGE_SIZE } from './TablePage';
export type { TablePageList, TablePageProps } from './TablePage';
export { useActionFixed } from './useActionFixed';
