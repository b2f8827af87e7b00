// The generic forms validate with code compiled at build time (no eval, so the panel's CSP can forbid it): every
// form the manifests can produce has its validator, and a default known only at run time does not break it.
import { describe, expect, it } from 'vitest';
import { actionOfKind } from '../../src/core/access/access';
import { formFields, formJsonSchema, type FormMode } from '../../src/core/form/form-schema';
import { formValidator } from '../../src/core/form/validator';
import { ROLES } from '../../kernel/manifest/types';
import { combinationsFor } from '../../overrides/combination/office-ip';
import { manifest, manifests } from './render';

const schemaOf = (m: ReturnType<typeof manifest>, mode: FormMode, role: (typeof ROLES)[number]) =>
  formJsonSchema(m, formFields(m, mode, role, actionOfKind(m, mode === 'edit' ? 'update' : 'create', role)?.[1]));

describe('precompiled form validators', () => {
  it('exist for every generic form, in both modes and for every role', () => {
    let forms = 0;
    for (const m of manifests().all) {
      if (!m.form?.fields?.length || m.form.override) continue;
      for (const mode of ['create', 'edit'] as FormMode[]) {
        for (const role of ROLES) {
          expect(() => formValidator(schemaOf(m, mode, role)), `${m.entity} ${mode} ${role}`).not.toThrow();
          forms++;
        }
      }
    }
    expect(forms).toBeGreaterThan(40);
  });

  it('validate a form whose default is set at run time (a tester\'s office IP), formats included', () => {
    const shown = combinationsFor(manifest('combination'), 'tester', '10.20.30.40');
    const schema = schemaOf(shown, 'create', 'tester');
    expect((schema.properties as Record<string, { default?: unknown }>).ipAddress.default).toBe('10.20.30.40');
    const validator = formValidator(schema);
    expect(validator.validateFormData({ buildId: 1, ipAddress: '10.20.30.40' }, schema).errors).toEqual([]);
    const bad = validator.validateFormData({ buildId: 1, ipAddress: '10.20.30.400' }, schema).errors;
    expect(bad.map((e) => [e.property, e.name])).toEqual([['.ipAddress', 'format']]);
  });
});
