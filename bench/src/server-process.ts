import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
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
  /** the resident set now, with what V8's JS heap holds of it (the server's diagnostic report) */
  memory(): Promise<ServerMemory>;
}

export interface ServerMemory {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
}

/** '228 MB (JS heap 95 MB in use of 140 MB)': a row's memory figure */
export const memoryText = (m: ServerMemory) => `${m.rssMb} MB (JS heap ${m.heapUsedMb} MB in use of ${m.heapTotalMb} MB)`;

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/**
 * Starts the server as `npm start` does (scripts/start.mjs: built, then run in that process) and
 * times it to the first answered request, the build included.
 * The server listens on a port the system picks (PORT=0) and the address is read from its
 * start-up banner: a port chosen here and handed over could be taken meanwhile by another process
 * on a shared machine, whose answers would then be measured instead.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const t0 = performance.now();
  // SIGUSR2 makes the server write a diagnostic report here: how much of its resident set is JS
  // heap in use, and how much is garbage V8 has not yet collected
  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuye-bench-report-'));
  const reportFlags = ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${reportDir}`];
  const child = spawn(process.execPath, [...reportFlags, path.join(repoRoot, 'scripts/start.mjs')], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  passStderrWithoutReportNotes(child);
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
    // a loaded machine (CI runs the quick run beside the server tests) migrates and seeds slowly
    setTimeout(() => reject(new Error(`no start-up banner within 300 s; output so far: ${out.slice(0, 500)}`)), 300_000).unref();
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
  const rssMb = () => {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return mb(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
  };
  return {
    url,
    child,
    startMs,
    async memory() {
      const rss = rssMb();
      const heap = await reportedHeap(child, reportDir);
      return { rssMb: rss, heapUsedMb: mb(heap.usedMemory), heapTotalMb: mb(heap.totalMemory) };
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(reportDir, { recursive: true, force: true });
    },
  };
}

/** The server's stderr on ours, but for Node's two lines about each report it writes. */
function passStderrWithoutReportNotes(child: ChildProcess) {
  child.stderr!.setEncoding('utf8');
  let partial = '';
  child.stderr!.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (!/^(Writing Node\.js report|Node\.js report completed)/.test(line)) process.stderr.write(`${line}\n`);
  });
}

/** Asks the server for a diagnostic report and reads its JS heap figures (bytes). */
async function reportedHeap(child: ChildProcess, dir: string): Promise<{ usedMemory: number; totalMemory: number }> {
  for (const old of fs.readdirSync(dir)) fs.rmSync(path.join(dir, old));
  child.kill('SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 20) {
    await new Promise((r) => setTimeout(r, 20));
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.json'));
    if (!file) continue;
    try {
      return (JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { javascriptHeap: { usedMemory: number; totalMemory: number } })
        .javascriptHeap;
    } catch {
      // still being written
    }
  }
  throw new Error('the server wrote no diagnostic report within 10 s');
}
