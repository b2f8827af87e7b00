import useSWR from 'swr';
import { actionOfKind } from '../access/access';
import { usePanel } from '../app/panel';
import { recordLabelField } from '../../../kernel/manifest/fields';
import type { Manifest } from '../../../kernel/manifest/types';
import { MAX_PAGE_SIZE } from '../../../kernel/rules/page-size';
import { session } from '../session/session';
import { useStore } from '../store';

const NO_ROWS: Record<string, unknown>[] = [];

export interface LookupOption {
  id: number | string;
  label: string;
}

/** lookupLabel(whitelabel, {id: 3, name: 'Acme'}) === '3 — Acme' */
export function lookupLabel(manifest: Manifest, row: Record<string, unknown>): string {
  const field = recordLabelField(manifest);
  const name = row[field];
  return field === 'id' || name === undefined || name === null || name === '' ? String(row.id) : `${String(row.id)} — ${String(name)}`;
}

/**
 * The rows of another entity for a select (SPEC 7 "Lookups for selects": a page of 30 or 1000 rows).
 * `allowed` is false when the caller's role may not list that entity; the field then falls back to typing an id.
 * With `valueField` (e.g. `name`) each option's value is that field of the row, labelled by it alone.
 * @example const { options } = useLookup('whitelabel', 1000)
 */
export function useLookup(entity: string | undefined, pageSize = MAX_PAGE_SIZE, valueField?: string) {
  const panel = usePanel();
  const role = useStore(session).user?.role;
  const manifest = entity ? panel.manifests.byEntity.get(entity) : undefined;
  const action = manifest && actionOfKind(manifest, 'list', role)?.[1];
  const { data, error, isLoading } = useSWR(action ? ['lookup', action.path, pageSize] : null, () =>
    panel.provider.list<Record<string, unknown>>(action!, { page: 1, pageSize }),
  );
  const options: LookupOption[] = !manifest || !data
    ? []
    : valueField && valueField !== 'id'
      ? [...new Set(data.rows.map((row) => row[valueField]).filter((v) => v !== null && v !== undefined && v !== '').map(String))].map((v) => ({ id: v, label: v }))
      : data.rows.map((row) => ({ id: row.id as number, label: lookupLabel(manifest, row) }));
  return { options, rows: data?.rows ?? NO_ROWS, allowed: Boolean(action), isLoading, error: error as Error | undefined };
}
