import { RouteFallback } from './RouteFallback';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { guardScreen, homeRoute, screens } from '../core/access/access';
import { usePanel } from '../core/app/panel';
import type { Manifest } from '../../kernel/manifest/types';
import { session } from '../core/session/session';
import { useStore } from '../core/store';
import { notices } from '../core/app/notices';
import { screenFor, Shell } from './panel-code';

const LoginScreen = lazy(() => import('./LoginScreen'));
const NotFound = lazy(() => import('./NotFound'));
const Notices = lazy(() => import('./Notices').then((m) => ({ default: m.Notices })));

/** The last location the guard let through: where a cancelled navigation stays. */
let lastAllowed: string | null = null;

/** SPEC 2 route guard: no login -> /login; wrong role -> the role's home, or the navigation is cancelled. */
function Guard({ manifest, children }: { manifest: Manifest; children: ReactNode }) {
  const { user } = useStore(session);
  const location = useLocation();
  const decision = guardScreen(manifest, user?.role);
  const here = location.pathname + location.search;
  if (decision.kind === 'login') return <Navigate to="/login" replace />;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'cancel') return <Navigate to={lastAllowed && lastAllowed !== here ? lastAllowed : '/'} replace />;
  lastAllowed = here;
  return children;
}

function RequireLogin({ children }: { children: ReactNode }) {
  const { token } = useStore(session);
  return token ? children : <Navigate to="/login" replace />;
}

/** The notice stack, loaded with the first notice or the session (the login screen has none to show). */
function NoticeStack() {
  const list = useStore(notices);
  const { token } = useStore(session);
  if (!token && list.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Notices />
    </Suspense>
  );
}

/**
 * /login for visitors without a session. One who comes with a session goes to `/` at once; after a login on this
 * screen, the screen stays drawn until the role's home is (the navigation is a transition): drawing nothing
 * meanwhile showed a blank page between the two.
 */
function PublicOnly({ children }: { children: ReactNode }) {
  const { token, user } = useStore(session);
  const [hadSession] = useState(() => Boolean(token));
  if (!token) return children;
  if (hadSession) return <Navigate to="/" replace />;
  return (
    <>
      {children}
      <Navigate to={user?.role ? homeRoute(user.role) : '/'} replace />
    </>
  );
}

function screenRoute(m: Manifest) {
  const screen = m.screen!;
  const EntityScreen = screenFor(m);
  return (
    <Route
      key={m.entity}
      index={screen.route === '/' || undefined}
      path={screen.route === '/' ? undefined : screen.route.replace(/^\//, '').replace(/\{(\w+)\}/g, ':$1')}
      element={
        <Guard manifest={m}>
          <EntityScreen manifest={m} />
        </Guard>
      }
    />
  );
}

/** Routes: /login, and one route per manifest with a `screen`; screens without a manifest do not exist yet. */
export function App() {
  const { manifests } = usePanel();
  return (
    <BrowserRouter>
      <Suspense fallback={<RouteFallback />}>
        <Routes>
          <Route
            path="/login"
            element={
              <PublicOnly>
                <LoginScreen />
              </PublicOnly>
            }
          />
          <Route
            element={
              <RequireLogin>
                <Shell />
              </RequireLogin>
            }
          >
            {screens(manifests.all).map(screenRoute)}
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </Suspense>
      <NoticeStack />
    </BrowserRouter>
  );
}
