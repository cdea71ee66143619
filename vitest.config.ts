import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // each server test file gets its own database; two workers suit a 2-core machine
    maxWorkers: 2,
    projects: [
      { test: { name: 'contract', include: ['contract/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          globalSetup: ['server/src/test/pglite-template.ts'],
          testTimeout: 60000,
          hookTimeout: 120000,
        },
      },
      { test: { name: 'web', include: ['web/src/**/*.test.ts'], environment: 'node' } },
      // component tests (ResourcePage, WorkflowActions): React in jsdom with Testing Library
      {
        test: {
          name: 'web-dom',
          include: ['web/src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['web/src/test/setup-dom.ts'],
          testTimeout: 30000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          testTimeout: 120000,
          hookTimeout: 180000,
          fileParallelism: false,
          globalSetup: ['e2e/global-setup.ts'],
        },
      },
    ],
  },
});
