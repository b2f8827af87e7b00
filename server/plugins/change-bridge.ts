// Several server processes on one PostgreSQL hear each other's committed writes: every change of this process's
// feed is sent with NOTIFY, and every other process's arrives in this feed, so caches built from the tables
// (the device lookup's snapshot) are invalidated everywhere at once. A lost connection is reopened, and the
// feed then announces every entity, since notifications sent meanwhile are gone. SQLite has no channel: its
// other processes are noticed by the lookup's poll of PRAGMA data_version (server/actions/device/snapshot.ts).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Change } from '../crud/changes.ts';
import type { Engine } from '../crud/context.ts';
import { isPostgresUrl } from '../db/database.ts';

export const CHANGES_CHANNEL = 'panel_changes';
const RECONNECT_MS = 2000;

export function bridgeChanges(app: FastifyInstance, engine: Engine, databaseUrl: string | undefined): void {
  if (!isPostgresUrl(databaseUrl)) return;
  const me = randomUUID();
  let relaying = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const stopFeed = engine.changes.on((change) => {
    if (relaying) return;
    const payload = JSON.stringify({ from: me, entity: change.entity, path: change.path, ids: change.ids, by: change.by, at: change.at });
    sql`select pg_notify(${CHANGES_CHANNEL}, ${payload})`.execute(engine.db).catch((error) => console.error('change notify failed:', (error as Error).message));
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
        const change = JSON.parse(message.payload ?? '{}') as Partial<Change> & { from?: string };
        if (change.from !== me && change.entity) relay([{ entity: change.entity, path: change.path ?? '', ids: change.ids, by: change.by, at: change.at, remote: true }]);
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
