import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The browser tab's words: the page's title and the product's ('账单列表 - 物业管理后台'). */
export function documentTitle(page: string | undefined, product: string): string {
  return page ? `${page} - ${product}` : product;
}

/** Names the browser tab after the page (a title already translated), in the current language. */
export function useDocumentTitle(page: string | undefined): void {
  const { t } = useTranslation();
  const product = t('login.title');
  useEffect(() => {
    document.title = documentTitle(page, product);
  }, [page, product]);
}
