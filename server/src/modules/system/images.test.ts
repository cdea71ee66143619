import { RC } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { imageMimeOf } from './images.js';

let s: TestServer;
let admin: string;
let cashier: string;
let leader: string;

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  s = await startTestServer();
  [admin, cashier, leader] = await s.logins('admin', 'cashier', 'leader');
}, 120000);
afterAll(() => s.close());

const upload = (bytes: Buffer, token: string, filename = 'logo.png', side?: 'group') =>
  s.call('imageupload', { file_base64: bytes.toString('base64'), filename }, token, side);

describe('uploaded images', () => {
  it('knows an image by its bytes, not its name', () => {
    expect(imageMimeOf(PNG)).toBe('image/png');
    expect(imageMimeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('image/jpeg');
    expect(imageMimeOf(Buffer.from('GIF89a......'))).toBe('image/gif');
    expect(imageMimeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(imageMimeOf(Buffer.from('<svg onload=alert(1)>'))).toBeNull();
    expect(imageMimeOf(Buffer.from('%PDF-1.7'))).toBeNull();
  });

  it('keeps an upload and serves it at its address, to an <img> without a token', async () => {
    const res = await upload(PNG, admin);
    expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
    expect(res.data).toMatchObject({ name: 'logo.png', size: PNG.length });
    expect(res.data.url).toMatch(/^\/files\/\d+\/[0-9a-f]{32}\.png$/);
    const got = await s.app.fastify.inject({ url: res.data.url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['cache-control']).toContain('immutable');
    expect(got.rawPayload.equals(PNG)).toBe(true);
    // the address saves as a setting and shows to everyone of the community
    expect((await s.call('setsysinfo', { logo_url: res.data.url }, admin)).return_code).toBe(RC.SUCCESS);
    expect((await s.call('get_system_info', {}, cashier)).data.items.logo_url).toBe(res.data.url);
  });

  it('answers a wrong key or id as a missing image', async () => {
    const res = await upload(PNG, admin);
    const [, id, key] = /^\/files\/(\d+)\/([0-9a-f]{32})\.png$/.exec(res.data.url)!;
    const wrongKey = `${key!.slice(0, 31)}${key!.endsWith('0') ? '1' : '0'}`;
    for (const url of [
      `/files/${id}/${wrongKey}.png`,
      `/files/${Number(id) + 1000}/${key}.png`,
      `/files/${id}/${key}.svg`,
      `/files/x/${key}.png`,
    ]) {
      expect((await s.app.fastify.inject({ url })).statusCode, url).toBe(404);
    }
  });

  it('refuses what is not an image, what is too large, and who does not edit settings; nothing is kept', async () => {
    const count = async () => Number((await s.database.pool.query('SELECT count(*)::int AS n FROM uploaded_images')).rows[0]!.n);
    const before = await count();
    expect((await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), admin, 'a.png')).return_msg).toBe(
      '只能上传 PNG、JPEG、GIF 或 WebP 格式的图片',
    );
    const large = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    expect((await upload(large, admin)).return_msg).toBe('图片不能超过2MB');
    expect((await upload(PNG, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect(await count()).toBe(before);
  });

  it('takes the group side’s uploads too', async () => {
    const res = await upload(PNG, leader, 'group.png', 'group');
    expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
    const { rows } = await s.database.pool.query('SELECT rid, group_id FROM uploaded_images WHERE name = $1', ['group.png']);
    expect(rows[0]).toMatchObject({ rid: null, group_id: 1 });
  });
});
