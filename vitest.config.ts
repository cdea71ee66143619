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
          // generous waits: a journey waits on what the user sees, which a loaded machine draws late
          // (expect.poll waits 1 s by default: 2 of 37 journeys failed on it at a load of 13 on 2 cores)
          expect: { poll: { timeout: 30_000, interval: 100 } },
          testTimeout: 300000,
          hookTimeout: 180000,
          fileParallelism: false,
          globalSetup: ['e2e/global-setup.ts'],
        },
      },
    ],
  },
});
