// The real server as its own process (node + tsx, no wrapper, so the pid is the server's): for the tests that
// must watch a process survive, be killed with SIGKILL, or be measured from outside (its memory).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ADMIN } from './harness.ts';
import { spawnServer } from '../e2e/harness.ts';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  alive(): boolean;
  /** Peak resident memory of the process so far, in bytes (Linux VmHWM). */
  peakRss(): number;
  login(email?: string, password?: string): Promise<string>;
  /** SIGKILL: no cleanup of any kind runs. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit; resolves to the exit code (0: closed cleanly; null: it was already gone by a signal). */
  stop(): Promise<number | null>;
}

/** Starts the server on DATA_DIR `dataDir` (SQLite, or PostgreSQL when env has DATABASE_URL) and waits for /healthz. */
export async function startServerProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const { child, port, output } = await spawnServer({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DIST_DIR: resolve(dataDir, 'no-dist'),
    ...env,
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const exited = alive() ? new Promise<number | null>((ok) => child.once('exit', (code) => ok(code))) : Promise.resolve(child.exitCode);
  const url = `http://127.0.0.1:${port}`;
  const end = async (signal: NodeJS.Signals) => {
    if (alive()) child.kill(signal);
    return exited;
  };
  return {
    url,
    child,
    output,
    alive,
    peakRss() {
      const line = readFileSync(`/proc/${child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
      return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
    },
    async login(email = ADMIN.email, password = ADMIN.password) {
      const res = await fetch(`${url}/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      const body = (await res.json()) as { data?: { token: string }; message?: string };
      if (!body.data) throw new Error(`login failed: ${body.message}`);
      return body.data.token;
    },
    kill: async () => void (await end('SIGKILL')),
    stop: () => end('SIGTERM'),
  };
}
