import { useMemo } from 'react';
import { Space, Tag, Tooltip } from 'antd';
import { useLocation, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { appMenu, type MenuItem } from '@wuye/contract/mobilesys/content';
import { call } from '../../api/client';
import { EnumTag, ResourcePage, useFormFromAddress, useResourceForm, type Widgets } from '../../components/resource';
import { MENU_STATUS } from '@wuye/contract/mobilesys/content';
import { APP_SERVICES } from '@wuye/contract/mobilesys/apply';
import { LinkTargetInput, MenuIcon, MenuIconSelect } from './widgets';

const LIST = '/mobilesys/menulist';
/** the list's filters stay at its own address when the page opened at …add or …edit */
const LIST_OPTIONS = { path: LIST };
const SERVICE_TITLES: Record<string, string> = Object.fromEntries(Object.entries(APP_SERVICES).map(([code, s]) => [code, s.title]));

const widgets: Widgets = {
  icon: MenuIconSelect as Widgets[string],
  target: ((p: object) => <LinkTargetInput {...p} typeField="link_type" testId="appmenu-target" />) as Widgets[string],
};

/**
 * 菜单管理 (/mobilesys/menulist, with /mobilesys/menuadd and /mobilesys/menuedit?id= opening its
 * form; docs/product.md#owner-app): the icons of the owner app's home grid, service page, "mine"
 * page and bottom bar. An entry whose built-in function the community does not offer (/apply)
 * shows why it is hidden.
 */
export default function MenuList() {
  const { pathname } = useLocation();
  const route = pathname.endsWith('/menuadd') ? 'add' : pathname.endsWith('/menuedit') ? 'edit' : null;
  const [params] = useSearchParams();
  const linkId = Number(params.get('id')) || 0;
  const form = useResourceForm<MenuItem>(appMenu);
  const linked = useQuery({
    queryKey: ['appmenuinfo', linkId],
    queryFn: () => call('appmenuinfo', { id: linkId }, { silent: true }),
    enabled: route === 'edit' && linkId > 0,
    retry: false,
  });
  const linkedItems = useMemo(() => (linked.data ? [linked.data] : []), [linked.data]);
  useFormFromAddress({ route, linkId, items: linkedItems, ready: !linked.isFetching, form, listPath: LIST, missing: '菜单不存在' });

  return (
    <ResourcePage<MenuItem>
      resource={appMenu}
      listOptions={LIST_OPTIONS}
      title="菜单管理"
      form={form}
      widgets={widgets}
      columns={{
        icon: {
          render: (name: string, row) => (
            <Tooltip title={row.icon_ch}>
              <MenuIcon name={name} />
            </Tooltip>
          ),
        },
        target: {
          render: (target: string, row) => (row.link_type === 'service' ? (SERVICE_TITLES[target] ?? target) : target),
        },
        status: {
          render: (status: string, row) => (
            <Space size={4} wrap>
              <EnumTag enum={MENU_STATUS} value={status} />
              {status === 'Y' && row.hidden_reason && (
                <Tooltip title={row.hidden_reason}>
                  <Tag color="warning" data-testid={`appmenu-hidden-${row.id}`}>
                    已隐藏
                  </Tag>
                </Tooltip>
              )}
            </Space>
          ),
        },
      }}
    />
  );
}
