// The row condition of manifests ({field, equals} / {field, notEquals}): a list's highlight rules in the panel
// and an action's refuseWhen on the server read it the same way.
import { getPath } from '../manifest/fields.ts';
import type { Condition } from '../manifest/types.ts';

/** matches({role: 'admin'}, {field: 'role', equals: 'admin'}) === true; `field` may be a dotted path. */
export function matches(row: unknown, condition: Condition): boolean {
  const value = getPath(row, condition.field);
  if ('equals' in condition) return value === condition.equals;
  if ('notEquals' in condition) return value !== condition.notEquals;
  return false;
}
