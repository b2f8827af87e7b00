// The client benchmark's front server: one per app, on its own port, so both apps reach the API the same way.
// It serves a built app's files (brotli as the panel's build writes them: the same call, the same 1 kB floor;
// index.html for any other path) and passes the API, the socket and /config.json on to the panel's server,
// Host header included, so the server answers as it would on its own origin.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { isApiPath } from '../server/plugins/panel.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
/** What vite.config.ts precompresses: text assets of 1 kB or more. */
const COMPRESSED = /\.(js|css|html|svg|json)$/;

export interface Front {
  url: string;
  close(): Promise<void>;
}

export async function startFront(distDir: string, backend: string): Promise<Front> {
  const target = new URL(backend);
  const agent = new Agent({ keepAlive: true });
  const brotli = new Map<string, Buffer>();

  function proxy(req: IncomingMessage, res: ServerResponse) {
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (e) => res.destroy(e));
    req.pipe(upstream);
  }

  function serveFile(req: IncomingMessage, res: ServerResponse) {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = join(distDir, normalize(path));
    if (!file.startsWith(distDir) || !existsSync(file) || !statSync(file).isFile()) file = join(distDir, 'index.html');
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const headers: Record<string, string | number> = { 'Content-Type': type, 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' };
    const size = statSync(file).size;
    if (COMPRESSED.test(file) && size >= 1024 && /\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      if (!brotli.has(file)) brotli.set(file, brotliCompressSync(readFileSync(file)));
      const body = brotli.get(file)!;
      res.writeHead(200, { ...headers, 'Content-Encoding': 'br', 'Content-Length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  }

  const server = createServer((req, res) => (isApiPath(req.url ?? '/') ? proxy(req, res) : serveFile(req, res)));
  // The panel's live socket: the upgrade request goes on as it came, then bytes flow both ways.
  server.on('upgrade', (req, socket, head) => {
    const upstream = connect(Number(target.port), target.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    socket.on('close', () => upstream.destroy());
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise((ok) => server.close(ok));
    },
  };
}
