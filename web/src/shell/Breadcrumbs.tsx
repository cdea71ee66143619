import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { breadcrumbTrail } from '../router/helpers';
import { useCurrentRoute } from './useCurrentRoute';

/** Breadcrumbs rooted at /dashboard (docs/product.md#shell-breadcrumbs). */
export default function Breadcrumbs() {
  const { t } = useTranslation();
  const { flat } = useCurrentRoute();
  const trail = breadcrumbTrail(flat);
  return (
    <Breadcrumb
      className="app-breadcrumb"
      data-testid="breadcrumb"
      items={trail.map((c, i) => ({
        key: `${i}:${c.path}`,
        title: c.link ? <Link to={c.path}>{t(c.title)}</Link> : <span>{t(c.title)}</span>,
      }))}
    />
  );
}
