// Modules that build plugins generate (vite.config.ts).
declare module 'virtual:form-validators' {
  import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
  /** The compiled validate functions of each generic form, by the hash of its root schema. */
  export const validators: Record<string, ValidatorFunctions>;
}
