import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';

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
      await Promise.all(files.map(async (f) => {
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
      }));
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

export default defineConfig({
  plugins: [react(), precompress(), inlineEntryCss()],
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
