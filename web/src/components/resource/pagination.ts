import { useTranslation } from 'react-i18next';

interface Paged {
  page: number;
  limit: number;
  total: number;
  setPage: (page: number, limit?: number) => void;
}

/**
 * The pagination of every list (docs/product.md#paging): 10 a page, sizes 10/20/30/50, the total in the
 * console's words, a new size going back to page 1 and the page scrolled to the top.
 */
export function usePagination(list: Paged) {
  const { t } = useTranslation();
  return {
    current: list.page,
    pageSize: list.limit,
    total: list.total,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 30, 50],
    showTotal: (total: number) => t('common.total', { total }),
    onChange: (page: number, size: number) => {
      list.setPage(size !== list.limit ? 1 : page, size);
      window.scrollTo({ top: 0, behavior: 'smooth' });
    },
  };
}
