import { useMemo } from 'react';
import { Form, Input, Select, Tag } from 'antd';
import { permissionCodes, permissionTitle } from '@wuye/contract/team/permissions';
import { routeManifest } from '../../routeManifest';

export { LinkIcon } from '../../shell/linkIcons';

/** The community's pages a link may open: the route tree's menu pages without parameters. */
export const LINK_PAGES = routeManifest.community
  .filter((p) => !p.hidden && !p.path.includes(':'))
  .map((p) => ({ value: p.path, label: `${p.title}（${p.path}）` }));
export const pageTitle = (path: string) => routeManifest.community.find((p) => p.path === path.split('?')[0])?.title;

type Props = { value?: never; onChange?: (v: never) => void; 'data-testid'?: string };

/** 链接地址: a page picked from the route tree for 系统页面, an address typed for 外部链接. */
export function LinkUrlInput({ value, onChange, ...rest }: Props) {
  const form = Form.useFormInstance();
  const kind = Form.useWatch('kind', form) as string | undefined;
  const change = onChange as ((v: string) => void) | undefined;
  if (kind === 'internal') {
    return (
      <Select
        showSearch
        optionFilterProp="label"
        options={LINK_PAGES}
        value={(value as string | undefined) || undefined}
        onChange={(v: string) => change?.(v)}
        placeholder="选择系统页面"
        data-testid={rest['data-testid']}
      />
    );
  }
  return (
    <Input
      value={value as string | undefined}
      onChange={(e) => change?.(e.target.value)}
      placeholder="https://、mailto: 或 tel: 开头"
      allowClear
      data-testid={rest['data-testid']}
    />
  );
}

/** 可见角色: the console's permission codes; none chosen, everyone sees the link. */
export function LinkRolesSelect({ value, onChange, ...rest }: Props) {
  const options = useMemo(() => permissionCodes('web').map((code) => ({ value: code, label: permissionTitle(code) })), []);
  return (
    <Select
      mode="multiple"
      allowClear
      optionFilterProp="label"
      options={options}
      value={(value as string[] | undefined) ?? []}
      onChange={(v: string[]) => (onChange as ((v: string[]) => void) | undefined)?.(v)}
      placeholder="所有人可见"
      data-testid={rest['data-testid']}
    />
  );
}

export function RolesTags({ roles }: { roles: string[] }) {
  if (!roles?.length) return <span>所有人</span>;
  return (
    <>
      {roles.map((r) => (
        <Tag key={r}>{permissionTitle(r)}</Tag>
      ))}
    </>
  );
}

export function UrlCell({ kind, url }: { kind: string; url: string }) {
  if (kind === 'internal') return <span title={url}>{pageTitle(url) ?? url}</span>;
  return (
    <a href={url} target="_blank" rel="noreferrer">
      {url}
    </a>
  );
}
