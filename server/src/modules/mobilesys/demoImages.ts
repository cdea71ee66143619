import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A width × height RGB PNG of a diagonal gradient from one colour to another (a demo cover). */
export function gradientPng(width: number, height: number, from: [number, number, number], to: [number, number, number]): Buffer {
  const row = 1 + width * 3;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0; // no filter
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const at = y * row + 1 + x * 3;
      for (let c = 0; c < 3; c++) raw[at + c] = Math.round(from[c]! + (to[c]! - from[c]!) * t);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Stores a demo image as an upload would (rid null: the head office's, of no community), and answers its address. */
async function storeImage(db: Kysely<DB>, groupId: number, rid: number | null, name: string, png: Buffer): Promise<string> {
  const key = crypto.randomBytes(16).toString('hex');
  const row = await db
    .insertInto('uploaded_images')
    .values({ group_id: groupId, rid, key, name, mime: 'image/png', size: png.length, content: png })
    .returning('id')
    .executeTakeFirstOrThrow();
  return `/files/${row.id}/${key}.png`;
}

/** Stores a demo image of a community as an upload would, and answers its address. */
export async function storeDemoImage(db: Kysely<DB>, rid: number, name: string, png: Buffer): Promise<string> {
  const region = await db.selectFrom('regions').select('group_id').where('id', '=', rid).executeTakeFirstOrThrow();
  return storeImage(db, region.group_id, rid, name, png);
}

/** Stores a demo image of the group (an upload on the group side: no community), and answers its address. */
export const storeGroupDemoImage = (db: Kysely<DB>, groupId: number, name: string, png: Buffer): Promise<string> =>
  storeImage(db, groupId, null, name, png);
