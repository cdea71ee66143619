import { Dropdown, Tooltip } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { CommonLink } from '@wuye/contract/system';
import { call } from '../api/client';
import { LinkIcon } from './linkIcons';

/** The key the link pages' writes refresh (components/resource/keys.ts: ['res', 'link']). */
export const COMMON_LINKS_KEY = ['res', 'link', 'shell'] as const;

/**
 * 常用链接 in the top bar (/setup/linklist): the group's links, then the community's, those the
 * user's codes see; a page of the console opens in the console, an address where the link says.
 */
export default function CommonLinks() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useQuery({
    queryKey: COMMON_LINKS_KEY,
    queryFn: () => call('get_common_links', {}, { silent: true }),
    staleTime: 60_000,
  });
  const items = data?.items ?? [];
  if (items.length === 0) return null;
  const open = (l: CommonLink) => {
    if (l.kind === 'internal' && l.target === 'self') void navigate(l.url);
    else if (l.target === 'self') window.location.href = l.url;
    else window.open(l.url, '_blank', 'noopener');
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: items.map((l) => {
          return {
            key: `${l.scope}-${l.id}`,
            icon: <LinkIcon name={l.icon} />,
            label: <span data-testid={`common-link-${l.scope}-${l.id}`}>{l.title}</span>,
          };
        }),
        onClick: ({ key }) => {
          const l = items.find((i) => `${i.scope}-${i.id}` === key);
          if (l) open(l);
        },
      }}
    >
      <Tooltip title={t('navbar.commonLinks', '常用链接')}>
        <span className="navbar-icon-wrap" data-testid="navbar-links">
          <LinkOutlined className="navbar-icon" />
        </span>
      </Tooltip>
    </Dropdown>
  );
}
