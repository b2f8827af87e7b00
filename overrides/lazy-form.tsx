import { lazy, Suspense, type ComponentType } from 'react';
import type { FormOverrideProps } from '../src/registry/override-types';

/**
 * A form override whose code loads when its modal first opens, without suspending the list behind it.
 * @example forms: { experimentForm: lazyForm(() => import('./experiment/ExperimentForm')) }
 */
export function lazyForm(load: () => Promise<{ default: ComponentType<FormOverrideProps> }>): ComponentType<FormOverrideProps> {
  const Form = lazy(load);
  return function LazyForm(props: FormOverrideProps) {
    return <Suspense fallback={null}>{props.open && <Form {...props} />}</Suspense>;
  };
}
