// The shape of one schemas/<entity>.json file. The types come from kernel/manifest/generated.ts, which
// scripts/build/manifest-types.ts writes from schemas/manifest.schema.json (the authority) and
// schemas/roles.json; only the names below are added here, as views of those types. See docs/manifests.md.
import type { ActionDecl, FilterDecl, HighlightRule } from './generated.ts';

export type {
  ActionDecl,
  ColumnDecl,
  Condition,
  FieldSchema,
  FieldUi,
  FileRule,
  FilterDecl,
  FormDecl,
  HighlightRule,
  ListDecl,
  LiveDecl,
  Manifest,
  MenuDecl,
  RecordSchema,
  Relation,
  Role,
  ScreenDecl,
  StorageDecl,
} from './generated.ts';
export { ROLES } from '../roles.ts';

export type Tone = HighlightRule['tone'];
export type FilterOp = FilterDecl['op'];
export type ActionKind = ActionDecl['kind'];
export type HttpMethod = ActionDecl['method'];
