import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { createElement, type ReactElement } from 'react';

const backend = process.env.WUYE_API ?? 'http://localhost:8080';
const proxied = ['/webapi', '/webapi_leader', '/get_system_extendinfo', '/sandbox-pay', '/api-docs', '/healthz'];

/**
 * Vendor groups, and one chunk for everything the entry itself needs (antd's core, the stores,
 * the client: tens of small shared chunks otherwise, each a request before the first paint);
 * everything else is split automatically by the lazy page imports.
 */
const vendorGroups: Rolldown.CodeSplittingGroup[] = [
  { name: 'react-vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 30 },
  { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/]/, priority: 20 },
  { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/, priority: 20 },
  { name: 'initial', tags: ['$initial'], priority: 10 },
];

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * Writes `<file>.br` and `<file>.gz` beside each script and style sheet of the build; the server
 * (@fastify/static preCompressed) sends them to browsers that accept them, at no cost per request.
 */
function precompress(): Plugin {
  return {
    name: 'wuye-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? path.resolve(import.meta.dirname, 'dist');
      const files = Object.keys(bundle).filter((f) => /\.(js|mjs|css|svg|json)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const file = path.join(dir, f);
          const data = await fs.readFile(file);
          if (data.length < 1024) return;
          const [gz, br] = await Promise.all([
            gzip(data, { level: 9 }),
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
          ]);
          if (gz.length < data.length * 0.9) await fs.writeFile(`${file}.gz`, gz);
          if (br.length < data.length * 0.9) await fs.writeFile(`${file}.br`, br);
        }),
      );
    },
  };
}

/**
 * Puts the entry's style sheet (global.css, a few hundred bytes) into index.html itself: a linked
 * sheet blocks the first paint until it arrives, behind the scripts on the same connections.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'wuye-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        return html.replace(/<link rel="stylesheet"[^>]*?href="\/(assets\/[^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = ctx.bundle?.[file];
          if (asset?.type !== 'asset' || asset.source.length > 4096) return tag;
          return `<style>${String(asset.source)}</style>`;
        });
      },
    },
  };
}

/** antd's cache-path rule at the end of an extracted sheet: which style paths the sheet holds */
const CACHE_PATH_RULE = /\.data-ant-cssinjs-cache-path\{content:"([^"]*)";\}\s*$/;

/**
 * Writes the styles of the first screens' antd components (src/styles/firstScreenStyles.ts) into
 * two style sheets with antd's cache-path rule: the browser then skips generating and inserting
 * those styles (a fifth to a third of the first render's main-thread work on a phone).
 * `antd-sign-in.css` holds the sign-in page's, `antd-console.css` the shell's and home page's that
 * the first does not hold; its rule lists the paths of both and wins by a more specific selector.
 * index.html preloads the first (not render-blocking: the spinner paints at once) and names both
 * in a <meta>; main.tsx puts them at the start of <head>, where antd puts the styles it generates
 * (so the console's own rules keep winning ties), the second only with a session, and renders once
 * they have loaded: antd reads which styles are prebuilt once, at its first render.
 */
function antdFirstScreenCss(): Plugin {
  return {
    name: 'wuye-antd-first-screen-css',
    apply: 'build',
    async buildStart() {
      // imported here, once the build has set NODE_ENV (antd names its hash class after it)
      const [{ renderToString }, cssinjs, samples] = await Promise.all([
        import('react-dom/server'),
        import('@ant-design/cssinjs'),
        import('./src/styles/firstScreenStyles.ts'),
      ]);
      const cache = cssinjs.createCache();
      const extract = (sample: ReactElement) => {
        renderToString(createElement(cssinjs.StyleProvider, { cache }, sample));
        const css = cssinjs.extractStyle(cache, { plain: true, types: ['style'], once: true });
        const paths = CACHE_PATH_RULE.exec(css)?.[1];
        if (!paths || css.includes('dev-only')) {
          this.error(
            `antd first-screen styles: expected antd's production styles and their cache paths (NODE_ENV=${process.env.NODE_ENV})`,
          );
        }
        return { body: css.replace(CACHE_PATH_RULE, ''), paths };
      };
      const signIn = extract(samples.signInSample());
      const console = extract(samples.consoleSample());
      this.emitFile({
        type: 'asset',
        name: 'antd-sign-in.css',
        source: `${signIn.body}.data-ant-cssinjs-cache-path{content:"${signIn.paths}";}`,
      });
      this.emitFile({
        type: 'asset',
        name: 'antd-console.css',
        source: `${console.body}div.data-ant-cssinjs-cache-path{content:"${signIn.paths};${console.paths}";}`,
      });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const asset = (name: string) => Object.keys(ctx.bundle ?? {}).find((f) => f.startsWith(`assets/${name}-`) && f.endsWith('.css'));
        const signIn = asset('antd-sign-in');
        const console = asset('antd-console');
        if (!signIn || !console) return html;
        return [
          { tag: 'link', attrs: { rel: 'preload', as: 'style', href: `/${signIn}` }, injectTo: 'head' },
          { tag: 'meta', attrs: { name: 'antd-styles', 'data-sign-in': `/${signIn}`, 'data-console': `/${console}` }, injectTo: 'head' },
        ];
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), inlineEntryCss(), antdFirstScreenCss()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: backend, changeOrigin: true }])),
  },
  preview: {
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: backend, changeOrigin: true }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: vendorGroups },
      },
    },
  },
});
