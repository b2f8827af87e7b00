// Issue 32: edits racing from one version. Per dialect, ROUNDS rounds of RACERS edits of one platform sent at once
// over HTTP, each carrying the same updatedAt; prints how many were accepted per round (exactly 1 is right).
//   npm run bench lost-update
import type { AddressInfo } from 'node:net';
import { ADMIN, startApp, type Dialect } from '../tests/server/harness.ts';

const RACERS = 20;
const ROUNDS = 5;

async function acceptedPerRound(dialect: Dialect): Promise<number[]> {
  const { app, cleanup } = await startApp(dialect);
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const login = await app.inject({ method: 'POST', url: '/v1/user/login', payload: ADMIN });
    const headers = { authorization: `Bearer ${login.json().data.token}` };
    const get = async (path: string, query: Record<string, string | number>) => {
      const response = await fetch(`${base}${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { headers });
      return { status: response.status, body: (await response.json()) as { data?: any } };
    };
    const opened = (await get('/v1/admin/platform/add', { name: 'raced', maxVersion: '01.00.00' })).body.data as { id: number; updatedAt: string };
    const accepted: number[] = [];
    let version = opened.updatedAt;
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => get('/v1/admin/platform/edit', { id: opened.id, maxVersion: `0${round}.${String(i).padStart(2, '0')}.00`, updatedAt: version })),
      );
      const won = answers.filter((a) => a.status === 200);
      accepted.push(won.length);
      // The next round starts from the stored version: the last write's.
      const rows = (await get('/v1/admin/platform/get', { pageSize: 1000 })).body.data.rows as { id: number; updatedAt: string }[];
      version = rows.find((r) => r.id === opened.id)!.updatedAt;
    }
    return accepted;
  } finally {
    await app.close();
    await cleanup();
  }
}

/** Prints accepted-of-RACERS per round on SQLite and PostgreSQL. */
export async function lostUpdate(): Promise<void> {
  console.log(`lost update: ${RACERS} edits sent at once from one version, ${ROUNDS} rounds (accepted per round; 1 is right)`);
  for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
    const accepted = await acceptedPerRound(dialect);
    console.log(`${dialect.padEnd(8)} ${accepted.map((n) => `${n}/${RACERS}`).join('  ')}`);
  }
}
