/**
 * Secrets at rest (provider keys: the SMS AccessKey secret now, payment and WeChat keys next):
 * AES-256-GCM with a random 12-byte IV per value; the stored text is `v1:` + base64(iv | tag |
 * ciphertext), so a changed or truncated value fails to open instead of decrypting to garbage.
 *
 * The key: SECRETS_KEY (32 bytes as 64 hex characters or base64), else the file `secrets.key`
 * in DATA_DIR, made (mode 0600) the first time a secret is stored. Keep that file (or the variable)
 * with the backups but apart from the database's: the database alone does not open the secrets.
 * A secret is never answered: the console shows its last four characters (`mask`).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const PREFIX = 'v1:';
const keys = new Map<string, Buffer>();

function parseKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes: 64 hex characters or base64');
  return key;
}

/** The key: SECRETS_KEY, else DATA_DIR/secrets.key (made when missing). */
export function secretsKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.SECRETS_KEY) return parseKey(env.SECRETS_KEY);
  const file = path.join(dataDir, 'secrets.key');
  const known = keys.get(file);
  if (known) return known;
  let key: Buffer;
  try {
    key = parseKey(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      // wx: two processes starting at once keep the first one's key
      fs.writeFileSync(file, crypto.randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    key = parseKey(fs.readFileSync(file, 'utf8'));
  }
  keys.set(file, key);
  return key;
}

export function encryptSecret(plain: string, key: Buffer): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The plain text; throws when the value was not sealed with this key or was altered. */
export function decryptSecret(sealed: string, key: Buffer): string {
  if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed secret');
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
  if (raw.length < 28) throw new Error('sealed secret too short');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** A secret as the console shows it: ••••1a2b ('' for none). */
export const maskSecret = (last4: string): string => (last4 ? `••••${last4}` : '');
export const lastFour = (plain: string): string => plain.slice(-4);
