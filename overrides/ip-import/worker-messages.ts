// What the IP import's page and its worker (parse.worker.ts) say to each other.
import type { ImportProblem } from '../../kernel/rules/ip';

export type ToWorker = { type: 'parse'; file: Blob; shown: number } | { type: 'body'; vendor: string };

export type FromWorker =
  | { type: 'parsed'; count: number; first: string[]; problems: ImportProblem[]; problemCount: number }
  | { type: 'body'; body: Blob }
  | { type: 'error'; message: string };
