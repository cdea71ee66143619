import { Card, List, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { groupLink, link, type LinkItem } from '@wuye/contract/setup/links';
import { call } from '../../api/client';
import { ResourcePage, resourceKey } from '../../components/resource';
import { useUser } from '../../stores/user';
import { LinkIcon, LinkRolesSelect, LinkUrlInput, RolesTags, UrlCell } from './linkWidgets';

const widgets = { url: LinkUrlInput, roles: LinkRolesSelect };
const columns = {
  url: { render: (_: unknown, row: LinkItem) => <UrlCell kind={row.kind} url={row.url} /> },
  icon: { render: (_: unknown, row: LinkItem) => <LinkIcon name={row.icon} /> },
  roles: { render: (_: unknown, row: LinkItem) => <RolesTags roles={row.roles} /> },
};

/** The group's links as a community sees them: inherited, read only. */
function GroupLinks() {
  const { data, isLoading } = useQuery({
    queryKey: [...resourceKey('grouplink'), 'inherited'],
    queryFn: () => call('grouplinklist', { page: 1, limit: 200, sort: 'asc' }),
  });
  const items = data?.items ?? [];
  return (
    <Card size="small" title="集团常用链接（各小区继承，由集团总部维护）" data-testid="grouplink-inherited" style={{ marginBottom: 16 }}>
      <List
        loading={isLoading}
        dataSource={items}
        locale={{ emptyText: '集团暂无常用链接' }}
        renderItem={(row) => (
          <List.Item>
            <Space wrap>
              <LinkIcon name={row.icon} />
              <Typography.Text strong>{row.title}</Typography.Text>
              <UrlCell kind={row.kind} url={row.url} />
              <Tag>{row.target_ch}</Tag>
              {row.status === 'N' && <Tag>停用</Tag>}
              <RolesTags roles={row.roles} />
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}

/**
 * /setup/linklist: on the community side the group's links (read only) above the community's own;
 * on the group side the group's links, which the head office keeps.
 */
export default function LinkList() {
  const side = useUser((s) => s.side);
  if (side === 'group') {
    return <ResourcePage<LinkItem> resource={groupLink} title="集团常用链接" widgets={widgets} columns={columns} />;
  }
  return (
    <>
      <GroupLinks />
      <ResourcePage<LinkItem> resource={link} title="本小区常用链接" widgets={widgets} columns={columns} />
    </>
  );
}
