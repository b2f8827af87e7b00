// Benchmarks (never part of npm test): prints figures, compared as ratios measured in one run.
//   npm run bench            bundle sizes (needs `npm run build`) and API throughput on a temporary SQLite database
import { bundleSizes } from './bundle.ts';
import { apiThroughput } from './api.ts';
import { lookupThroughput } from './lookup.ts';

const which = process.argv[2] ?? 'all';
if (which === 'all' || which === 'bundle') await bundleSizes();
if (which === 'all' || which === 'api') await apiThroughput();
if (which === 'all' || which === 'lookup') await lookupThroughput();
