// The first page of a role's home list, asked for the moment the login answers, so its rows travel while the
// screen's code loads and draws; the list controller takes the answer instead of asking again. Kept free of SWR
// and the live socket: the login screen imports it.
import { actionOfKind, HOME_BY_ROLE } from '../access/access';
import type { DataProvider, ListResult } from '../http/data-provider';
import type { ActionDecl, Manifest, Role } from '../../../kernel/manifest/types';
import { parseListQuery, toApiParams } from './list-query';

/** What these calls need of the panel (src/core/app/panel.ts, which asks for the home page at login). */
type Panel = { provider: DataProvider; manifests: { all: readonly Manifest[] } };

/** The parameters (as a key) each fetched page was answered for: its `next` cursor is only good for the page after it. */
export const answeredFor = new WeakMap<object, string>();

/** An early page is taken only this soon after it was asked for: later the screen asks afresh. */
const EARLY_PAGE_MS = 10_000;

let early: { path: string; key: string; at: number; page: Promise<ListResult<Record<string, unknown>>> } | null = null;

/** One page of a list call, remembered as answered for `key` (see answeredFor). */
export async function fetchListPage<R>(panel: Panel, action: ActionDecl, params: Record<string, string | number>, key: string): Promise<ListResult<R>> {
  const result = await panel.provider.list<R>(action, params);
  answeredFor.set(result, key);
  return result;
}

/**
 * Asks for the first page of `manifest`'s list as a screen without route parameters and without anything in its
 * URL shows it (a role's home right after login). A failure is dropped here: the screen then asks itself.
 * @example preloadFirstPage(panel, appinfoManifest, 'customercare')
 */
export function preloadFirstPage(panel: Panel, manifest: Manifest, role: Role): Promise<unknown> {
  const listAction = actionOfKind(manifest, 'list', role);
  if (!listAction || Object.keys(manifest.screen?.routeParams ?? {}).length) return Promise.resolve();
  const params = toApiParams(parseListQuery(new URLSearchParams(), manifest.list));
  const key = JSON.stringify(params);
  const page = fetchListPage<Record<string, unknown>>(panel, listAction[1], params, key);
  early = { path: listAction[1].path, key, at: Date.now(), page };
  return page.catch(() => undefined);
}

/**
 * Asks for the first page of `role`'s home screen, when that screen is a list; answers once that page has arrived
 * or failed (at once when there is none to ask for).
 * @example await preloadHomePage(panel, 'customercare') // the App Info list's first page
 */
export function preloadHomePage(panel: Panel, role: Role): Promise<unknown> {
  const home = HOME_BY_ROLE[role] || '/';
  const screen = panel.manifests.all.find((m) => m.screen?.route === home && m.list);
  return screen ? preloadFirstPage(panel, screen, role) : Promise.resolve();
}

/** The early page of this list call and parameters, once: undefined when there is none, or it is too old. */
export function takeEarlyPage<R>(path: string, key: string): Promise<ListResult<R>> | undefined {
  const found = early;
  if (!found || found.path !== path || found.key !== key) return undefined;
  early = null;
  return Date.now() - found.at <= EARLY_PAGE_MS ? (found.page as Promise<ListResult<R>>) : undefined;
}
