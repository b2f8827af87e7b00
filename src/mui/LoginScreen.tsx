import LockOutlined from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { version } from '../../package.json';
import { usePanel } from '../core/app/panel';
import { errorCodeOf } from '../core/http/http-error';
import { useT } from '../core/i18n/i18n';
import { LanguageSwitch } from './LanguageSwitch';
import { prefetchPanel, preloadHomeScreen, preloadPanelCode } from './panel-code';
import { PANEL_NAME } from './theme';

/**
 * An outlined text field as MUI's TextField draws it (root, label, input and their classes), from its parts only:
 * TextField also brings the select and the other variants, which the first screen would download for nothing.
 */
function LoginField({ label, value, onChange, autoFocus, ...input }: { label: string; value: string; onChange: (value: string) => void; autoFocus?: boolean; type: string; name: string; autoComplete: string }) {
  const id = useId();
  return (
    <FormControl className="MuiTextField-root" variant="outlined" required fullWidth margin="normal">
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput id={id} label={label} fullWidth value={value} onChange={(e) => onChange(e.target.value)} autoFocus={autoFocus} {...input} />
    </FormControl>
  );
}

/** SPEC 2 Login: e-mail and password required, a spinner while pending, a red alert on failure, then `/`. */
export default function LoginScreen() {
  const panel = usePanel();
  const t = useT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The code behind the login and the manifests download while the user types, once this screen is drawn; then the
  // screens a login lands on are rehearsed, hidden, so the first one after the login draws fast (rehearsal.tsx).
  // A login stops the rehearsal: the real drawing must not wait behind it.
  const theme = useTheme();
  const stopAhead = useRef(() => {});
  useEffect(
    () =>
      (stopAhead.current = prefetchPanel(
        panel.loadManifests,
        typeof requestIdleCallback === 'function' ? () => import('./rehearsal').then((m) => m.rehearseHomes(panel, theme)) : undefined,
      )),
    [panel, theme],
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    stopAhead.current();
    // The code behind the login travels while the server checks the password.
    preloadPanelCode();
    setPending(true);
    setError(null);
    try {
      // The session opens once the home screen's code and first rows are here; the route then goes straight to
      // the role's home (App's PublicOnly), this screen staying drawn until it is.
      await panel.login(email, password, (user, manifests) => preloadHomeScreen(manifests, user.role));
    } catch (e) {
      // At the login a 401 means a wrong e-mail or password (docs/manifests.md), not a missing session.
      setError(errorCodeOf(e) === 'ERR_AUTH' ? t('Wrong e-mail or password') : e instanceof Error && e.message ? e.message : t('Network Error'));
      setPending(false);
    }
  }

  return (
    // The page is its `main` landmark (every page has one, WCAG 1.3.1); in dark mode it keeps the dark background,
    // against which the language button's light blue is drawn.
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', px: 2, background: theme.palette.mode === 'dark' ? theme.palette.background.default : 'linear-gradient(160deg, #eef2ff 0%, #f4f6fb 60%)' }}
    >
      <Box sx={{ position: 'fixed', top: 12, right: 12 }}>
        <LanguageSwitch color="primary" />
      </Box>
      <Paper variant="outlined" sx={{ p: 4, width: '100%', maxWidth: 400 }} component="form" onSubmit={submit}>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 3 }}>
          {/* A lock in a circle, as MUI's Avatar draws it (whose code the first screen would download for this alone). */}
          <Box sx={{ width: 40, height: 40, borderRadius: '50%', display: 'flex', alignItems: 'center', justifyContent: 'center', flexShrink: 0, bgcolor: 'primary.main', color: 'background.default', mb: 1 }}>
            <LockOutlined />
          </Box>
          <Typography variant="h5" component="h1">
            {t('Sign in')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {PANEL_NAME} {version}
          </Typography>
        </Box>
        {error && (
          <Alert severity="error" variant="filled" sx={{ mb: 2 }} data-testid="login-error">
            {error}
          </Alert>
        )}
        <LoginField label={t('E-mail')} type="email" name="email" autoComplete="username" autoFocus value={email} onChange={setEmail} />
        <LoginField label={t('Password')} type="password" name="password" autoComplete="current-password" value={password} onChange={setPassword} />
        <Box sx={{ mt: 3, height: 42, display: 'grid', placeItems: 'center' }}>
          {pending ? (
            <CircularProgress size={32} aria-label={t('Logging in')} />
          ) : (
            <Button type="submit" variant="contained" size="large" fullWidth>
              {t('Login', { context: 'button' })}
            </Button>
          )}
        </Box>
      </Paper>
    </Box>
  );
}
