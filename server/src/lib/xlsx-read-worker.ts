import { parentPort, workerData } from 'node:worker_threads';
import { readUploadedSheet, UploadRefused, type UploadLimits } from './xlsxReader.js';

/**
 * Reads one upload off the main thread (lib/uploads.ts starts it): the answer is the sheet, or
 * the refusal's message. Bundled on its own as server/dist/xlsx-read-worker.mjs.
 */
const { file, limits } = workerData as { file: Uint8Array; limits: UploadLimits };
try {
  parentPort!.postMessage({ ok: true, sheet: readUploadedSheet(Buffer.from(file.buffer, file.byteOffset, file.byteLength), limits) });
} catch (err) {
  parentPort!.postMessage({ ok: false, refused: err instanceof UploadRefused, message: (err as Error).message });
}
