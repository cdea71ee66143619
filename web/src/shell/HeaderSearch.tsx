import { useMemo, useRef, useState } from 'react';
import { Select, Tooltip } from 'antd';
import type { RefSelectProps } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import Fuse from 'fuse.js';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRoutesInfo } from '../router/context';
import { searchEntries } from '../router/helpers';
import { isExternal } from '../utils/validate';
import { SEARCH_OPTIONS } from './searchOptions';

/** Header route search over the permitted menu pages. */
export default function HeaderSearch() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { permitted } = useRoutesInfo();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const selectRef = useRef<RefSelectProps>(null);
  const lng = i18n.language;
  // the titles follow the language
  const fuse = useMemo(() => new Fuse(searchEntries(permitted, (k) => t(k, { lng })), SEARCH_OPTIONS), [permitted, t, lng]);
  const options = query ? fuse.search(query).map((r) => ({ value: r.item.path, label: r.item.title })) : [];
  return (
    <div className={`header-search${open ? ' show' : ''}`} data-testid="route-search">
      <Tooltip title={t('navbar.search')}>
        <SearchOutlined
          className="navbar-icon"
          data-testid="route-search-toggle"
          onClick={() => {
            setOpen(!open);
            if (!open) setTimeout(() => selectRef.current?.focus(), 0);
          }}
        />
      </Tooltip>
      {open && (
        <Select
          ref={selectRef}
          className="header-search-select"
          data-testid="route-search-input"
          size="small"
          value={null}
          placeholder={t('navbar.searchPlaceholder')}
          showSearch={{ filterOption: false, onSearch: setQuery, searchValue: query }}
          options={options}
          notFoundContent={null}
          onChange={(path: string) => {
            setQuery('');
            setOpen(false);
            if (isExternal(path)) window.open(path, '_blank', 'noopener');
            else void navigate(path);
          }}
          onBlur={() => {
            setQuery('');
            setOpen(false);
          }}
          popupMatchSelectWidth={260}
        />
      )}
    </div>
  );
}
