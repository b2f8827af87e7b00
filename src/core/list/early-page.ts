// The first page of a role's home list, asked for the moment the login answers, so its rows travel while the
// screen's code loads and draws; the list controller takes the answer instead of asking again. Kept free of SWR
// and the live socket: the login screen imports it.
import { actionOfKind, homeScreen } from '../access/access';
import type { DataProvider, ListResult } from '../http/data-provider';
import type { ActionDecl, Manifest, Role } from '../../../kernel/manifest/types';
import { session } from '../session/session';
import { listStateKey, readListState } from './list-state';
import { parseListQuery, toApiParams } from './list-query';

/** What these calls need of the panel (src/core/app/panel.ts, which asks for the home page at login). */
type Panel = { provider: DataProvider; manifests: { all: readonly Manifest[] } };

/** The parameters (as a key) each fetched page was answered for: its `next` cursor is only good for the page after it. */
export const answeredFor = new WeakMap<object, string>();

/** An early page is taken only this soon after it was asked for: later the screen asks afresh. */
const EARLY_PAGE_MS = 10_000;

/** How long after the list took the early page its answer still stands in for SWR's cache (which it then fills). */
const TAKEN_READY_MS = 2000;

interface Early {
  path: string;
  key: string;
  at: number;
  page: Promise<ListResult<Record<string, unknown>>>;
  /** The page once it has arrived. */
  ready?: ListResult<Record<string, unknown>>;
  takenAt?: number;
}

let early: Early | null = null;

/** One page of a list call, remembered as answered for `key` (see answeredFor); `token` instead of the session's. */
export async function fetchListPage<R>(panel: Panel, action: ActionDecl, params: Record<string, string | number>, key: string, token?: string): Promise<ListResult<R>> {
  const result = await panel.provider.list<R>(action, params, token ? { token } : undefined);
  answeredFor.set(result, key);
  return result;
}

/**
 * Asks for the first page of `manifest`'s list as a screen without route parameters and without anything in its
 * URL shows it (a role's home right after login): in the view the user left it with (list-state.ts), which the
 * screen then restores. A failure is dropped here: the screen then asks itself.
 * @example preloadFirstPage(panel, appinfoManifest, 'customercare')
 */
export function preloadFirstPage(panel: Panel, manifest: Manifest, role: Role, token?: string): Promise<unknown> {
  const listAction = actionOfKind(manifest, 'list', role);
  if (!listAction || Object.keys(manifest.screen?.routeParams ?? {}).length) return Promise.resolve();
  const email = session.get().user?.email;
  const left = email ? readListState(listStateKey(email, manifest.entity)) : '';
  const params = toApiParams(parseListQuery(new URLSearchParams(left), manifest.list));
  const key = JSON.stringify(params);
  const page = fetchListPage<Record<string, unknown>>(panel, listAction[1], params, key, token);
  const entry: Early = { path: listAction[1].path, key, at: Date.now(), page };
  early = entry;
  return page.then(
    (result) => (entry.ready = result),
    () => undefined,
  );
}

/**
 * Asks for the first page of `role`'s home screen, when that screen is a list; answers that page once it has
 * arrived, undefined once it failed (at once when there is none to ask for).
 * @example await preloadHomePage(panel, 'customercare') // the App Info list's first page
 */
export function preloadHomePage(panel: Panel, role: Role, token?: string): Promise<unknown> {
  const screen = homeScreen(panel.manifests.all, role);
  return screen?.list ? preloadFirstPage(panel, screen, role, token) : Promise.resolve();
}

/** The early page of this list call and parameters, once: undefined when there is none, or it is too old. */
export function takeEarlyPage<R>(path: string, key: string): Promise<ListResult<R>> | undefined {
  const found = early;
  if (!found || found.path !== path || found.key !== key || found.takenAt !== undefined) return undefined;
  found.takenAt = Date.now();
  return Date.now() - found.at <= EARLY_PAGE_MS ? (found.page as Promise<ListResult<R>>) : undefined;
}

/**
 * The early page of this list call and parameters once it has arrived, for the screen's first drawing (SWR's
 * fallbackData): the rows are drawn at once, instead of a loading grid that a second drawing fills. Until the list
 * has taken it and a moment after (SWR's cache then holds it); otherwise undefined.
 */
export function earlyPageRows<R>(path: string, key: string): ListResult<R> | undefined {
  const found = early;
  if (!found?.ready || found.path !== path || found.key !== key) return undefined;
  const now = Date.now();
  if (now - found.at > EARLY_PAGE_MS || (found.takenAt !== undefined && now - found.takenAt > TAKEN_READY_MS)) return undefined;
  return found.ready as unknown as ListResult<R>;
}

/**
 * A page asked for at the user's click (next page, page size, sort, filters), before the screen renders with it: the
 * URL commits in a transition and SWR only asks once the screen has rendered, which on a 500-row list took 75-110 ms
 * after the click (traces, issue 14). Taken by the list's fetcher for the same call and parameters within AHEAD_MS;
 * dropped by a reload (a write or a live change since makes it stale).
 */
const ahead = new Map<string, { at: number; page: Promise<ListResult<Record<string, unknown>>> }>();
const AHEAD_MS = 3000;
const aheadKey = (path: string, key: string) => `${path}\n${key}`;

/**
 * Asks for one page of a list call now, for the list's fetcher to take (takeAheadPage) once the screen renders with
 * `key`; `params` may hold the cursor of the page before.
 * @example askAhead(panel, listAction, { page: 2, pageSize: 500, after }, '{"page":2,"pageSize":500}')
 */
export function askAhead(panel: Panel, action: ActionDecl, params: Record<string, string | number>, key: string): void {
  const now = Date.now();
  for (const [k, entry] of ahead) if (now - entry.at > AHEAD_MS) ahead.delete(k);
  const page = fetchListPage<Record<string, unknown>>(panel, action, params, key);
  // A page nobody takes fails quietly; the one the fetcher takes fails there, as its own call would.
  page.catch(() => undefined);
  ahead.set(aheadKey(action.path, key), { at: now, page });
}

/** The page asked ahead for this list call and parameters, once: undefined when there is none, or it is too old. */
export function takeAheadPage<R>(path: string, key: string): Promise<ListResult<R>> | undefined {
  const found = ahead.get(aheadKey(path, key));
  ahead.delete(aheadKey(path, key));
  return found && Date.now() - found.at <= AHEAD_MS ? (found.page as unknown as Promise<ListResult<R>>) : undefined;
}

/** Drops the pages asked ahead for a list call: a write or a change the socket announced makes them stale. */
export function dropAheadPages(path: string): void {
  for (const k of ahead.keys()) if (k.startsWith(`${path}\n`)) ahead.delete(k);
}
