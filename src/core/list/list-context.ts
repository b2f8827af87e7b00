import { createContext, useContext } from 'react';
import type { Manifest, Role } from '../../../kernel/manifest/types';

/** What every piece of one list screen shares: its manifest, the caller's role, route parameters and reload. */
export interface ListContextValue {
  manifest: Manifest;
  file: string;
  role: Role;
  /** Route parameters mapped to call parameters (`screen.routeParams`), sent with every call of the screen. */
  callParams: Record<string, string>;
  /** The filters the list was loaded with. */
  appliedFilters: Record<string, string>;
  /** What the filter box shows, applied or not yet (Delete By Filter acts on it). */
  draftFilters: Record<string, string>;
  /** Applies filters to the list, as Enter in the filter box does. */
  applyFilters: (filters: Record<string, string>) => void;
  /** Resolves once the page is fetched again (a delete's rows stay hidden until then). */
  reload: () => Promise<unknown> | void;
}

export const ListContext = createContext<ListContextValue | null>(null);

export function useListContext(): ListContextValue {
  const value = useContext(ListContext);
  if (!value) throw new Error('useListContext() outside a list screen');
  return value;
}

/** fillTemplate('/abtesting/{id}', {id: 7}) === '/abtesting/7'; a missing field becomes ''. */
export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([\w.]+)\}/g, (_, name: string) => {
    let value: unknown = values;
    for (const part of name.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    return value === undefined || value === null ? '' : String(value);
  });
}

/** The route parameters a screen sends: `screen.routeParams` maps ':collectionId' to the call's 'id'. */
export function callParamsOf(manifest: Manifest, routeParams: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [from, to] of Object.entries(manifest.screen?.routeParams ?? {})) {
    const value = routeParams[from];
    if (value !== undefined) out[to] = value;
  }
  return out;
}
