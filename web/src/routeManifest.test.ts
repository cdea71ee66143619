import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { communityRoutes, leaderRoutes } from './routes';
import { flattenRoutes } from './router/helpers';
import type { AppRoute } from './router/types';
import { initI18n } from './i18n';
import { routeManifest, type ManifestPage, type ManifestSide } from './routeManifest';

const i18n = initI18n('zh-CN');

/** What the manifest must say of a side: every page of its tree, in the tree's order. */
function pagesOf(routes: readonly AppRoute[]): ManifestPage[] {
  return flattenRoutes(routes).map(({ fullPath, route, parents }) => {
    const page: ManifestPage = { path: fullPath, title: i18n.t(route.meta?.title ?? fullPath) };
    if (route.meta?.roles?.length) page.roles = [...route.meta.roles];
    if (route.hidden || parents.some((p) => p.route.hidden)) page.hidden = true;
    if (route.meta?.notForSysTypes?.length) page.notForSysTypes = [...route.meta.notForSysTypes];
    return page;
  });
}

const sides: Record<ManifestSide, AppRoute[]> = { community: communityRoutes, group: leaderRoutes };

describe('route manifest', () => {
  it('lists every page of the route tree, so the smoke journey opens pages added later', async () => {
    const expected = { community: pagesOf(sides.community), group: pagesOf(sides.group) };
    if (process.env.UPDATE_ROUTE_MANIFEST) await writeManifest(expected);
    else
      expect(
        routeManifest,
        'the route tree changed: run UPDATE_ROUTE_MANIFEST=1 npx vitest run --project web web/src/routeManifest.test.ts',
      ).toEqual(expected);
  });
});

async function writeManifest(manifest: Record<ManifestSide, ManifestPage[]>) {
  const file = new URL('./routeManifest.ts', import.meta.url);
  const source = fs.readFileSync(file, 'utf8');
  const marker = 'export const routeManifest: Record<ManifestSide, readonly ManifestPage[]> = ';
  const at = source.indexOf(marker);
  if (at < 0) throw new Error('routeManifest.ts lost its marker line');
  const prettier = await import('prettier');
  const next = `${source.slice(0, at)}${marker}${JSON.stringify(manifest)};\n`;
  const options = (await prettier.resolveConfig(file)) ?? {};
  fs.writeFileSync(file, await prettier.format(next, { ...options, filepath: file.pathname }));
}
