import CircularProgress from '@mui/material/CircularProgress';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { useEffect, useMemo, useState } from 'react';
import { fetchConfig, hostAllowed } from '../core/app/config';
import { createPanel, PanelContext, type Panel } from '../core/app/panel';
import { language, loadLanguage, t, useLang } from '../core/i18n/i18n';
import { bundledManifests } from '../core/manifest/bundled';
import { checkRegistryNames } from '../registry/check';
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
    Promise.all([fetchConfig(), dictionary]).then(
      ([config]) => {
        if (!live) return;
        if (!hostAllowed(config, window.location.hostname)) return setState({ kind: 'noAccess' });
        try {
          const manifests = bundledManifests();
          checkRegistryNames(manifests, overrides?.names ?? {});
          if (overrides) deferOverrides(overrides);
          setState({ kind: 'ready', panel: createPanel(config, manifests) });
        } catch (e) {
          // A bad manifest or an unknown registry name: say which file and path, loudly.
          setState({ kind: 'broken', message: e instanceof Error ? e.message : String(e) });
        }
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
