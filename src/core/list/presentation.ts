import { matches } from '../access/access';
import type { HighlightRule, Tone } from '../../../kernel/manifest/types';

/** The tone of a row: the first highlight rule that matches wins. */
export function rowTone(row: unknown, rules: HighlightRule[] | undefined): Tone | undefined {
  return rules?.find((rule) => matches(row, rule.when))?.tone;
}

/** truncateText('abcdef', 3) -> {text: 'abc…', truncated: true} */
export function truncateText(text: string, limit: number | undefined): { text: string; truncated: boolean } {
  if (!limit || text.length <= limit) return { text, truncated: false };
  return { text: `${text.slice(0, limit)}…`, truncated: true };
}
