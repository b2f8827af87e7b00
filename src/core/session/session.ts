import type { Role } from '../../../kernel/manifest/types';
import { readStored, writeStored } from '../storage';
import { createStore } from '../store';

export interface SessionUser {
  id?: number;
  email: string;
  role: Role;
}

export interface SessionState {
  token: string | null;
  user: SessionUser | null;
}

const TOKEN_KEY = 'token';
const USER_KEY = 'user';
/** SPEC 9: the Authorization cookie lives one year. */
export const AUTH_COOKIE_MAX_AGE = 31536000;

function storedSession(): SessionState {
  try {
    const token = readStored(TOKEN_KEY);
    const user = JSON.parse(readStored(USER_KEY) ?? 'null') as SessionUser | null;
    return token && user ? { token, user } : { token: null, user: null };
  } catch {
    return { token: null, user: null };
  }
}

/** Expires every cookie the panel's path can see (logout clears "the cookies", SPEC 4). */
export function clearCookies(doc: Document = document): void {
  for (const part of doc.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) doc.cookie = `${name}=; max-age=0; path=/`;
  }
}

/** The logged-in token and user, persisted in localStorage and mirrored in the year-long Authorization cookie. */
export const session = createStore<SessionState>(storedSession());

export function signIn(token: string, user: SessionUser): void {
  // Storage turned off or full: the session lasts for this visit (the cookie still goes).
  writeStored(TOKEN_KEY, token);
  writeStored(USER_KEY, JSON.stringify(user));
  document.cookie = `Authorization=${encodeURIComponent(token)}; max-age=${AUTH_COOKIE_MAX_AGE}; path=/; SameSite=Lax`;
  session.set({ token, user });
}

export function signOut(): void {
  writeStored(TOKEN_KEY, null);
  writeStored(USER_KEY, null);
  clearCookies();
  session.set({ token: null, user: null });
}

/** Re-reads localStorage (tests and a second tab logging out). */
export function reloadSession(): void {
  session.set(storedSession());
}
