// npm start: builds the console when it is not built yet or its sources changed since, builds the server (a fraction of a
// second, so it always matches the source) and runs it in this process.
// npm run dev: the server from source through tsx, beside Vite's dev server.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer } from './build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dev = process.argv.includes('--dev');
const dist = path.join(root, 'web/dist/index.html');

/** The latest change time of a file under these paths (a walk of a few thousand files: milliseconds). */
function newestChange(paths) {
  let newest = 0;
  for (const p of paths) {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (!stat) continue;
    if (!stat.isDirectory()) newest = Math.max(newest, stat.mtimeMs);
    else for (const e of fs.readdirSync(p)) newest = Math.max(newest, newestChange([path.join(p, e)]));
  }
  return newest;
}
// the console's sources (its own and the contract it shares with the server) and its build settings
const webSources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/public', 'contract/src'].map((p) => path.join(root, p));
const lastBuild = fs.statSync(dist, { throwIfNoEntry: false });
if (!dev && (!lastBuild || newestChange(webSources) > lastBuild.mtimeMs)) {
  console.log(lastBuild ? '控制台界面的源码已更新：正在重新构建…' : '首次启动：正在构建控制台界面…');
  const built = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
if (dev) {
  const tsx = path.join(root, 'node_modules/.bin/tsx');
  const server = spawn(tsx, [path.join(root, 'server/src/main.ts')], { cwd: root, stdio: 'inherit' });
  spawn('npm', ['run', 'dev', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
  server.on('exit', (code) => process.exit(code ?? 0));
} else {
  const entry = await buildServer();
  // stack traces name the TypeScript source's lines (main.mjs.map)
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(entry).href);
}
