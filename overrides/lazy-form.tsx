import { useEffect, useState, type ComponentType } from 'react';
import type { FormOverrideProps } from '../src/registry/override-types';

type Form = ComponentType<FormOverrideProps>;

/**
 * A form override whose code loads when its modal first opens, or before, when the list screen calls `preload`
 * while the browser is idle. Once loaded it is drawn directly: no Suspense boundary, whose fallback would make
 * React 19 hold the form back for ~300 ms (DESIGN 6), and nothing suspends the list behind it.
 * @example forms: { experimentForm: lazyForm(() => import('./experiment/ExperimentForm')) }
 */
export function lazyForm(load: () => Promise<{ default: Form }>): Form & { preload: () => Promise<Form> } {
  let loaded: Form | null = null;
  let loading: Promise<Form> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (m) => (loaded = m.default),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  function LazyForm(props: FormOverrideProps) {
    const [, setReady] = useState(false);
    const [failure, setFailure] = useState<unknown>(null);
    useEffect(() => {
      if (!props.open || loaded) return;
      let live = true;
      preload().then(
        () => live && setReady(true),
        (error: unknown) => live && setFailure(() => error),
      );
      return () => {
        live = false;
      };
    }, [props.open]);
    // A chunk that failed to load reaches the modal's error boundary, as a lazy component's failure did.
    if (failure) throw failure;
    if (!props.open || !loaded) return null;
    const Loaded = loaded;
    return <Loaded {...props} />;
  }
  return Object.assign(LazyForm, { preload });
}
