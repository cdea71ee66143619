import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyPage, preloadComponent } from './lazyPage';

const draw = (Page: React.ComponentType) =>
  renderToString(
    <Suspense fallback={<i>loading</i>}>
      <Page />
    </Suspense>,
  );

describe('lazyPage', () => {
  it('loads its module once, on first use or when preloaded, and then draws the page at once', async () => {
    let loads = 0;
    const Page = lazyPage(async () => {
      loads++;
      return { default: () => <b>page</b> };
    });
    expect(loads).toBe(0);
    expect(draw(Page)).toContain('loading');
    preloadComponent(Page);
    await Page.preload();
    expect(loads).toBe(1);
    // drawn complete in the first pass: no fallback in the boundary
    expect(draw(Page)).toBe('<!--$--><b>page</b><!--/$-->');
  });

  it('tries a failed load again on the next use', async () => {
    let fail = true;
    const Page = lazyPage(async () => {
      if (fail) throw new Error('chunk gone');
      return { default: () => <b>again</b> };
    });
    await expect(Page.preload()).rejects.toThrow('chunk gone');
    fail = false;
    await Page.preload();
    expect(draw(Page)).toBe('<!--$--><b>again</b><!--/$-->');
  });

  it('leaves components that are not lazy pages alone', () => {
    expect(() => preloadComponent(() => null)).not.toThrow();
    expect(() => preloadComponent(undefined)).not.toThrow();
  });
});
