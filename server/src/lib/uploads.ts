import { Worker } from 'node:worker_threads';
import { probeUpload, UPLOAD_LIMITS, UploadRefused, type ReadSheet, type UploadLimits } from './xlsxReader.js';

/** Uploads read at once; more wait their turn (each reader may use up to READER_HEAP_MB). */
const READERS = 2;
const READER_HEAP_MB = 256;
const READ_TIMEOUT_MS = 30_000;

// run from source (tests, `npm run dev`) the worker is TypeScript, loaded through tsx; in the
// bundle (`npm start`) it is server/dist/xlsx-read-worker.mjs beside main.mjs (scripts/build-server.mjs)
const fromSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSource ? './xlsx-read-worker.ts' : './xlsx-read-worker.mjs', import.meta.url);

let reading = 0;
const waiting: Array<() => void> = [];

async function turn(): Promise<() => void> {
  if (reading >= READERS) await new Promise<void>((resolve) => waiting.push(resolve));
  reading++;
  return () => {
    reading--;
    waiting.shift()?.();
  };
}

/**
 * Reads an uploaded .xlsx in a worker thread with its own bounded heap and a time limit, so a
 * hostile file costs neither the event loop nor the process's memory (lib/xlsxReader.ts bounds
 * every size while reading). Throws UploadRefused with a message for the user.
 */
export async function readUpload(file: Buffer, limits: Partial<UploadLimits> = {}): Promise<ReadSheet> {
  const bounds = { ...UPLOAD_LIMITS, ...limits };
  // what is too big or no zip at all is refused before a thread is started for it
  probeUpload(file, bounds);
  const done = await turn();
  try {
    return await new Promise<ReadSheet>((resolve, reject) => {
      // from source, a small script registers tsx's loader in the thread first, then loads the worker
      const script = fromSource
        ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); })`
        : workerUrl;
      const worker = new Worker(script, {
        eval: fromSource,
        workerData: { file, limits: bounds },
        resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
      });
      const timer = setTimeout(() => {
        void worker.terminate();
        reject(new UploadRefused('Excel 文件过于复杂，读取超时，请另存为普通的 .xlsx 或分批导入'));
      }, READ_TIMEOUT_MS);
      worker.once('message', (m: { ok: true; sheet: ReadSheet } | { ok: false; refused: boolean; message: string }) => {
        clearTimeout(timer);
        void worker.terminate();
        if (m.ok) resolve(m.sheet);
        else reject(m.refused ? new UploadRefused(m.message) : new Error(m.message));
      });
      worker.once('error', (err: Error & { code?: string }) => {
        clearTimeout(timer);
        reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new UploadRefused('Excel 文件过大，读取时超出内存限制，请分批导入') : err);
      });
    });
  } finally {
    done();
  }
}
