import ExpandMore from '@mui/icons-material/ExpandMore';
import Logout from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { Fragment, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Link as RouterLink, Outlet, useLocation, useNavigate } from 'react-router';
import { version } from '../../package.json';
import { isGenericList, menuFor, screenAt, type MenuEntry, type MenuGroup, type MenuLink } from '../core/access/access';
import { afterFirstRows, usePanel } from '../core/app/panel';
import { preloadFirstPage } from '../core/list/early-page';
import { session } from '../core/session/session';
import { useStore } from '../core/store';
import { useLang, useT } from '../core/i18n/i18n';
import { RouteFallback } from './RouteFallback';
import { KeyboardShortcuts } from './KeyboardShortcuts';
import { ThemeMenu } from './ThemeMenu';
import { LanguageSwitch } from './LanguageSwitch';
import { PANEL_NAME } from './theme';
import { withGridLocale } from './grid-locale';
import { preloadLaterModules } from './later/later';
import { RippleWarmUp } from './RippleWarmUp';

// The current screen's entry: a darker box and a white underline. A lighter box (white at 16%) left its white text at
// 4.36:1 on the brand blue, under the 4.5:1 of WCAG AA; the darker one keeps it above 7:1 in both modes.
const navButton = { color: 'inherit', px: 1, minWidth: 0, flexShrink: 0, whiteSpace: 'nowrap', opacity: 0.85, '& .MuiButton-endIcon': { ml: 0.25 }, '&.active': { opacity: 1, bgcolor: 'rgba(0,0,0,0.22)', boxShadow: 'inset 0 -2px 0 #fff' } } as const;

/**
 * The first stop of the keyboard on every screen: "Skip to content", out of sight until focused, moves the focus to
 * the screen (the `main` landmark) past the bar and its menu (WCAG 2.4.1).
 */
