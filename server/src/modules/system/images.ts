/**
 * Uploaded images (docs/product.md#uploaded-images): a logo, QR codes, a floor plan. The call
 * carries the file as base64 like every upload; the bytes decide what it is (a PNG, JPEG, GIF or
 * WebP signature), never its name. An image is served at /files/<id>/<key>.<ext> with the random
 * key as its only key, as <img> tags send no token.
 */
import crypto from 'node:crypto';
import { IMAGE_MAX_BYTES, type UploadedImage } from '@wuye/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';

type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
const EXT: Record<ImageMime, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** The image type the bytes are, by their signature; null for anything else. */
export function imageMimeOf(bytes: Buffer): ImageMime | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return null;
}

/**
 * Who uploads images: whoever edits the settings that show them (系统设置, the group's head office)
 * and the staff whose records carry photos (a repair's, a complaint's, a notice's cover, a door
 * grant's face, a guard's check-in, an activity's cover, a maintenance task's, a cost's receipt).
 */
const IMAGE_UPLOADERS = [
  'setup',
  'leader_admin',
  'steward',
  'notices',
  'repairs',
  'security',
  'currents',
  'service',
  'devicelist',
  // a contract's scans and photos (docs/product.md#crm-contracts)
  'rentroom',
  // a cost's receipts and invoices (docs/product.md#costs)
  'setfees',
  'financecount',
] as const;

const imageupload = defineMethod('imageupload', {
  side: 'both',
  roles: IMAGE_UPLOADERS,
  writes: true,
  summary: '上传图片（PNG、JPEG、GIF、WebP，不超过 2MB）：返回可用于 logo、二维码、平面图等设置的地址 /files/<id>/<key>.<ext>',
  async handler(ctx, input) {
    const bytes = Buffer.from(input.file_base64, 'base64');
    if (bytes.length === 0) fail('请选择文件');
    if (bytes.length > IMAGE_MAX_BYTES) fail('图片不能超过2MB');
    const mime = imageMimeOf(bytes);
    if (!mime) fail('只能上传 PNG、JPEG、GIF 或 WebP 格式的图片');
    const key = crypto.randomBytes(16).toString('hex');
    const row = await ctx.db
      .insertInto('uploaded_images')
      .values({
        group_id: ctx.session.groupId,
        rid: ctx.session.side === 'community' ? ctx.session.rid : null,
        key,
        name: input.filename,
        mime,
        size: bytes.length,
        content: bytes,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply<UploadedImage>({ url: `/files/${row.id}/${key}.${EXT[mime]}`, name: input.filename, size: bytes.length }, '上传成功');
  },
});

export const imageMethods = [imageupload];

/** GET /files/<id>/<key>.<ext>: the image, cached for good (an address never changes its bytes). */
export function registerImageRoutes(fastify: FastifyInstance, db: Kysely<DB>): void {
  fastify.get<{ Params: { id: string; file: string } }>('/files/:id/:file', async (req, reply) => {
    const id = /^\d{1,15}$/.test(req.params.id) ? Number(req.params.id) : null;
    const key = /^([0-9a-f]{32})\.(png|jpg|gif|webp)$/.exec(req.params.file)?.[1];
    const image =
      id && key
        ? await db.selectFrom('uploaded_images').select(['key', 'mime', 'content']).where('id', '=', id).executeTakeFirst()
        : undefined;
    // a wrong key answers as a missing image: nothing tells which ids exist
    if (!image || !key || !crypto.timingSafeEqual(Buffer.from(image.key), Buffer.from(key))) {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .type(image.mime)
      .send(image.content);
  });
}
