import type { FormContextType, RJSFSchema, ValidatorType } from '@rjsf/utils';
import { hashForSchema } from '@rjsf/utils';
// The precompiled validator alone: the package's index would also bring ajv's compiler, which needs eval.
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import { validators } from 'virtual:form-validators';

type Values = Record<string, unknown>;
const cache = new Map<string, ValidatorType<Values, RJSFSchema, FormContextType>>();

/**
 * The validator of one generic form, compiled at build time from the manifests (scripts/build/form-validators.ts),
 * so validating never evaluates code and the panel runs under a CSP without 'unsafe-eval'.
 * @example <Form schema={schema} validator={formValidator(schema)} />
 */
export function formValidator(schema: RJSFSchema): ValidatorType<Values, RJSFSchema, FormContextType> {
  const key = hashForSchema(schema);
  let validator = cache.get(key);
  if (!validator) {
    const functions = validators[key];
    if (!functions) throw new Error(`No precompiled validator for the form schema ${key}: the manifests changed after the panel was built; build it again`);
    validator = createPrecompiledValidator<Values>(functions, schema);
    cache.set(key, validator);
  }
  return validator;
}
