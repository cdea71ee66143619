import { useMemo } from 'react';
import { Image } from 'antd';
import { useLocation, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { banner, type BannerItem } from '@wuye/contract/leader/banners';
import { call } from '../../api/client';
import { ResourcePage, useFormFromAddress, useResourceForm, type Widgets } from '../../components/resource';
import { CoverInput, LinkTargetInput } from '../mobilesys/widgets';

const LIST = '/apply/bannerlist';
/** the list's filters stay at its own address when the page opened at …add or …edit */
const LIST_OPTIONS = { path: LIST };

const widgets: Widgets = {
  image: ((p: object) => <CoverInput {...p} testId="banner-image" />) as Widgets[string],
  target: ((p: object) => <LinkTargetInput {...p} typeField="link_type" testId="banner-target" />) as Widgets[string],
};

/**
 * 轮播图 of the group (/apply/bannerlist, with /apply/banneradd and /apply/banneredit?id= opening its
 * form; issue 45): the head office's banners in its communities' owner app, each at a position, for
 * all its communities or chosen ones, within a window of days; the app's taps counted. A community's
 * 首页预览 shows the group's home banners for it before its own.
 */
export default function BannerList() {
  const { pathname } = useLocation();
  const route = pathname.endsWith('/banneradd') ? 'add' : pathname.endsWith('/banneredit') ? 'edit' : null;
  const [params] = useSearchParams();
  const linkId = Number(params.get('id')) || 0;
  const form = useResourceForm<BannerItem>(banner);
  // the edit address names a row that may be on any page: read it by itself
  const linked = useQuery({
    queryKey: ['bannerinfo', linkId],
    queryFn: () => call('bannerinfo', { id: linkId }, { silent: true }),
    enabled: route === 'edit' && linkId > 0,
    retry: false,
  });
  const linkedItems = useMemo(() => (linked.data ? [linked.data] : []), [linked.data]);
  useFormFromAddress({ route, linkId, items: linkedItems, ready: !linked.isFetching, form, listPath: LIST, missing: '轮播图不存在' });

  return (
    <ResourcePage<BannerItem>
      resource={banner}
      listOptions={LIST_OPTIONS}
      title="轮播图"
      form={form}
      widgets={widgets}
      columns={{
        image: {
          render: (url: string) => (url ? <Image src={url} width={64} height={26} style={{ objectFit: 'cover' }} /> : '-'),
        },
      }}
    />
  );
}
