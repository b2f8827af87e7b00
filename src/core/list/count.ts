// A list answer's count as the pager and the heading show it: exact, or "10,000+" when the server capped it
// (docs/manifests.md, "Lists: count"). Paging stays possible past a capped count.
import type { ListResult } from '../http/data-provider';
import { formatNumber, t } from '../i18n/i18n';

/** "123" or "10,000+", in the language's number format. */
export function countText(result: Pick<ListResult, 'count' | 'countCapped'>): string {
  return result.countCapped ? `${formatNumber(result.count)}+` : formatNumber(result.count);
}

/** TablePagination's count: -1 (unknown, "next" stays enabled) when capped. */
export function pagerCount(result: Pick<ListResult, 'count' | 'countCapped'> | undefined): number {
  if (!result) return 0;
  return result.countCapped ? -1 : result.count;
}

/** "21–40 of 10,000+", "10,001–10,020 of more than 10,020", "1–20 of 57". */
export function pagerLabel(result: Pick<ListResult, 'count' | 'countCapped'> | undefined) {
  return ({ from, to, count }: { from: number; to: number; count: number }): string => {
    const range = { from: formatNumber(from), to: formatNumber(to) };
    if (count !== -1 || !result) return t('{from}–{to} of {count}', { ...range, count: formatNumber(count) });
    return to <= result.count
      ? t('{from}–{to} of {count}', { ...range, count: countText(result) })
      : t('{from}–{to} of more than {count}', { ...range, count: formatNumber(to) });
  };
}
