import { useMemo, useState } from 'react';
import { Select } from 'antd';
import Fuse from 'fuse.js';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRoutesInfo } from '../router/context';
import { searchEntries } from '../router/helpers';
import { isExternal } from '../utils/validate';
import { SEARCH_OPTIONS } from './searchOptions';

/** The search box of the header route search, loaded when the search first opens. */
export default function HeaderSearchSelect({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { permitted } = useRoutesInfo();
  const [query, setQuery] = useState('');
  const lng = i18n.language;
  // the titles follow the language
  const fuse = useMemo(
    () =>
      new Fuse(
        searchEntries(permitted, (k) => t(k, { lng })),
        SEARCH_OPTIONS,
      ),
    [permitted, t, lng],
  );
  const options = query ? fuse.search(query).map((r) => ({ value: r.item.path, label: r.item.title })) : [];
  return (
    <Select
      autoFocus
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
        onClose();
        if (isExternal(path)) window.open(path, '_blank', 'noopener');
        else void navigate(path);
      }}
      onBlur={() => {
        setQuery('');
        onClose();
      }}
      popupMatchSelectWidth={260}
    />
  );
}
