// Login with POST /v1/user/login (the e-mail goes in react-admin's username field); the token it answers is
// sent in the Authorization header of every call until logout or a 401.
import type { AuthProvider } from 'react-admin';
import { call, token } from './api';

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    const data = await call<{ token: string }>({ method: 'POST', path: '/v1/user/login' }, { email: username, password });
    token.set(data.token);
  },
  async logout() {
    if (token.get()) await call({ method: 'POST', path: '/v1/user/logout' }).catch(() => undefined);
    token.clear();
  },
  async checkAuth() {
    if (!token.get()) throw new Error('Not logged in');
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      token.clear();
      throw error;
    }
  },
};
