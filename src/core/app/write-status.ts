import { useCallback, useState } from 'react';
import { isCancelled, writeErrorText } from '../http/http-error';
import { notify } from './notices';
import { t } from '../i18n/i18n';

export type WriteStatus = 'empty' | 'pending' | 'success' | 'error';

/**
 * One write request's state (SPEC 4): empty -> pending -> success | error, with the notices of the spec.
 * `run` resolves true on success and false on failure (the error text stays in `error`) or on the user's Cancel
 * of the request (back to empty, with a polite notice); `detail` may turn the
 * answer into a second line of the Success notice ("Deleted 12 builds; kept 3 used by combinations: ...").
 * @example const write = useWrite('Add'); await write.run(() => provider.call(action, values));
 */
export function useWrite(label: string) {
  const [status, setStatus] = useState<WriteStatus>('empty');
  const [error, setError] = useState<string | null>(null);
  /** The last failure itself (an HttpError), for callers that act on its kind: a stale edit offers a reload. */
  const [failure, setFailure] = useState<unknown>(null);
  const run = useCallback(
    async (fn: () => Promise<unknown>, detail?: (answer: unknown) => string | undefined): Promise<boolean> => {
      setStatus('pending');
      setError(null);
      setFailure(null);
      try {
        const answer = await fn();
        setStatus('success');
        notify({ severity: 'success', title: t('{label} request status', { label }), text: t('Success'), detail: detail?.(answer) });
        return true;
      } catch (e) {
        const text = writeErrorText(e);
        if (isCancelled(e)) {
          // The user's own Cancel is no failure: the form is as it was before OK, and the notice is polite.
          setStatus('empty');
          notify({ severity: 'info', title: t('{label} request status', { label }), text });
          return false;
        }
        setStatus('error');
        setError(text);
        setFailure(e);
        notify({ severity: 'error', title: t('{label} request status', { label }), text });
        return false;
      }
    },
    [label],
  );
  const reset = useCallback(() => {
    setStatus('empty');
    setError(null);
    setFailure(null);
  }, []);
  return { status, error, failure, run, reset };
}
