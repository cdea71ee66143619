import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** ms from spawn to the first answered /healthz */
  startMs: number;
  stop(): Promise<void>;
  rssMb(): number;
}

/**
 * Starts `server/src/main.ts` as `npm start` does and times it to the first answered request.
 * The server listens on a port the system picks (PORT=0) and the address is read from its
 * start-up banner: a port chosen here and handed over could be taken meanwhile by another process
 * on a shared machine, whose answers would then be measured instead.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/src/main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (chunk: string) => {
      out += chunk;
      // the banner's "…已启动: http://localhost:PORT" (log lines may hold other addresses)
      const port = /已启动: https?:\/\/[^\s:/]+:(\d+)/.exec(out)?.[1];
      if (port) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(`http://127.0.0.1:${port}`);
      }
    };
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited during start (code ${code})`)));
    setTimeout(() => reject(new Error(`no start-up banner within 120 s; output so far: ${out.slice(0, 500)}`)), 120_000).unref();
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start');
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const startMs = performance.now() - t0;
  return {
    url, child, startMs,
    rssMb: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
