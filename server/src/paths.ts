import path from 'node:path';

/**
 * Where the server's files are. This module sits one folder below `server/`, as the built server
 * (`server/dist/main.mjs`, scripts/build-server.mjs) does, so the same expression holds whether
 * it runs from source (tests, `npm run dev`) or bundled (`npm start`): in the bundle
 * `import.meta.dirname` is the bundle's folder, not the source file's.
 */
export const serverRoot = path.resolve(import.meta.dirname, '..');
export const repoRoot = path.resolve(serverRoot, '..');
