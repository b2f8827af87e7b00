// Several server processes on one PostgreSQL hear each other's committed writes: every change of this process's
// feed is sent with NOTIFY, and every other process's arrives in this feed, so caches built from the tables
// (the device lookup's snapshot) are invalidated everywhere at once. A lost connection is reopened, and the
// feed then announces every entity, since notifications sent meanwhile are gone. SQLite has no channel: its
// other processes are noticed by the lookup's poll of PRAGMA data_version (server/actions/device/snapshot.ts).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createChangeFeed, type Change, type ChangeFeed } from '../core/changes.ts';
import type { Engine } from '../core/context.ts';
import { isPostgresUrl } from '../db/database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Committed writes, by entity: what caches of the tables listen to (server/core/changes.ts). */
    changes: ChangeFeed;
  }
}

export const CHANGES_CHANNEL = 'panel_changes';
/** A NOTIFY payload stays under PostgreSQL's 8,000 bytes. */
const MAX_PAYLOAD = 7000;

/**
 * The payloads that carry `changes` from process `from`: as many changes each as fit in MAX_PAYLOAD characters (one
 * larger than that alone goes in a payload of its own, ids dropped: the receivers then reload the entity whole).
 * @example notifyChunks('me', [{ entity: 'appinfo', path: '/v1/appinfo/report' }]) // ['{"from":"me","changes":[...]}']
 */
export function notifyChunks(from: string, changes: object[]): string[] {
  const chunks: string[] = [];
  let parts: string[] = [];
  let size = 0;
  const head = `{"from":${JSON.stringify(from)},"changes":[`;
  const close = () => {
    if (parts.length) chunks.push(`${head}${parts.join(',')}]}`);
    parts = [];
    size = head.length + 2;
  };
  close();
  for (const change of changes) {
    let text = JSON.stringify(change);
    if (head.length + 2 + text.length > MAX_PAYLOAD) text = JSON.stringify({ ...change, ids: undefined });
    if (size + text.length + 1 > MAX_PAYLOAD) close();
    parts.push(text);
    size += text.length + 1;
  }
  close();
  return chunks;
}
const RECONNECT_MS = 2000;

export function bridgeChanges(app: FastifyInstance, engine: Pick<Engine, 'db' | 'changes' | 'manifests'>, databaseUrl: string | undefined): void {
  if (!isPostgresUrl(databaseUrl)) return;
  const me = randomUUID();
  let relaying = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  // The changes of one turn of the event loop go out together, in as few NOTIFYs as their size allows: a device
  // flood wrote one NOTIFY per device write, a round trip through the pool each.
  // One after the other, on one connection of the pool at a time, so the other processes hear them in order.
  let pending: object[] = [];
  let sending = Promise.resolve();
  const flush = () => {
    const changes = pending;
    pending = [];
    for (const chunk of notifyChunks(me, changes)) {
      sending = sending.then(() =>
        sql`select pg_notify(${CHANGES_CHANNEL}, ${chunk})`
          .execute(engine.db)
          .then(() => undefined, (error) => console.error('change notify failed:', (error as Error).message)),
      );
    }
  };
  const stopFeed = engine.changes.on((change) => {
    if (relaying) return;
    if (!pending.length) setImmediate(flush);
    pending.push({ entity: change.entity, path: change.path, ids: change.ids, by: change.by, at: change.at });
  });

  const relay = (changes: Change[]) => {
    relaying = true;
    try {
      for (const change of changes) engine.changes.emit(change);
    } finally {
      relaying = false;
    }
  };

  const connect = async (again: boolean) => {
    const listener = new pg.Client({ connectionString: databaseUrl });
    listener.on('notification', (message) => {
      try {
        const sent = JSON.parse(message.payload ?? '{}') as { from?: string; changes?: Partial<Change>[] } & Partial<Change>;
        if (sent.from === me) return;
        // A process of an earlier version sends one change a NOTIFY, without `changes`.
        const changes = Array.isArray(sent.changes) ? sent.changes : [sent];
        relay(changes.filter((c) => c.entity).map((c) => ({ entity: c.entity!, path: c.path ?? '', ids: c.ids, by: c.by, at: c.at, remote: true })));
      } catch {
        // A payload that is not ours: nothing to relay.
      }
    });
    const lost = () => {
      if (closed || client !== listener) return;
      client = undefined;
      retry = setTimeout(() => void connect(true), RECONNECT_MS);
    };
    listener.on('error', lost);
    listener.on('end', lost);
    client = listener;
    try {
      await listener.connect();
      await listener.query(`listen ${CHANGES_CHANNEL}`);
      if (again) relay(engine.manifests.map((m) => ({ entity: m.entity, path: '', remote: true })));
    } catch {
      lost();
    }
  };

  void connect(false);
  app.addHook('onClose', async () => {
    closed = true;
    stopFeed();
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  });
}

/** The `changes` plugin: decorates the change feed, bridged to the other processes on PostgreSQL (as above). */
export const changesPlugin = fp(
  async (app: FastifyInstance, options: { databaseUrl?: string }) => {
    app.decorate('changes', createChangeFeed());
    bridgeChanges(app, { db: app.db, changes: app.changes, manifests: app.manifests }, options.databaseUrl);
  },
  { name: 'changes', dependencies: ['manifests', 'db'], decorators: { fastify: ['manifests', 'db'] }, fastify: '5.x' },
);
