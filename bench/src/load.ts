import autocannon from 'autocannon';

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

/** What one run of load saw: every request's latency, the errors and how long it ran. */
export interface LoadSample {
  latencies: number[];
  errors: number;
  seconds: number;
}

/** A closed-loop load generator: `concurrency` workers repeat `task` for `seconds` (the raw-SQL side). */
export async function sampleLoad(task: () => Promise<boolean>, concurrency: number, seconds: number): Promise<LoadSample> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        let ok = false;
        try {
          ok = await task();
        } catch {
          ok = false;
        }
        latencies.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

export interface HttpLoad {
  url: string;
  body: string;
  headers: Record<string, string>;
  concurrency: number;
  seconds: number;
  verify: (body: string) => boolean;
}

/**
 * HTTP load with autocannon: `concurrency` keep-alive connections POST `body` for `seconds`.
 * A request counts as an error unless it answers 2xx and `verify` accepts its body. Latencies
 * come from autocannon's own timing of each response, so p95 is exact, not interpolated.
 */
export async function runHttpLoad(o: HttpLoad): Promise<LoadResult> {
  return summarize([await sampleHttpLoad(o)]);
}

export async function sampleHttpLoad(o: HttpLoad): Promise<LoadSample> {
  const latencies: number[] = [];
  const started = performance.now();
  const options: autocannon.Options = {
    url: o.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...o.headers },
    body: o.body,
    connections: o.concurrency,
    duration: o.seconds,
    verifyBody: (body) => o.verify(String(body ?? '')),
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (err, r) => (err ? reject(err as Error) : resolve(r)));
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  return { latencies, errors: result.errors + result.non2xx + result.mismatches, seconds: (performance.now() - started) / 1000 };
}

/** One result of one or more runs of the same load: their requests over their time together. */
export function summarize(samples: LoadSample[]): LoadResult {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const errors = samples.reduce((n, s) => n + s.errors, 0);
  const elapsed = samples.reduce((t, s) => t + s.seconds, 0);
  const pct = (p: number) => round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0);
  return { requests: latencies.length, errors, rps: round(latencies.length / elapsed), p50: pct(50), p95: pct(95), p99: pct(99) };
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
