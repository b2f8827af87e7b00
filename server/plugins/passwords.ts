// Password hashing with scrypt (memory-hard, in node:crypto). Stored as scrypt$N$r$p$salt$hash (base64url).
// node's async scrypt runs on the libuv thread pool (4 threads by default), which file reads and DNS lookups share:
// at most HASHING_AT_ONCE hashes run at a time, so a burst of logins or account writes leaves the rest of the pool
// free (and the logins themselves are refused before hashing past their lanes, server/plugins/rate-limit.ts).
import { randomBytes, scrypt as scryptCb, timingSafeEqual, createHash, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

/** Hashes running at once: half of libuv's default pool. */
export const HASHING_AT_ONCE = 2;
let hashing = 0;
const waiting: (() => void)[] = [];

async function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  if (hashing >= HASHING_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else hashing++;
  try {
    return await new Promise((resolve, reject) =>
      scryptCb(password, salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))),
    );
  } finally {
    const next = waiting.shift();
    if (next) next();
    else hashing--;
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A fixed hash checked when the e-mail is unknown, so both failures cost the same time. */
export const dummyHashPromise = hashPassword(randomBytes(12).toString('base64url'));

export const newToken = () => randomBytes(32).toString('base64url');
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
