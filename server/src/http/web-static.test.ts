import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

/** The built console as the server sends it: precompressed when the browser takes it, cached by hash. */
describe('web assets', () => {
  let server: TestServer;
  let dist: string;
  const script = `console.log(${JSON.stringify('物业'.repeat(2000))});`;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wuye-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const file = path.join(dist, 'assets/index-AbC123.js');
    fs.writeFileSync(file, script);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(script));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(script));
    server = await startTestServer({ webDist: dist });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    server.app.fastify.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends brotli or gzip by Accept-Encoding, the plain file otherwise, with Vary', async () => {
    const br = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);

    const gz = await get('/assets/index-AbC123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    expect(gz.rawPayload.length).toBeLessThan(Buffer.byteLength(script) / 5);

    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('caches hashed assets for a year, other files for an hour, and never the page itself', async () => {
    expect((await get('/assets/index-AbC123.js', 'br')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/favicon.svg')).headers['cache-control']).toBe('public, max-age=3600');
    const page = await get('/basismembers/index');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    // the home page may carry a user's first screen (first-screen.ts): kept by no shared cache
    expect((await get('/dashboard')).headers['cache-control']).toBe('private, no-cache');
    // a chunk of an older build: not found, rather than the page in its place
    expect((await get('/assets/missing-123.js', 'br')).statusCode).toBe(404);
  });
});
