// The panel's API as react-admin reaches it: every call answers {result, data} or {result: false, message},
// and carries the login's token in the Authorization header (README, "The API in brief").
import { HttpError } from 'react-admin';

const TOKEN_KEY = 'bench.token';

export const token = {
  get: () => localStorage.getItem(TOKEN_KEY),
  set: (value: string) => localStorage.setItem(TOKEN_KEY, value),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/** One call of a manifest (schemas/<entity>.json `actions`): GET and DELETE send the fields as a query string. */
export interface Call {
  method: string;
  path: string;
}

export async function call<T>(action: Call, fields: Record<string, unknown> = {}): Promise<T> {
  const headers: Record<string, string> = {};
  const stored = token.get();
  if (stored) headers.Authorization = stored;
  let url = action.path;
  let body: string | undefined;
  if (action.method === 'GET' || action.method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
    if ([...query].length) url += `?${query}`;
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(fields);
  }
  const response = await fetch(url, { method: action.method, headers, body });
  const answer = (await response.json().catch(() => null)) as { result?: boolean; data?: T; message?: string } | null;
  if (!response.ok || !answer?.result) throw new HttpError(answer?.message ?? response.statusText, response.status, answer);
  return answer.data as T;
}
