import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1 };
const KEYLEN = 32;

/** scrypt$N$r$p$salt$hash, all parameters kept so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return crypto.timingSafeEqual(key, expected);
}

/** A weak password: short, one kind of character, or a well-known one. */
export function isWeakPassword(password: string): boolean {
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^a-zA-Z\d]/].filter((re) => re.test(password)).length;
  return password.length < 8 || kinds < 2 || /^(123456|password|admin|qwerty)/i.test(password);
}

/** A hash of a password nobody has, made as the module loads: checked against when the username does not exist. */
const nobody = hashPassword(crypto.randomBytes(16).toString('hex'));

/** Spends what verifyPassword spends on a real account, and answers false. */
export async function verifyNobody(password: string): Promise<boolean> {
  await verifyPassword(password, await nobody);
  return false;
}
