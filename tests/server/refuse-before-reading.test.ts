// Refuse before reading: the token and the role are checked when a request arrives, before its body is read,
// and uploads are streamed to disk within their field's limit. Measured on the real server process from
// outside: the peak memory of 20 concurrent anonymous 100 MB uploads stays bounded.
import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, readdirSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(MB, 0x61);

/**
 * Sends `parts` (header text, then `bytes` of filler) as the body of a POST, chunk by chunk, so the sender holds
 * one megabyte at a time; resolves to the status as soon as the answer's head arrives, and stops sending.
 */
function send(url: string, headers: Record<string, string>, parts: { head: string; bytes: number }[], tail: string, method = 'POST'): Promise<number> {
  const length = parts.reduce((n, p) => n + Buffer.byteLength(p.head) + p.bytes, 0) + Buffer.byteLength(tail);
  return new Promise((resolve, reject) => {
    let done = false;
    const req = request(url, { method, headers: { ...headers, 'content-length': String(length) } });
    req.on('response', (res) => {
      done = true;
      res.resume();
      resolve(res.statusCode!);
      req.destroy();
    });
    // A server that answers early may close the connection while we still write: the answer may follow the EPIPE.
    req.on('error', (error) => setTimeout(() => done || reject(error), 1000));
    if (length <= MB) {
      req.end(parts.map((p) => p.head + 'a'.repeat(p.bytes)).join('') + tail);
      return;
    }
    (async () => {
      for (const part of parts) {
        if (done) return;
        if (!req.write(part.head)) await new Promise((r) => req.once('drain', r));
        for (let sent = 0; sent < part.bytes && !done; sent += CHUNK.length) {
          const chunk = part.bytes - sent >= CHUNK.length ? CHUNK : CHUNK.subarray(0, part.bytes - sent);
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        }
      }
      if (!done) req.end(tail);
    })().catch(() => {});
  });
}

/** A multipart form of `count` files of `each` bytes in field `field`. */
function form(field: string, count: number, each: number) {
  const boundary = 'panel-test-boundary';
  const parts = Array.from({ length: count }, (_, i) => ({
    head: `${i ? '\r\n' : ''}--${boundary}\r\nContent-Disposition: form-data; name="${field}${count > 1 ? i : ''}"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
    bytes: each,
  }));
  return { parts, tail: `\r\n--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

describe('refuse before reading (sqlite, the server as its own process)', () => {
  let server: ServerProcess;
  let dataDir: string;
  let admin: string;
  let tester: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'panel-refuse-'));
    // List reads on worker threads (as by default): with them on, this server once did not exit on SIGTERM.
    server = await startServerProcess(dataDir, { SQLITE_READ_WORKERS: '2' });
    admin = await server.login();
    const created = await fetch(`${server.url}/v1/admin/user/add?email=t@test.io&password=tester-password-1&role=tester`, { headers: { authorization: admin } });
    expect(created.status).toBe(200);
    tester = await server.login('t@test.io', 'tester-password-1');
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 20 concurrent anonymous 100 MB uploads with 401 before reading them, its memory bounded', async () => {
    const before = server.peakRss();
    const upload = form('imageHD', 10, 10 * MB);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => send(`${server.url}/v1/admin/whitelabel/add`, { 'content-type': upload.type }, upload.parts, upload.tail)),
    );
    expect(statuses).toEqual(Array(20).fill(401));
    const grown = server.peakRss() - before;
    expect(grown, `peak memory grew by ${Math.round(grown / MB)} MB`).toBeLessThan(64 * MB);
    expect(server.alive()).toBe(true);
  });

  it('answers anonymous 64 MB JSON bodies with 401 before parsing them, and a role that may not call with 403', async () => {
    const before = server.peakRss();
    const head = { head: '{"ips": [', bytes: 0 };
    const filler = { head: `"${'x'.repeat(10)}`, bytes: 64 * MB };
    const anonymous = await Promise.all(
      Array.from({ length: 4 }, () => send(`${server.url}/v1/admin/testersIP/addArray`, { 'content-type': 'application/json' }, [head, filler], '"]}')),
    );
    expect(anonymous).toEqual([401, 401, 401, 401]);
    const upload = form('imageHD', 10, 10 * MB);
    const wrongRole = await send(`${server.url}/v1/admin/whitelabel/add`, { 'content-type': upload.type, authorization: tester }, upload.parts, upload.tail);
    expect(wrongRole).toBe(403);
    const grown = server.peakRss() - before;
    expect(grown, `peak memory grew by ${Math.round(grown / MB)} MB`).toBeLessThan(64 * MB);
  });

  it('refuses an admin upload larger than its field allows with 413, having staged and then removed only the allowed bytes', async () => {
    const upload = form('imageHD', 1, 100 * MB);
    const status = await send(`${server.url}/v1/admin/whitelabel/add`, { 'content-type': upload.type, authorization: admin }, upload.parts, upload.tail);
    expect(status).toBe(413);
    const staging = join(dataDir, '.staging');
    expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
  });

  it('refuses a record body larger than the call needs with 413, and a query call with any body', async () => {
    const big = { head: '{"goalName": "', bytes: 300 * 1024 };
    expect(await send(`${server.url}/v1/admin/goalsAbtesting/add`, { 'content-type': 'application/json', authorization: admin }, [big], '"}')).toBe(413);
    const small = { head: '{"id": 1, "pad": "', bytes: 8 * 1024 };
    expect(await send(`${server.url}/v1/admin/abtesting/changeIsActive`, { 'content-type': 'application/json', authorization: admin }, [small], '"}')).toBe(413);
    expect(await send(`${server.url}/v1/user/login`, { 'content-type': 'application/json' }, [{ head: '{"email": "', bytes: 32 * 1024 }], '"}')).toBe(413);
    const body = { head: '{"x": "', bytes: 4 * 1024 };
    expect(await send(`${server.url}/v1/admin/goalsAbtesting/destroy?id=1`, { 'content-type': 'application/json', authorization: admin }, [body], '"}', 'DELETE')).toBe(413);
  });

  it('keeps serving a connection whose upload it refused part way: the rest is read and dropped, the next call answered', async () => {
    const upload = form('imageHD', 1, 20 * MB);
    const length = upload.parts[0].head.length + upload.parts[0].bytes + upload.tail.length;
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1').on('data', (d: string) => (received += d));
    socket.on('error', () => {}); // a failure shows as the answers that never came
    const answers = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const check = () => ((received.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= n ? resolve() : undefined);
        socket.on('data', check).once('close', () => reject(new Error(`connection closed after: ${received.slice(0, 300)}`)));
        check();
      });
    socket.write(`POST /v1/admin/whitelabel/add HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${admin}\r\nContent-Type: ${upload.type}\r\nContent-Length: ${length}\r\n\r\n`);
    socket.write(upload.parts[0].head);
    for (let sent = 0; sent < upload.parts[0].bytes; sent += CHUNK.length) {
      if (!socket.write(CHUNK)) await new Promise((r) => socket.once('drain', r));
    }
    socket.write(upload.tail);
    await answers(1);
    expect(received).toMatch(/^HTTP\/1\.1 413/);
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await answers(2);
    expect(received.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
    socket.destroy();
  });

  it('stops on SIGTERM with its list read workers on, having closed the database (exit code 0)', async () => {
    const list = await fetch(`${server.url}/v1/admin/installation/get?page=1&pageSize=20`, { headers: { authorization: admin } });
    expect(list.status).toBe(200);
    expect(await server.stop()).toBe(0);
  });
});
