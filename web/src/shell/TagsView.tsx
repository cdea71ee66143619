import { useEffect, useRef, useState } from 'react';
import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LIMITS } from '@wuye/contract/codes';
import { delAllVisited, delVisited, nextAfterClose, useTags, type TagView } from '../stores/tags';

interface MenuState {
  x: number;
  y: number;
  view: TagView;
}

/** The strip's scroll position that shows `tab` whole, with a little of its neighbours, moving as little as it can. */
export function scrollToShow(strip: { scrollLeft: number; clientWidth: number }, tab: { offsetLeft: number; offsetWidth: number }): number {
  const margin = 40;
  const left = tab.offsetLeft - margin;
  const right = tab.offsetLeft + tab.offsetWidth + margin;
  if (left < strip.scrollLeft) return Math.max(0, left);
  if (right > strip.scrollLeft + strip.clientWidth) return right - strip.clientWidth;
  return strip.scrollLeft;
}

/** Tab strip of visited pages with its right-click menu (docs/product.md#shell-tabs, #visited-tabs). */
export default function TagsView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const views = useTags((s) => s.visitedViews);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    document.addEventListener('click', close);
    document.addEventListener('scroll', close, true);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('scroll', close, true);
    };
  }, [menu]);

  // the active tab is brought into view once it is there (the layout adds a page's tab after this
  // strip has drawn the new address), by scrolling the strip alone, never the page
  const activeIndex = views.findIndex((v) => v.path === location.pathname);
  useEffect(() => {
    const strip = wrapper.current;
    const el = strip?.querySelector<HTMLElement>('.tags-view-item.active');
    if (strip && el) strip.scrollLeft = scrollToShow(strip, el);
  }, [activeIndex, views.length]);

  // the mouse wheel scrolls the strip sideways (a passive React listener could not keep the page still)
  useEffect(() => {
    const strip = wrapper.current;
    if (!strip) return;
    const onWheel = (e: WheelEvent) => {
      if (strip.scrollWidth <= strip.clientWidth) return;
      const delta = Math.abs(e.deltaY) > Math.abs(e.deltaX) ? e.deltaY : e.deltaX;
      if (delta === 0) return;
      e.preventDefault();
      strip.scrollLeft += delta;
    };
    strip.addEventListener('wheel', onWheel, { passive: false });
    return () => strip.removeEventListener('wheel', onWheel);
  }, []);

  const isActive = (v: TagView) => v.path === location.pathname;

  const refresh = (v: TagView) => {
    useTags.getState().evict(v.path);
    void navigate(`/redirect${v.fullPath}`, { replace: true });
  };
  const close = (v: TagView) => {
    if (v.affix) return;
    const remaining = delVisited(views, v.path);
    useTags.getState().delView(v.path);
    if (isActive(v)) void navigate(nextAfterClose(remaining));
  };
  const closeOthers = (v: TagView) => {
    useTags.getState().delOthersViews(v.path);
    if (!isActive(v)) void navigate(v.fullPath);
  };
  const closeAll = (v: TagView) => {
    const remaining = delAllVisited(views);
    useTags.getState().delAllViews();
    if (remaining.some((r) => r.path === location.pathname)) return;
    void navigate(remaining.length ? remaining[remaining.length - 1]!.fullPath : v.affix ? v.fullPath : '/');
  };

  const menuLeft = menu ? Math.min(menu.x, window.innerWidth - LIMITS.tagsMenuWidthPx - 8) : 0;

  return (
    <div className="tags-view-container" data-testid="tags-view">
      <div className="tags-view-wrapper" ref={wrapper}>
        {views.map((v) => (
          <span
            key={v.path}
            className={`tags-view-item${isActive(v) ? ' active' : ''}`}
            data-testid="tag"
            data-path={v.path}
            data-affix={v.affix ? '1' : undefined}
            onClick={() => void navigate(v.fullPath)}
            onMouseUp={(e) => {
              if (e.button === 1) close(v);
            }}
            onContextMenu={(e) => {
              e.preventDefault();
              setMenu({ x: e.clientX, y: e.clientY, view: v });
            }}
          >
            {t(v.title)}
            {!v.affix && (
              <CloseOutlined
                className="tag-close"
                data-testid="tag-close"
                onClick={(e) => {
                  e.stopPropagation();
                  close(v);
                }}
              />
            )}
          </span>
        ))}
      </div>
      {menu && (
        <ul className="contextmenu" style={{ left: menuLeft, top: menu.y, width: LIMITS.tagsMenuWidthPx }} data-testid="tag-menu">
          <li data-testid="tag-menu-refresh" onClick={() => refresh(menu.view)}>
            {t('tags.refresh')}
          </li>
          {!menu.view.affix && (
            <li data-testid="tag-menu-close" onClick={() => close(menu.view)}>
              {t('tags.close')}
            </li>
          )}
          <li data-testid="tag-menu-close-others" onClick={() => closeOthers(menu.view)}>
            {t('tags.closeOthers')}
          </li>
          <li data-testid="tag-menu-close-all" onClick={() => closeAll(menu.view)}>
            {t('tags.closeAll')}
          </li>
        </ul>
      )}
    </div>
  );
}
