// The IP import's worker (issue 14): reads the chosen file, parses it, answers the page with counts and the first
// lines only, and keeps the addresses (typed arrays) until OK, when it writes the addArray body as bytes and hands
// it over as a Blob. The page never holds the list, so no step of the import blocks it for long.
import { addArrayBody, firstBlocks, readImportFile, type ImportBlocks } from './import-file';
import type { FromWorker, ToWorker } from './worker-messages';

let blocks: ImportBlocks | null = null;

const answer = (message: FromWorker) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  try {
    if (message.type === 'parse') {
      blocks = readImportFile(await message.file.text());
      answer({ type: 'parsed', count: blocks.count, first: firstBlocks(blocks, message.shown), problems: blocks.problems, problemCount: blocks.problemCount });
    } else {
      if (!blocks) throw new Error('no file was read');
      answer({ type: 'body', body: new Blob([addArrayBody(blocks, message.vendor)], { type: 'application/json' }) });
    }
  } catch (error) {
    answer({ type: 'error', message: (error as Error).message });
  }
};
