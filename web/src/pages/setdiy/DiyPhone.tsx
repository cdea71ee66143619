import type { ReactNode } from 'react';
import { APP_SERVICE_ICON, APP_SERVICES, type AppServiceCode } from '@wuye/contract/mobilesys/apply';
import { DIY_BLOCK_TYPE, type DiyBlockType, type DiyPreviewItem } from '@wuye/contract/setdiy/pages';
import { MenuIcon } from '../mobilesys/widgets';
import './setdiy.css';

/** A block as the editor keeps it (a form's values: fields may still be missing or wrong). */
export interface EditBlock {
  type: DiyBlockType;
  [field: string]: unknown;
}

interface Slide {
  image?: string;
}
interface GridItem {
  service: AppServiceCode;
  title?: string;
  icon?: string;
}
interface Tab {
  title?: string;
  icon?: string;
}

const LIST_WORDS = { notices: '条公告', articles: '篇资讯', activities: '个活动' } as const;

/** One block drawn at the app's width; `list` holds a community's items in the preview, undefined in the editor. */
export function BlockView({ block }: { block: EditBlock }): ReactNode {
  switch (block.type) {
    case 'banner': {
      const slides = (block.slides as Slide[] | undefined) ?? [];
      const first = slides.find((s) => s?.image);
      return (
        <div className="diy-banner">
          {first ? <img src={first.image} alt="轮播图" /> : '轮播图：请上传图片'}
          {slides.length > 0 && <span className="diy-banner-count">{slides.length} 张</span>}
        </div>
      );
    }
    case 'grid': {
      const items = ((block.items as GridItem[] | undefined) ?? []).filter((i) => i?.service);
      return (
        <div className="diy-grid" style={{ gridTemplateColumns: `repeat(${Number(block.columns) || 4}, 1fr)` }}>
          {items.length === 0 && <span style={{ color: '#999' }}>图标导航：请选择应用</span>}
          {items.map((i, n) => (
            <div key={`${i.service}-${n}`} className="diy-grid-item">
              <span className="diy-grid-icon">
                <MenuIcon name={i.icon || APP_SERVICE_ICON[i.service] || 'AppstoreOutlined'} size={20} />
              </span>
              <span>{i.title || APP_SERVICES[i.service]?.title || i.service}</span>
            </div>
          ))}
        </div>
      );
    }
    case 'notices':
    case 'articles':
    case 'activities': {
      const list = block.list as DiyPreviewItem[] | undefined;
      const title = (block.title as string) || DIY_BLOCK_TYPE[block.type].text;
      return (
        <div className="diy-list">
          <strong>{title}</strong>
          {list === undefined ? (
            <div className="diy-list-item">
              <span>
                显示本小区最新 {Number(block.count) || 0} {LIST_WORDS[block.type]}
              </span>
            </div>
          ) : list.length === 0 ? (
            <div className="diy-list-item">
              <span style={{ color: '#999' }}>暂无内容</span>
            </div>
          ) : (
            list.map((i) => (
              <div key={`${i.source ?? 'own'}-${i.id}`} className="diy-list-item">
                <span>{i.source === 'group' ? `【集团】${i.title}` : i.title}</span>
                <span style={{ color: '#999' }}>{i.date}</span>
              </div>
            ))
          )}
        </div>
      );
    }
    case 'shortcut':
      return (
        <div className="diy-shortcut">
          {block.image ? <img src={block.image as string} alt="" /> : <span className="diy-shortcut-img" />}
          <span>{(block.title as string) || '快捷入口'}</span>
        </div>
      );
    case 'spacer':
      return <div style={{ height: Number(block.height) || 0 }} />;
    case 'tabbar':
      return (
        <div className="diy-tabbar">
          {((block.tabs as Tab[] | undefined) ?? []).map((t, n) => (
            <div key={n} className="diy-tab">
              <MenuIcon name={t?.icon || 'AppstoreOutlined'} size={18} />
              <span>{t?.title || '菜单'}</span>
            </div>
          ))}
        </div>
      );
    default:
      return null;
  }
}

/** A page at a phone's width, read-only (the preview). */
export function DiyPhone({ blocks, testId }: { blocks: EditBlock[]; testId: string }) {
  return (
    <div className="diy-phone" data-testid={testId}>
      <div className="diy-phone-screen">
        {blocks.length === 0 && <div className="diy-empty">页面没有内容</div>}
        {blocks.map((b, i) => (
          <div
            key={i}
            data-testid={`${testId}-block-${i}`}
            data-type={b.type}
            style={b.type === 'tabbar' ? { marginTop: 'auto' } : undefined}
          >
            <BlockView block={b} />
          </div>
        ))}
      </div>
    </div>
  );
}