function SkipLink() {
  const t = useT();
  return (
    <Box
      component="a"
      href="#content"
      onClick={(e: MouseEvent) => {
        e.preventDefault();
        document.getElementById('content')?.focus();
      }}
      sx={{
        position: 'absolute',
        left: 8,
        top: 8,
        zIndex: 'tooltip',
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'primary.main',
        fontWeight: 600,
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      {t('Skip to content')}
    </Box>
  );
}

/**
 * What a menu link does on its click besides navigating: it asks for its screen's first page at once (early-page.ts
 * preloadFirstPage, as the login does for the home list). The route commits in a transition and the screen would ask
 * only once it had rendered, cold the first time; the rows now travel meanwhile.
 */
function useOpenScreen(): (route: string, click: MouseEvent) => void {
  const panel = usePanel();
  const { pathname } = useLocation();
  const role = useStore(session).user?.role;
  return useCallback(
    (route: string, click: MouseEvent) => {
      // A click that opens the link elsewhere (a new tab or window) leaves this screen where it is.
      if (route === pathname || !role || click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return;
      const manifest = screenAt(panel.manifests.all, route);
      if (isGenericList(manifest)) void preloadFirstPage(panel, manifest, role);
    },
    [panel, pathname, role],
  );
}

function NavLinkButton({ link }: { link: MenuLink }) {
  const { pathname } = useLocation();
  const open = useOpenScreen();
  return (
    <Button component={RouterLink} to={link.route} className={pathname === link.route ? 'active' : undefined} sx={navButton} onClick={(e) => open(link.route, e)}>
      {link.label}
    </Button>
  );
}

function NavGroup({ group }: { group: MenuGroup }) {
  const { pathname } = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = useOpenScreen();
  const active = group.items.some((i) => i.route === pathname);
  return (
    <>
      <Button
        sx={navButton}
        className={active ? 'active' : undefined}
        endIcon={<ExpandMore />}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {group.label}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {group.items.map((item) => (
          <MenuItem
            key={item.route}
            component={RouterLink}
            to={item.route}
            selected={item.route === pathname}
            onClick={(e) => {
              open(item.route, e);
              setAnchor(null);
            }}
          >
            {item.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** The entries that did not fit on the bar, under one "More" button: groups as headed sections of one menu. */
function MoreMenu({ entries }: { entries: MenuEntry[] }) {
  const { pathname } = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const links = entries.flatMap((e) => (e.kind === 'group' ? e.items : [e]));
  const t = useT();
  const open = useOpenScreen();
  const choose = (route: string, click: MouseEvent) => {
    open(route, click);
    setAnchor(null);
  };
  return (
    <>
      <Button
        sx={navButton}
        className={links.some((l) => l.route === pathname) ? 'active' : undefined}
        startIcon={<MenuIcon />}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {t('More')}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {entries.map((entry) =>
          entry.kind === 'group' ? (
            <Fragment key={entry.label}>
              <ListSubheader sx={{ lineHeight: '32px' }}>{entry.label}</ListSubheader>
              {entry.items.map((item) => (
                <MenuItem key={item.route} component={RouterLink} to={item.route} selected={item.route === pathname} onClick={(e) => choose(item.route, e)} sx={{ pl: 3 }}>
                  {item.label}
                </MenuItem>
              ))}
            </Fragment>
          ) : (
            <MenuItem key={entry.route} component={RouterLink} to={entry.route} selected={entry.route === pathname} onClick={(e) => choose(entry.route, e)}>
              {entry.label}
            </MenuItem>
          ),
        )}
      </Menu>
    </>
  );
}

/** Room kept for the "More" button when the menu does not fit. */
const MORE_WIDTH = 96;

/**
 * The role's menu on one line: the entries that fit stay on the bar, the rest go under "More" (measured on a
 * hidden copy of the whole bar, again whenever the bar's width changes), so every screen is reachable at any width.
 */
function MainMenu({ menu }: { menu: MenuEntry[] }) {
  const nav = useRef<HTMLDivElement>(null);
  const ruler = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(menu.length);
  const t = useT();
  useLayoutEffect(() => {
    const bar = nav.current;
    const copy = ruler.current;
    if (!bar || !copy) return;
    const fit = () => {
      const widths = [...copy.children].map((child) => child.getBoundingClientRect().width + 2);
      const room = bar.clientWidth;
      if (widths.reduce((a, b) => a + b, 0) <= room) return setShown(widths.length);
      let used = MORE_WIDTH;
      let count = 0;
      while (count < widths.length && used + widths[count] <= room) used += widths[count++];
      setShown(count);
    };
    if (typeof ResizeObserver === 'undefined') return void fit();
    // The observer's first call comes after the frame's own layout and before its paint: measuring there costs no
    // layout of its own (measuring here, in the commit, laid the whole page out an extra time on the login's path);
    // flushSync draws the fitted menu in that same frame.
    const observer = new ResizeObserver(() => flushSync(fit));
    observer.observe(bar);
    observer.observe(copy);
    return () => observer.disconnect();
  }, [menu]);
  const draw = (entry: MenuEntry) => (entry.kind === 'group' ? <NavGroup key={entry.label} group={entry} /> : <NavLinkButton key={entry.route} link={entry} />);
  return (
    <Box ref={nav} component="nav" aria-label={t('Main menu')} sx={{ display: 'flex', gap: 0.25, flexWrap: 'nowrap', flexGrow: 1, minWidth: 0, overflow: 'hidden', position: 'relative' }}>
      {menu.slice(0, shown).map(draw)}
      {shown < menu.length && <MoreMenu entries={menu.slice(shown)} />}
      {/* A zero-size clipping box: the copy keeps its natural width for measuring but never makes the bar scrollable. */}
      <Box aria-hidden="true" sx={{ position: 'absolute', top: 0, left: 0, width: 0, height: 0, overflow: 'hidden', visibility: 'hidden', pointerEvents: 'none' }}>
        <Box ref={ruler} sx={{ display: 'flex', gap: 0.25, width: 'max-content' }}>
          {menu.map((entry) => (
            <Button key={entry.label} sx={navButton} tabIndex={-1} endIcon={entry.kind === 'group' ? <ExpandMore /> : undefined}>
              {entry.label}
            </Button>
          ))}
        </Box>
      </Box>
    </Box>
  );
}

interface ShellFrameProps {
  menu: MenuEntry[];
  email: string | undefined;
  onLogout(): void;
  children: ReactNode;
  /** false where the page already shows one (the login screen under a rehearsal): one language switch a page. */
  languageSwitch?: boolean;
}

/** The bar ("<panel name> <version>", the menu, the user's e-mail, Logout) above the screen it frames. */
export function ShellFrame({ menu, email, onLogout, children, languageSwitch = true }: ShellFrameProps) {
  const t = useT();
  const lang = useLang();
  const gridTheme = useCallback((outer: Theme) => withGridLocale(outer, lang), [lang]);
  return (
    <ThemeProvider theme={gridTheme}>
      <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
        <SkipLink />
        <AppBar component="header" position="sticky" color="primary">
          <Toolbar sx={{ gap: 1, flexWrap: 'nowrap', minWidth: 0 }}>
            <Typography component={RouterLink} to="/" variant="h6" sx={{ color: 'inherit', textDecoration: 'none', mr: 1, fontSize: 18, fontWeight: 700, whiteSpace: 'nowrap' }}>
              {PANEL_NAME} {version}
            </Typography>
            {/* One line at any width: what does not fit goes under "More" rather than out of sight. */}
            <MainMenu menu={menu} />
            <Typography variant="body2" data-testid="user-email" noWrap title={email} sx={{ opacity: 0.9, maxWidth: 220, minWidth: 60, flexShrink: 1 }}>
              {email}
            </Typography>
            <ThemeMenu />
            {languageSwitch && <LanguageSwitch />}
            <Divider orientation="vertical" flexItem sx={{ borderColor: 'rgba(255,255,255,0.3)', mx: 1 }} />
            <Button color="inherit" startIcon={<Logout />} sx={{ flexShrink: 0 }} onClick={onLogout}>
              {t('Logout')}
            </Button>
          </Toolbar>
        </AppBar>
        <Box component="main" id="content" tabIndex={-1} sx={{ flexGrow: 1, p: { xs: 1.5, md: 3 }, maxWidth: 1600, width: '100%', mx: 'auto', '&:focus': { outline: 'none' } }}>
          {children}
        </Box>
      </Box>
    </ThemeProvider>
  );
}

/** The app shell: the frame with the role's menu from the manifests, and the route's screen in it. */
export default function Shell() {
  const panel = usePanel();
  const navigate = useNavigate();
  const { user } = useStore(session);
  const role = user?.role;
  const menu = useMemo(() => (role ? menuFor(panel.manifests.all, role) : []), [panel.manifests, role]);
  // The poppers, menus and panels nothing shows yet come once the first rows are drawn, so their first opening does not wait.
  useEffect(() => afterFirstRows(preloadLaterModules), []);
  const logout = useCallback(async () => {
    await panel.logout();
    navigate('/login', { replace: true });
  }, [panel, navigate]);
  return (
    <>
      <ShellFrame menu={menu} email={user?.email} onLogout={logout}>
        <Suspense fallback={<RouteFallback />}>
          <Outlet />
        </Suspense>
      </ShellFrame>
      <KeyboardShortcuts />
      <RippleWarmUp />
    </>
  );
}
