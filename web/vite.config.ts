import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const backend = process.env.WUYE_API ?? 'http://localhost:8080';
const proxied = ['/webapi', '/webapi_leader', '/get_system_extendinfo', '/sandbox-pay', '/api-docs', '/healthz'];

/** Vendor groups; everything else is split automatically by the lazy page imports. */
const vendorGroups: { name: string; test: RegExp; priority: number }[] = [
  { name: 'react-vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 30 },
  { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/]/, priority: 20 },
  { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/, priority: 20 },
];

export default defineConfig({
  plugins: [react()],
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
