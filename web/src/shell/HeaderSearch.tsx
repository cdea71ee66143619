import { lazy, Suspense, useState } from 'react';
import { Tooltip } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

// the select and the fuzzy matcher load when the search is first wanted, not with the shell
const loadSelect = () => import('./HeaderSearchSelect');
const HeaderSearchSelect = lazy(loadSelect);

/** Header route search over the permitted menu pages. */
export default function HeaderSearch() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className={`header-search${open ? ' show' : ''}`} data-testid="route-search">
      <Tooltip title={t('navbar.search')}>
        <SearchOutlined
          className="navbar-icon"
          data-testid="route-search-toggle"
          onMouseEnter={() => void loadSelect()}
          onClick={() => setOpen(!open)}
        />
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <HeaderSearchSelect onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
