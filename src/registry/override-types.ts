import type { ComponentType } from 'react';
import type { ColumnDecl, FieldSchema, Manifest, Role } from '../../kernel/manifest/types';

/** What a whole-screen override receives (`screen.override`). */
export interface ScreenOverrideProps {
  manifest: Manifest;
}

/** What a toolbar or row action override receives (`screen.toolbar[]`, `screen.rowActions[]`, `actions.*.ui.override`). */
export interface ActionOverrideProps {
  manifest: Manifest;
  role: Role;
  /** Reloads the list after a write. */
  reload: () => void;
  /** The row, for row actions. */
  row?: Record<string, unknown>;
}

/** What a cell renderer receives (`list.columns[].cell`). */
export interface CellProps {
  value: unknown;
  row: Record<string, unknown>;
  column: ColumnDecl;
  schema?: FieldSchema;
}

/** What a form override receives (`form.override`): the same contract as the generic modal. */
export interface FormOverrideProps {
  manifest: Manifest;
  role: Role;
  /** null = add, a row = edit (filled from the list row). */
  record: Record<string, unknown> | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
  /** Reopens the form on `record` as it is now (after a stale edit was refused); the list reloads too. */
  onReload?: (record: Record<string, unknown>) => void;
}

export type PaletteToneName = 'success' | 'warning' | 'info' | 'error';

/**
 * Bespoke client pieces, keyed by the name a manifest uses. Each map is merged over the engine's built-ins
 * (an override of the same name wins); a name no map holds fails loudly with the manifest file and path.
 */
export interface OverrideMap {
  screens: Record<string, ComponentType<ScreenOverrideProps>>;
  forms: Record<string, ComponentType<FormOverrideProps>>;
  toolbar: Record<string, ComponentType<ActionOverrideProps>>;
  rowActions: Record<string, ComponentType<ActionOverrideProps>>;
  cells: Record<string, ComponentType<CellProps>>;
  filters: Record<string, ComponentType<FilterInputProps>>;
  tones: Record<string, PaletteToneName>;
}

/** What a filter input kind receives (`list.filters[].widget`). */
export interface FilterInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Enter in the input reloads the list; a select passes its new value (the draft is not updated yet). */
  onSubmit: (value?: string) => void;
  options?: { value: string; label: string }[];
  /** The entity whose records a `lookup` filter offers. */
  lookup?: string;
  /** The field of those records the filter sends (default id). */
  lookupValue?: string;
}
