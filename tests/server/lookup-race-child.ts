// A second server process for the collection race of device-experiments.test.ts: it opens the same database
// (DATA_DIR / DATABASE_URL of its environment), says "ready" once its lookup snapshot is loaded, and on "go"
// sends the lookups of the devices named in RACE_DEVICES at once, then prints how many were answered 200.
import { createInterface } from 'node:readline';
import { buildApp } from '../../server/app.ts';

const app = await buildApp({ config: { distDir: '/nonexistent' } });
const url = (name?: string) =>
  `/v1/combination/get?whitelabel=${process.env.RACE_WHITELABEL}&platform=${encodeURIComponent('{"name":"tizen"}')}${name ? `&appInstallId=${name}` : ''}`;
await app.inject({ url: url(), remoteAddress: '198.51.100.22' });
console.log('ready');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line !== 'go') continue;
  const names = (process.env.RACE_DEVICES ?? '').split(',');
  const replies = await Promise.all(names.map((name) => app.inject({ url: url(name), remoteAddress: '198.51.100.22' })));
  console.log(`answered ${replies.filter((r) => r.statusCode === 200).length}`);
  break;
}
lines.close();
await app.close();
