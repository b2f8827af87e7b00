// The demo's way into the server: the real routes through app.inject(), as the admin, so every record goes
// through the same validation, role checks, file checks and audit log as a click in the panel.
import type { FastifyInstance } from 'fastify';

export interface DemoFile {
  filename: string;
  content: Buffer | string;
  type: string;
}

export interface DemoApi {
  /** Calls one route; query for GET/DELETE, JSON for POST/PUT unless `form` is given (multipart). Throws on failure. */
  call(method: string, path: string, params?: Record<string, unknown>, form?: Record<string, string | DemoFile>): Promise<any>;
  dataDir: string;
}

export async function demoApi(app: FastifyInstance, token: string): Promise<DemoApi> {
  return {
    dataDir: app.engine.dataDir,
    async call(method, path, params = {}, form) {
      const headers: Record<string, string> = { authorization: token };
      let url = path;
      let payload: string | Buffer | undefined;
      if (form) {
        const data = new FormData();
        for (const [k, v] of Object.entries(form)) {
          if (typeof v === 'string') data.append(k, v);
          else data.append(k, new Blob([typeof v.content === 'string' ? v.content : new Uint8Array(v.content)], { type: v.type }), v.filename);
        }
        // Response serialises FormData into a multipart body with its boundary.
        const encoded = new Response(data);
        payload = Buffer.from(await encoded.arrayBuffer());
        headers['content-type'] = encoded.headers.get('content-type')!;
      } else if (method === 'GET' || method === 'DELETE') {
        const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
        if ([...query].length) url += `?${query}`;
      } else {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(params);
      }
      const reply = await app.inject({ method: method as 'GET', url, headers, payload });
      const body = reply.json() as { result: boolean; data?: unknown; message?: string };
      if (!body.result) throw new Error(`${method} ${path}: ${reply.statusCode} ${body.message}`);
      return body.data;
    },
  };
}
