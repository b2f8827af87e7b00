import type { CustomValidator, ErrorTransformer, FormContextType, RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils';
import { hashForSchema } from '@rjsf/utils';
// The precompiled validator alone: the package's index would also bring ajv's compiler, which needs eval.
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import { validators } from 'virtual:form-validators';
import { validationSchema } from './form-schema';

type Values = Record<string, unknown>;
type FormValidator = ValidatorType<Values, RJSFSchema, FormContextType>;

/**
 * A precompiled validator that is handed the form's schemas without their annotations, the shape it was
 * compiled from, so a default set at run time does not make the schema unknown.
 */
class AnnotationFreeValidator implements FormValidator {
  constructor(private readonly inner: FormValidator) {}

  validateFormData(formData: Values | undefined, schema: RJSFSchema, customValidate?: CustomValidator<Values>, transformErrors?: ErrorTransformer<Values>, uiSchema?: UiSchema<Values>) {
    return this.inner.validateFormData(formData, validationSchema(schema), customValidate, transformErrors, uiSchema);
  }

  isValid(schema: RJSFSchema, formData: Values | undefined, rootSchema: RJSFSchema) {
    return this.inner.isValid(validationSchema(schema), formData, validationSchema(rootSchema));
  }

  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: Values) {
    return this.inner.rawValidation<Result>(validationSchema(schema), formData);
  }
}

const cache = new Map<string, FormValidator>();

/**
 * The validator of one generic form, compiled at build time from the manifests (scripts/build/form-validators.ts),
 * so validating never evaluates code and the panel runs under a CSP without 'unsafe-eval'.
 * @example <Form schema={schema} validator={formValidator(schema)} />
 */
export function formValidator(schema: RJSFSchema): FormValidator {
  const compiled = validationSchema(schema);
  const key = hashForSchema(compiled);
  let validator = cache.get(key);
  if (!validator) {
    const functions = validators[key];
    if (!functions) throw new Error(`No precompiled validator for the form schema ${key}: the manifests changed after the panel was built; build it again`);
    validator = new AnnotationFreeValidator(createPrecompiledValidator<Values>(functions, compiled));
    cache.set(key, validator);
  }
  return validator;
}
