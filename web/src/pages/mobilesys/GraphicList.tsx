import { useMemo, useState } from 'react';
import { App, Button, Drawer, Image, Space, Typography } from 'antd';
import type { ButtonProps } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { graphic, type GraphicItem } from '@wuye/contract/mobilesys/content';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { ResourcePage, useCanWrite, useFormFromAddress, useResourceForm, type ResourceList, type Widgets } from '../../components/resource';
import { NoticeEditor } from '../steward/NoticeEditor';
import '../steward/notices.css';
import { CoverInput, LinkTargetInput } from './widgets';

const LIST = '/mobilesys/graphiclist';
/** the list's filters stay at its own address when the page opened at …add or …edit */
const LIST_OPTIONS = { path: LIST };

const widgets: Widgets = {
  cover: CoverInput as Widgets[string],
  body: NoticeEditor as Widgets[string],
  link: ((p: object) => <LinkTargetInput {...p} typeField="link_type" testId="graphic-link" />) as Widgets[string],
};

/** An article as the owner app shows it, at a phone's width. */
function ArticlePreview({ row, onClose }: { row: GraphicItem | null; onClose: () => void }) {
  return (
    <Drawer open={!!row} onClose={onClose} title="预览" width={420} destroyOnHidden>
      {row && (
        <div className="app-article" data-testid="graphic-preview">
          {row.cover && <Image src={row.cover} preview={false} width="100%" />}
          <Typography.Title level={4} style={{ marginTop: 12 }}>
            {row.title}
          </Typography.Title>
          <Typography.Text type="secondary">
            {row.kind_ch} · {row.online_date} · 阅读 {row.views}
          </Typography.Text>
          {row.summary && <Typography.Paragraph type="secondary">{row.summary}</Typography.Paragraph>}
          {/* the body went through the notices' allow-list on the server (modules/steward/noticeHtml.ts) */}
          <div className="notice-body" dangerouslySetInnerHTML={{ __html: row.body }} />
          {row.link_type !== 'none' && (
            <Typography.Paragraph type="secondary">
              点击跳转：{row.link_type_ch} {row.link}
            </Typography.Paragraph>
          )}
        </div>
      )}
    </Drawer>
  );
}

/**
 * 图文管理 (/mobilesys/graphiclist, with /mobilesys/graphicadd and /mobilesys/graphicedit?id= opening
 * its form; docs/product.md#owner-app): the owner app's articles, banners and posts; 发布 puts one
 * online in its window, 撤回 takes it off; 预览 shows it as the app does.
 */
export default function GraphicList() {
  const { pathname } = useLocation();
  const route = pathname.endsWith('/graphicadd') ? 'add' : pathname.endsWith('/graphicedit') ? 'edit' : null;
  const [params] = useSearchParams();
  const linkId = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const canWrite = useCanWrite(graphic.def.roles.write);
  const form = useResourceForm<GraphicItem>(graphic);
  const [previewing, setPreviewing] = useState<GraphicItem | null>(null);
  // the edit address names a row that may be on any page: read it by itself
  const linked = useQuery({
    queryKey: ['graphicinfo', linkId],
    queryFn: () => call('graphicinfo', { id: linkId }, { silent: true }),
    enabled: route === 'edit' && linkId > 0,
    retry: false,
  });
  const linkedItems = useMemo(() => (linked.data ? [linked.data] : []), [linked.data]);
  useFormFromAddress({ route, linkId, items: linkedItems, ready: !linked.isFetching, form, listPath: LIST, missing: '图文不存在' });

  const act = (method: 'graphicpublish' | 'graphicwithdraw', row: GraphicItem, list: ResourceList<GraphicItem>) =>
    modal.confirm({
      title: method === 'graphicpublish' ? '发布图文' : '撤回图文',
      content:
        method === 'graphicpublish'
          ? `发布“${row.title}”？${row.online_date} 起在业主App展示${row.offline_date ? `，${row.offline_date} 后下线` : ''}。`
          : `撤回“${row.title}”？业主App将不再展示，可修改后再发布。`,
      okText: method === 'graphicpublish' ? '发布' : '撤回',
      cancelText: '取消',
      okButtonProps: { danger: method === 'graphicwithdraw', 'data-testid': 'graphic-act-ok' } as ButtonProps,
      onOk: async () => {
        try {
          const answer = await request(method, { id: row.id });
          noticeSuccess(answer.return_msg);
          const warning = (answer.data as { warning?: string }).warning;
          if (warning) void modal.warning({ title: '请注意', content: warning });
          list.reload();
        } catch {
          /* the client showed why */
        }
      },
    });

  return (
    <>
      <ResourcePage<GraphicItem>
        resource={graphic}
        listOptions={LIST_OPTIONS}
        title="图文管理"
        form={form}
        widgets={widgets}
        columns={{
          cover: {
            render: (url: string) => (url ? <Image src={url} width={64} height={36} style={{ objectFit: 'cover' }} /> : '-'),
          },
        }}
        toolbar={
          <Button icon={<EyeOutlined />} onClick={() => void navigate('/mobilesys/apppreview')} data-testid="graphic-home-preview">
            首页预览
          </Button>
        }
        rowActions={(row, list) => (
          <Space size={0}>
            <Button size="small" type="link" onClick={() => setPreviewing(row)} data-testid={`graphic-preview-${row.id}`}>
              预览
            </Button>
            {canWrite && (row.status === 'D' || row.status === 'W') && (
              <Button size="small" type="link" onClick={() => act('graphicpublish', row, list)} data-testid={`graphic-publish-${row.id}`}>
                发布
              </Button>
            )}
            {canWrite && (row.status === 'P' || row.status === 'S' || row.status === 'X') && (
              <Button
                size="small"
                type="link"
                danger
                onClick={() => act('graphicwithdraw', row, list)}
                data-testid={`graphic-withdraw-${row.id}`}
              >
                撤回
              </Button>
            )}
          </Space>
        )}
      />
      <ArticlePreview row={previewing} onClose={() => setPreviewing(null)} />
    </>
  );
}
