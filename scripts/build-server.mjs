// Builds the server into one ES module, server/dist/main.mjs, which `npm start` runs.
// Run from source through tsx, the server also held tsx's module hooks, which on Node 20 run in a
// second V8 isolate: 208 MB resident when idle against 122 MB built
// (docs/adr/0009-esbuild-server-build.md). Packages stay in node_modules; the workspace's own
// (@wuye/contract, TypeScript source) are bundled in.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
export const serverEntry = path.join(root, 'server/dist/main.mjs');

const dependenciesOf = (pkg) => Object.keys(JSON.parse(fs.readFileSync(path.join(root, pkg, 'package.json'), 'utf8')).dependencies ?? {});

/** Builds server/dist/main.mjs; a run that meets another's half-written file never starts it. */
export async function buildServer() {
  const external = [...new Set([...dependenciesOf('server'), ...dependenciesOf('contract')])].filter((d) => !d.startsWith('@wuye/'));
  const result = await esbuild.build({
    // the upload reader's worker thread is a bundle of its own beside main.mjs (server/src/lib/uploads.ts)
    entryPoints: { main: path.join(root, 'server/src/main.ts'), 'xlsx-read-worker': path.join(root, 'server/src/lib/xlsx-read-worker.ts') },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    sourcemap: 'linked',
    write: false,
    outdir: path.dirname(serverEntry),
    outExtension: { '.js': '.mjs' },
    // packages written as CommonJS that the bundle pulls in call require()
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  await esbuild.stop();
  fs.mkdirSync(path.dirname(serverEntry), { recursive: true });
  for (const file of result.outputFiles) {
    const partial = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(partial, file.contents);
    fs.renameSync(partial, file.path);
  }
  return serverEntry;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
