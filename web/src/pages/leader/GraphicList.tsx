import { useMemo, useRef, useState } from 'react';
import { App, Button, Drawer, Image, Space, Tag, Typography } from 'antd';
import type { ButtonProps } from 'antd';
import { useLocation, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { leaderGraphic, type LeaderGraphicItem } from '@wuye/contract/leader/graphics';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { ResourcePage, useCanWrite, useFormFromAddress, useResourceForm, type ResourceList, type Widgets } from '../../components/resource';
import { NoticeEditor } from '../steward/NoticeEditor';
import '../steward/notices.css';
import '../mobilesys/mobilesys.css';
import { CoverInput } from '../mobilesys/widgets';

const LIST = '/mobile/graphiclist';
/** the list's filters stay at its own address when the page opened at …add or …edit */
const LIST_OPTIONS = { path: LIST };

const widgets: Widgets = {
  cover: ((p: object) => <CoverInput {...p} testId="leadergraphic-cover" />) as Widgets[string],
  body: NoticeEditor as Widgets[string],
};

/** The form's fields a copy starts from (the row's, as a new draft). */
const COPIED = ['category', 'cover', 'summary', 'body', 'link', 'region_scope', 'rids', 'pinned', 'sort'] as const;

/** An article as the owner app shows it, at a phone's width (the community side's article preview). */
function ArticlePreview({ row, onClose }: { row: LeaderGraphicItem | null; onClose: () => void }) {
  return (
    <Drawer open={!!row} onClose={onClose} title="预览" width={420} destroyOnHidden>
      {row && (
        <div className="app-article" data-testid="leadergraphic-preview">
          {row.cover && <Image src={row.cover} preview={false} width="100%" />}
          <Typography.Title level={4} style={{ marginTop: 12 }}>
            {row.pinned === 'Y' && <Tag color="red">置顶</Tag>}
            {row.title}
          </Typography.Title>
          <Typography.Text type="secondary">
            {row.category_ch} · {row.online_date || row.publish_time.slice(0, 10) || '未发布'} · 阅读 {row.views}
          </Typography.Text>
          {row.summary && <Typography.Paragraph type="secondary">{row.summary}</Typography.Paragraph>}
          {row.link ? (
            <Typography.Paragraph>
              点击打开外链：
              <Typography.Link href={row.link} target="_blank" rel="noreferrer">
                {row.link}
              </Typography.Link>
            </Typography.Paragraph>
          ) : (
            // the body went through the notices' allow-list on the server (modules/steward/noticeHtml.ts)
            <div className="notice-body" dangerouslySetInnerHTML={{ __html: row.body }} />
          )}
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            发布范围：{row.regions_text}
          </Typography.Paragraph>
        </div>
      )}
    </Drawer>
  );
}

/**
 * 图文管理 of the group (/mobile/graphiclist, with /mobile/graphicadd and /mobile/graphicedit?id=
 * opening its form; docs/product.md#group-articles): the head office's articles in its communities'
 * owner app, for all of them or chosen ones; 发布 puts one online (from its 定时发布 day), 下线 takes
 * it off; 复制 starts a new draft from one; 预览 shows it as the app does. A community's 首页预览
 * lists the group's articles for it beside its own, pinned ones first.
 */
export default function LeaderGraphicList() {
  const { pathname } = useLocation();
  const route = pathname.endsWith('/graphicadd') ? 'add' : pathname.endsWith('/graphicedit') ? 'edit' : null;
  const [params] = useSearchParams();
  const linkId = Number(params.get('id')) || 0;
  const { modal } = App.useApp();
  const canWrite = useCanWrite(leaderGraphic.def.roles.write);
  // a copy's values, read once by the add form it opens
  const copying = useRef<Partial<LeaderGraphicItem> | null>(null);
  const formOptions = useMemo(
    () => ({
      defaults: () => {
        const values = copying.current ?? {};
        copying.current = null;
        return values as Record<string, unknown>;
      },
    }),
    [],
  );
  const form = useResourceForm<LeaderGraphicItem>(leaderGraphic, formOptions);
  const [previewing, setPreviewing] = useState<LeaderGraphicItem | null>(null);
  // the edit address names a row that may be on any page: read it by itself
  const linked = useQuery({
    queryKey: ['leadergraphicinfo', linkId],
    queryFn: () => call('leadergraphicinfo', { id: linkId }, { silent: true }),
    enabled: route === 'edit' && linkId > 0,
    retry: false,
  });
  const linkedItems = useMemo(() => (linked.data ? [linked.data] : []), [linked.data]);
  useFormFromAddress({ route, linkId, items: linkedItems, ready: !linked.isFetching, form, listPath: LIST, missing: '文章不存在' });

  const copy = (row: LeaderGraphicItem) => {
    copying.current = {
      ...Object.fromEntries(COPIED.map((k) => [k, row[k]])),
      title: `${row.title}（副本）`.slice(0, 64),
    } as Partial<LeaderGraphicItem>;
    form.open();
  };

  const act = (action: 'publish' | 'withdraw', row: LeaderGraphicItem, list: ResourceList<LeaderGraphicItem>) =>
    modal.confirm({
      title: action === 'publish' ? '发布文章' : '下线文章',
      content:
        action === 'publish'
          ? `发布“${row.title}”？${row.online_date ? `${row.online_date} 起` : '发布后立即'}在${row.regions_text}的业主App展示。`
          : `下线“${row.title}”？业主App将不再展示，可修改后再发布。`,
      okText: action === 'publish' ? '发布' : '下线',
      cancelText: '取消',
      okButtonProps: { danger: action === 'withdraw', 'data-testid': 'leadergraphic-act-ok' } as ButtonProps,
      onOk: async () => {
        try {
          const answer = await request('leadergraphicpublish', { id: row.id, action });
          noticeSuccess(answer.return_msg);
          list.reload();
        } catch {
          /* the client showed why */
        }
      },
    });

  return (
    <>
      <ResourcePage<LeaderGraphicItem>
        resource={leaderGraphic}
        listOptions={LIST_OPTIONS}
        title="图文管理"
        form={form}
        widgets={widgets}
        // a published article is taken off before it is deleted (the server says so too)
        rowDeletable={(row) => row.status !== 'P' && row.status !== 'S'}
        columns={{
          cover: {
            render: (url: string) => (url ? <Image src={url} width={64} height={36} style={{ objectFit: 'cover' }} /> : '-'),
          },
        }}
        rowActions={(row, list) => (
          <Space size={0}>
            <Button size="small" type="link" onClick={() => setPreviewing(row)} data-testid={`leadergraphic-preview-${row.id}`}>
              预览
            </Button>
            {canWrite && (row.status === 'D' || row.status === 'X') && (
              <Button size="small" type="link" onClick={() => act('publish', row, list)} data-testid={`leadergraphic-publish-${row.id}`}>
                发布
              </Button>
            )}
            {canWrite && (row.status === 'P' || row.status === 'S') && (
              <Button
                size="small"
                type="link"
                danger
                onClick={() => act('withdraw', row, list)}
                data-testid={`leadergraphic-withdraw-${row.id}`}
              >
                下线
              </Button>
            )}
            {canWrite && (
              <Button size="small" type="link" onClick={() => copy(row)} data-testid={`leadergraphic-copy-${row.id}`}>
                复制
              </Button>
            )}
          </Space>
        )}
      />
      <ArticlePreview row={previewing} onClose={() => setPreviewing(null)} />
    </>
  );
}
