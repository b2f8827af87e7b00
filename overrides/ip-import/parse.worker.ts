// Parses an import file off the main thread, so a 100,000-line file leaves the page responsive.
import { parseIpImport } from '../../kernel/rules/ip';

self.onmessage = (event: MessageEvent<string>) => {
  self.postMessage(parseIpImport(event.data));
};
