import { useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Button, Dropdown, Menu } from 'antd';
import type { MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRoutesInfo } from '../router/context';
import { firstPagePath, topMenuRoutes } from '../router/helpers';
import { usePreloadPath } from '../router/lazyPage';
import { useCurrentRoute } from './useCurrentRoute';

/** The widths of the texts in the font of the element, by a canvas (no layout), in px. */
let canvas: HTMLCanvasElement | undefined;
function textWidths(el: HTMLElement, texts: string[]): number[] {
  canvas ??= document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) return texts.map(() => 0);
  ctx.font = getComputedStyle(el.querySelector('.ant-menu') ?? el).font;
  return texts.map((x) => ctx.measureText(x).width);
}

/**
 * Whether the areas' full words fit the menu's width (each with the padding its entries have,
 * `--top-menu-pad`), followed as the window or the sidebar changes the width.
 */
function useFullWordsFit(ref: RefObject<HTMLDivElement | null>, words: string[], active: boolean): boolean {
  const [fits, setFits] = useState(true);
  const key = words.join('\u0000');
  useLayoutEffect(() => {
    const el = ref.current;
    if (!active || !el) return;
    const measure = () => {
      const pad = parseFloat(getComputedStyle(el).getPropertyValue('--top-menu-pad')) || 0;
      const needed = textWidths(el, words).reduce((n, w) => n + Math.ceil(w) + 2 * pad, 0);
      setFits(needed <= el.clientWidth);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
    // the words by their joined key: a new array of the same words measures nothing anew
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref, key, active]);
  return fits;
}

/**
 * Top horizontal menu of the permitted top routes; a dropdown on mobile (docs/product.md#shell-menus).
 * An area shows its words; where they do not all fit in one row (an office's 1280–1440 px screen
 * with every area), each shows its short words instead (`route.<name>_short`, its full words as
 * the tooltip), so every area stays one click away. The desktop menu has no icons: the sidebar has.
 */
export default function TopMenu({ mobile }: { mobile: boolean }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { permitted } = useRoutesInfo();
  const current = useCurrentRoute();
  const tops = useMemo(() => topMenuRoutes(permitted), [permitted]);
  const preload = usePreloadPath();
  const labels = tops.map((r) => {
    const title = r.meta?.title;
    const full = title ? t(title) : r.path;
    return { full, short: title && i18n.exists(`${title}_short`) ? t(`${title}_short`) : full };
  });
  const fitRef = useRef<HTMLDivElement>(null);
  const fullFits = useFullWordsFit(
    fitRef,
    labels.map((l) => l.full),
    !mobile,
  );
  const items: MenuProps['items'] = tops.map((r, i) => {
    const Icon = r.meta?.icon;
    const { full, short } = labels[i]!;
    const words = mobile || fullFits ? full : short;
    return {
      key: r.path,
      onMouseEnter: () => preload(firstPagePath(r)),
      icon: Icon && mobile ? <Icon /> : undefined,
      label: (
        <span data-testid={`top-menu-item-${r.path.replace(/^\//, '').replace(/\//g, '-')}`} title={words === full ? undefined : full}>
          {words}
        </span>
      ),
    };
  });
  const onClick: MenuProps['onClick'] = ({ key }) => {
    const route = tops.find((r) => r.path === key);
    const target = route && firstPagePath(route);
    if (target) void navigate(target);
  };
  const selected = current.top ? [current.top.path] : [];
  if (mobile) {
    const title = current.top?.meta?.title ? t(current.top.meta.title) : t('navbar.menu');
    return (
      <Dropdown menu={{ items, onClick, selectable: true, selectedKeys: selected }} trigger={['click']}>
        <Button type="text" className="top-menu-dropdown" data-testid="top-menu">
          {title} <DownOutlined />
        </Button>
      </Dropdown>
    );
  }
  return (
    <div ref={fitRef} className="top-menu-fit">
      <Menu
        className="top-menu"
        data-testid="top-menu"
        data-short={fullFits ? undefined : '1'}
        mode="horizontal"
        theme="dark"
        items={items}
        selectedKeys={selected}
        onClick={onClick}
      />
    </div>
  );
}
