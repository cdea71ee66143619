import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { adminQuery } from '../server/src/db/adminQuery.js';
import { CHROMIUM_PATH } from './browser.js';
import { journeyWorkers } from './workers.js';

/** One server of the journeys, with the demo it seeded. */
export interface JourneyServer {
  baseUrl: string;
  /** the demo's activation codes, random on every new database: read from the start-up banner */
  demoActivationCodes: string[];
  /** the file the server's output (warnings and errors) goes to, for the failure log */
  serverLog: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    browserAvailable: boolean;
    /** one server a worker: the journey files of a worker run one after another on its server */
    servers: JourneyServer[];
  }
}

const root = path.resolve(import.meta.dirname, '..');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

/**
 * Starts the real server as `npm start` does (built console and server, fresh demo database), one
 * for each worker (`E2E_WORKERS`, 2 by default): PGlite in a temporary folder, or a fresh schema
 * when DATABASE_URL is set. A worker runs its journey files one after another on its own server, so
 * that journeys never see each other's changes, while two run side by side
 * (docs/architecture.md#journeys).
 */
export default async function setup(project: TestProject) {
  const browserAvailable = fs.existsSync(CHROMIUM_PATH);
  if (!browserAvailable && process.env.CI) throw new Error(`CI needs Chromium at ${CHROMIUM_PATH} for the browser tests`);
  project.provide('browserAvailable', browserAvailable);
  if (!fs.existsSync(path.join(root, 'web/dist/index.html'))) throw new Error('web/dist is missing: run npm run build first');

  const started = Date.now();
  const servers = await Promise.all(Array.from({ length: journeyWorkers() }, () => startServer()));
  console.log(
    `e2e servers (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${servers.length}) up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  project.provide(
    'servers',
    servers.map((s) => s.server),
  );
  return async () => {
    for (const s of servers) await s.stop();
  };
}

async function startServer(): Promise<{ server: JourneyServer; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuye-e2e-'));
  const schema = process.env.DATABASE_URL ? `e2e_${crypto.randomBytes(4).toString('hex')}` : '';
  if (schema) await adminQuery(process.env.DATABASE_URL!, `CREATE SCHEMA ${schema}`);
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    // the demo as `npm start` serves it: the sandbox on (with DATABASE_URL it is off unless asked for)
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DB_SCHEMA: schema, LOG_LEVEL: 'warn', SANDBOX: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const serverLog = path.join(dataDir, 'server.log');
  fs.writeFileSync(serverLog, '');
  const keep = (d: Buffer) => {
    output += d.toString();
    fs.appendFileSync(serverLog, d);
  };
  server.stdout?.on('data', keep);
  server.stderr?.on('data', keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, server, () => output);
  // the banner comes a moment after the server starts answering
  for (let i = 0; i < 100 && !/续费激活码/.test(output); i++) await new Promise((r) => setTimeout(r, 100));
  const codes = /续费激活码（演示[^）]*）: ([^\n]+)/.exec(output)?.[1] ?? '';
  const demoActivationCodes = codes
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  // a server that dies mid-run fails every later journey with a refused connection: say why once
  let stopping = false;
  server.once('exit', (code, signal) => {
    if (!stopping)
      console.error(`e2e server exited during the run (code ${code}, signal ${signal}); its last output:\n${output.slice(-6000)}`);
  });
  return {
    server: { baseUrl, demoActivationCodes, serverLog },
    stop: async () => {
      stopping = true;
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (schema) await adminQuery(process.env.DATABASE_URL!, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

async function waitForHealth(url: string, server: ChildProcess, output: () => string) {
  // migrating and seeding a fresh demo takes 20-40 s; on a loaded machine (load 20 on 2 cores) more than 90 s
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited early:\n${output()}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not start in time:\n${output()}`);
}
