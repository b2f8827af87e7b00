import CircularProgress from '@mui/material/CircularProgress';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { useEffect, useMemo, useState } from 'react';
import { fetchConfig, hostAllowed } from '../core/app/config';
import { createPanel, PanelContext, type Panel } from '../core/app/panel';
import { language, loadLanguage, t, useLang } from '../core/i18n/i18n';
import { session } from '../core/session/session';
import { deferOverrides, type DeferredOverrides } from '../registry/installed';
import { App } from './App';
import { useThemeMode } from '../core/theme-mode';
import { themeFor } from './theme';
import { withLocale } from './locale-theme';

type BootState =
  | { kind: 'loading' }
  | { kind: 'configError' }
  | { kind: 'noAccess' }
  | { kind: 'broken'; message: string }
  | { kind: 'ready'; panel: Panel };

/**
 * The bundled manifests' code, a chunk of its own: a visit without a session draws its login screen without it
 * (some 9 kB compressed, a fourteenth of its bytes), and the login screen fetches it while the user types
 * (Panel.manifests).
 */
const manifestsCode = () => import('./checked-manifests');

/** SPEC 1: /config.json first; without it, or on a host outside availableHosts, the page shows one line only. */
export function Boot({ overrides }: { /** The application's bespoke parts: their names now, their code when first needed. */ overrides?: DeferredOverrides }) {
  const [state, setState] = useState<BootState>({ kind: 'loading' });
  const mode = useThemeMode();
  const lang = useLang();
  const theme = useMemo(() => withLocale(themeFor(mode), lang), [mode, lang]);
  useEffect(() => {
    let live = true;
    // The stored language's dictionary loads beside the config, so the first screen already reads in it.
    const dictionary = loadLanguage(language.get()).catch(() => undefined);
    // A visit with a session draws the screens behind the login at once: their manifests come beside the config.
    let early = session.get().token ? manifestsCode() : undefined;
    early?.catch(() => undefined);
    // A bad manifest or an unknown registry name: say which file and path, loudly (instead of any screen).
    const broken = (e: unknown) => live && setState({ kind: 'broken', message: e instanceof Error ? e.message : String(e) });
    const loadManifests = async () => {
      const code = early ?? manifestsCode();
      early = undefined;
      const { checkedManifests } = await code;
      try {
        return checkedManifests(overrides?.names ?? {});
      } catch (e) {
        broken(e);
        throw e;
      } finally {
        // The routes behind the login are drawn afresh, with the manifests' screens.
        if (live) setState((s) => (s.kind === 'ready' ? { ...s } : s));
      }
    };
    Promise.all([fetchConfig(), dictionary]).then(
      async ([config]) => {
        if (!live) return;
        if (!hostAllowed(config, window.location.hostname)) return setState({ kind: 'noAccess' });
        if (overrides) deferOverrides(overrides);
        const panel = createPanel(config, loadManifests);
        if (session.get().token) {
          try {
            await panel.loadManifests();
          } catch {
            // Their code did not come: the same line as a config that did not.
            if (live) setState((s) => (s.kind === 'broken' ? s : { kind: 'configError' }));
            return;
          }
        }
        if (live) setState({ kind: 'ready', panel });
      },
      () => void dictionary.then(() => live && setState({ kind: 'configError' })),
    );
    return () => {
      live = false;
    };
  }, [overrides]);

  if (state.kind === 'configError') return <div style={bare}>{t('Error while fetching config')}</div>;
  if (state.kind === 'noAccess') return <div style={bare}>Нет доступа!</div>;
  if (state.kind === 'broken') return <pre style={{ ...bare, color: '#b00020', whiteSpace: 'pre-wrap' }}>{state.message}</pre>;
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {state.kind === 'loading' ? (
        <div style={{ display: 'grid', placeItems: 'center', height: '100vh' }}>
          <CircularProgress aria-label={t('Loading')} />
        </div>
      ) : (
        // A switch of language draws the panel afresh, so every text is read again in the new language.
        <PanelContext.Provider value={state.panel} key={lang}>
          <App />
        </PanelContext.Provider>
      )}
    </ThemeProvider>
  );
}

const bare = { fontFamily: 'system-ui, sans-serif', fontSize: 20, padding: 32 } as const;
