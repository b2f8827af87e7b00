import { lazy, Suspense } from 'react';
import type { FormOverrideProps } from '../../src/registry/override-types';

const WhitelabelForm = lazy(() => import('./WhitelabelForm'));

/** Loads the form's code when the modal first opens, without suspending the list behind it. */
export default function LazyWhitelabelForm(props: FormOverrideProps) {
  return <Suspense fallback={null}>{props.open && <WhitelabelForm {...props} />}</Suspense>;
}
