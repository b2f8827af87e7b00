import { createContext, useContext } from 'react';
import { createDataProvider, type DataProvider } from '../http/data-provider';
import { language, t, useLang, type Lang } from '../i18n/i18n';
import { fieldsOfCall, localizeManifests } from '../i18n/manifest-texts';
import { onIdle } from '../idle';
import { preloadHomePage } from '../list/early-page';
import { nextRowsDrawn } from '../list/rows-drawn';
import { connectLive, disconnectLive } from '../live/live-store';
import { indexManifests, type ManifestSet } from '../../../kernel/manifest/manifest-set';
import type { Manifest } from '../../../kernel/manifest/types';
import { session, signIn, signOut, type SessionUser } from '../session/session';
import type { PanelConfig } from './config';
import { notify } from './notices';

export interface Panel {
  config: PanelConfig;
  /**
   * The manifests. A visit without a session draws its login screen before they are here (it needs none, and
   * their code is not among its bytes): until loadManifests() has answered, an empty set.
   */
  manifests: ManifestSet;
  /** Fetches the manifests once (again after a failure); answers when `manifests` holds them. */
  loadManifests(): Promise<ManifestSet>;
  provider: DataProvider;
  /**
   * Logs in (loading the manifests meanwhile); the session opens once `beforeOpen` (the home screen's code) and the
   * home list's first page are here, at most FIRST_ROWS_WAIT_MS after the login answered.
   */
  login(email: string, password: string, beforeOpen?: (user: SessionUser, manifests: readonly Manifest[]) => Promise<unknown>): Promise<void>;
  /** Clears the token, the user and the cookies, closes the socket; `revoke` also ends the token on the server. */
  logout(revoke?: boolean): Promise<void>;
}

/** What `manifests` holds before they are loaded. */
const NO_MANIFESTS = indexManifests([], []);

/**
 * The running panel: one data provider, one session, one live socket. A stored token is reused at once.
 * `manifests`: the set, or how to load it (see Panel.manifests).
 * @example const panel = createPanel(await fetchConfig(), () => import('../manifest/bundled').then((m) => m.bundledManifests()))
 */
export function createPanel(config: PanelConfig, manifests: ManifestSet | (() => Promise<ManifestSet>)): Panel {
  let loaded = typeof manifests === 'function' ? undefined : manifests;
  let loading = loaded && Promise.resolve(loaded);
  const loadManifests = () =>
    (loading ??= (manifests as () => Promise<ManifestSet>)().then(
      (set) => (loaded = set),
      (e: unknown) => {
        loading = undefined;
        throw e;
      },
    ));
  // SPEC 8: a 401 while a token is held, or the live socket cut because the session ended, logs out with this notice.
  const sessionEnded = () => {
    if (!session.get().token) return;
    notify({ severity: 'error', title: t('You need to login again'), text: t('Error') });
    void panel.logout(false);
  };
  const provider = createDataProvider({
    baseUrl: config.backendUrl,
    getToken: () => session.get().token,
    onUnauthorized: sessionEnded,
    titlesOf: (path) => fieldsOfCall(localizeManifests(panel.manifests, language.get()), path),
  });

  const panel: Panel = {
    config,
    get manifests() {
      return loaded ?? NO_MANIFESTS;
    },
    loadManifests,
    provider,
    async login(email, password, beforeOpen) {
      try {
        // (Their code not coming is said as a network error, once the login itself has answered.)
        const manifestsHere = loadManifests().catch(() => Promise.reject(new Error(t('Network Error'))));
        void manifestsHere.catch(() => undefined);
        const data = await provider.request<{ token: string; user: SessionUser }>('POST', '/v1/user/login', { email, password });
        const { all } = await manifestsHere;
        // The home list's first page is asked for with the new token, and the session opens once it and the home
        // screen's code are here (at most FIRST_ROWS_WAIT_MS later): the login screen then gives way to the panel
        // with its rows in one frame. A slower page is taken by the screen when it comes.
        const homePage = preloadHomePage(panel, data.user.role, data.token);
        const drawn = nextRowsDrawn();
        const cap = new Promise<void>((resolve) => setTimeout(resolve, ROWS_DRAWN_WAIT_MS));
        firstRows = homePage.then((page) => (page === undefined ? undefined : Promise.race([drawn, cap])));
        const ready = Promise.all([homePage, beforeOpen?.(data.user, all).catch(() => undefined)]);
        await Promise.race([ready, new Promise((resolve) => setTimeout(resolve, FIRST_ROWS_WAIT_MS))]);
        signIn(data.token, data.user);
        // The socket (and its code) comes once those rows are here and drawn, not in their way.
        afterFirstRows(() => {
          if (session.get().token === data.token) void connectLive(config.backendUrl, data.token, sessionEnded);
        });
      } catch (e) {
        signOut();
        throw e;
      }
    },
    async logout(revoke = true) {
      const token = session.get().token;
      disconnectLive();
      signOut();
      if (revoke && token) await provider.request('POST', '/v1/user/logout', {}, 'json', { token }).catch(() => undefined);
    },
  };

  const stored = session.get().token;
  if (stored) void connectLive(config.backendUrl, stored, sessionEnded);
  return panel;
}

/**
 * Runs `work` when the browser is next idle, at the latest after a second. Open lists catch up with what the live
 * socket missed before it connected (its handshake's missedMs), but other live items pushed meanwhile (the build
 * jobs' "Update statuses" messages) are not replayed: the socket should not wait longer.
 */
function whenIdle(work: () => void): void {
  onIdle(work, 1000);
}

/** How long a login waits for its home list's first page before the session opens without it. */
const FIRST_ROWS_WAIT_MS = 300;

/**
 * How long after a login what waits for the home list's rows to be drawn waits at most: a busy machine can take
 * more than a second to draw them (the grid measures its box first), and the socket's code must not come first.
 */
const ROWS_DRAWN_WAIT_MS = 5000;

/**
 * The home list the last login asked for: its first page here and drawn (at most ROWS_DRAWN_WAIT_MS after the login),
 * settled (it never fails); at once when the home screen is no list.
 */
let firstRows: Promise<unknown> = Promise.resolve();

/**
 * Runs `work` (code or a connection the first screen does not need) once the rows the last login asked for are
 * drawn and the browser is next idle (at the latest a second later); without a login, when the browser is next idle.
 * @example afterFirstRows(() => void connectLive(baseUrl, token))
 */
export function afterFirstRows(work: () => void): void {
  void firstRows.then(() => whenIdle(work));
}

export const PanelContext = createContext<Panel | null>(null);

const localized = new WeakMap<Panel, { from: ManifestSet; byLang: Map<Lang, Panel> }>();

/**
 * The panel with its manifests' texts in the current language (one object per language and set of manifests, so
 * it stays stable; a new one once the manifests a login screen drew without have come).
 */
export function usePanel(): Panel {
  const panel = useContext(PanelContext);
  const lang = useLang();
  if (!panel) throw new Error('usePanel() outside <PanelContext.Provider>');
  if (lang === 'en') return panel;
  let cache = localized.get(panel);
  if (cache?.from !== panel.manifests) localized.set(panel, (cache = { from: panel.manifests, byLang: new Map() }));
  let out = cache.byLang.get(lang);
  if (!out) cache.byLang.set(lang, (out = { ...panel, manifests: localizeManifests(panel.manifests, lang) }));
  return out;
}
