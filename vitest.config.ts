import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { journeyWorkers } from './e2e/workers';

/**
 * The longest server test files first, so the two workers end together: on a fresh clone (CI) there
 * are no recorded durations, and the default order (by file size) left a long safety file running
 * alone at the end. With recorded durations the default order already does this.
 */
const LONGEST_FIRST = ['server/src/safety/communities.test.ts', 'server/src/safety/fuzz.test.ts', 'server/src/safety/'];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((p) => f.moduleId.includes(`/${p}`));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    // each server test file gets its own database; two workers suit a 2-core machine
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      { test: { name: 'contract', include: ['contract/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          globalSetup: ['server/src/test/demo-template.ts'],
          // the files share their worker's modules instead of importing the server anew each (7 s a
          // file on a loaded machine): every file starts a server and a database of its own
          // (test/harness.ts) and keeps no state in modules. PGlite: 605 s to 345 s for 107 files.
          isolate: false,
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
          // two journey files at once, each worker on a server of its own (e2e/global-setup.ts)
          maxWorkers: journeyWorkers(),
          globalSetup: ['e2e/global-setup.ts'],
        },
      },
    ],
  },
});
