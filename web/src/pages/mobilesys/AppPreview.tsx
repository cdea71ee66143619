import { useState } from 'react';
import { Alert, Card, Carousel, DatePicker, Empty, Image, Select, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { MENU_AUDIENCE } from '@wuye/contract/mobilesys/content';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call } from '../../api/client';
import { MenuIcon } from './widgets';
import './mobilesys.css';

/**
 * 首页预览 (/mobilesys/apppreview; docs/product.md#owner-app): the owner app's home on a day, at a
 * phone's width, as an audience sees it: the banners online at the top, the grid of entries whose
 * functions the community offers, the latest articles and posts, the bottom bar; with warnings.
 */
export default function AppPreview() {
  const [day, setDay] = useState<Dayjs>(() => dayjs());
  const [audience, setAudience] = useState<'all' | 'owner' | 'tenant'>('owner');
  const payload = { date: day.format('YYYY-MM-DD'), audience };
  const home = useQuery({ queryKey: ['apphome', payload], queryFn: () => call('apphome', payload) });
  const h = home.data;
  return (
    <Card title="业主App首页预览" data-testid="apppreview-page">
      <Space wrap style={{ marginBottom: 16 }}>
        <DatePicker value={day} allowClear={false} onChange={(d) => d && setDay(d)} data-testid="apppreview-date" />
        <Select
          value={audience}
          onChange={setAudience}
          options={enumOptions(MENU_AUDIENCE)}
          style={{ width: 140 }}
          data-testid="apppreview-audience"
        />
      </Space>
      {h?.warnings.map((w) => (
        <Alert key={w} type="warning" showIcon message={w} style={{ marginBottom: 8 }} />
      ))}
      <div className="app-phone" data-testid="apppreview-phone">
        <div className="app-phone-screen">
          {h && h.banners.length > 0 ? (
            <Carousel autoplay className="app-banners">
              {h.banners.slice(0, 5).map((b) => (
                <div
                  key={`${b.source}-${b.id}`}
                  data-testid={b.source === 'group' ? `apppreview-groupbanner-${b.id}` : `apppreview-banner-${b.id}`}
                >
                  <Image src={b.cover} alt={b.title} preview={false} width="100%" height={140} style={{ objectFit: 'cover' }} />
                </div>
              ))}
            </Carousel>
          ) : (
            <div className="app-banner-empty">暂无上线的轮播图</div>
          )}
          <div className="app-grid" data-testid="apppreview-grid">
            {h?.grid.map((m) => (
              <div key={m.id} className="app-grid-item" data-testid={`apppreview-menu-${m.id}`}>
                <span className="app-grid-icon">
                  <MenuIcon name={m.icon} size={22} />
                  {m.badge && <span className={`app-badge app-badge-${m.badge}`}>{m.badge === 'new' ? '新' : '热'}</span>}
                </span>
                <span className="app-grid-title">{m.title}</span>
              </div>
            ))}
          </div>
          <div className="app-news">
            <Typography.Text strong>社区资讯</Typography.Text>
            {h && h.news.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无资讯" />}
            {h?.news.map((n) => (
              <div
                key={`${n.source}-${n.id}`}
                className="app-news-item"
                data-testid={n.source === 'group' ? `apppreview-groupnews-${n.id}` : `apppreview-news-${n.id}`}
              >
                <div className="app-news-text">
                  <div className="app-news-title">
                    {/* the head office's article for this community (/mobile/graphiclist on the group side) */}
                    {n.source === 'group' && (
                      <Tag color="blue" bordered={false} style={{ marginInlineEnd: 4 }}>
                        集团
                      </Tag>
                    )}
                    {n.title}
                  </div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {n.kind_ch} · {n.online_date} · 阅读 {n.views}
                  </Typography.Text>
                </div>
                {n.cover && <img src={n.cover} alt="" className="app-news-cover" />}
              </div>
            ))}
          </div>
          {h && h.tabbar.length > 0 && (
            <div className="app-tabbar">
              {h.tabbar.map((m) => (
                <div key={m.id} className="app-tab">
                  <MenuIcon name={m.icon} size={18} />
                  <span>{m.title}</span>
                </div>
              ))}
            </div>
          )}
        </div>
      </div>
    </Card>
  );
}
