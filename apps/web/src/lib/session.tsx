import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { ENDPOINTS, type SessionReply } from '@diagrodl/contracts';
import { ApiError, callApi } from '@/lib/api-client.ts';

/**
 * The last session reply, kept so that an installed app opened without a connection still knows
 * who is logged in (the server decides again as soon as it answers). Removed on logout.
 */
const SESSION_KEY = 'diagrodl.session';

function rememberSession(reply: SessionReply | null): void {
  try {
    if (reply?.isAuthenticated) localStorage.setItem(SESSION_KEY, JSON.stringify(reply));
    else localStorage.removeItem(SESSION_KEY);
  } catch {
    /* storage unavailable: nothing is remembered */
  }
}

/** A logout made offline: the server ends the session as soon as it answers again. */
const LOGOUT_PENDING_KEY = 'diagrodl.logoutPending';

function flag(key: string, on?: boolean): boolean {
  try {
    if (on === true) localStorage.setItem(key, '1');
    if (on === false) localStorage.removeItem(key);
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function rememberedSession(): SessionReply | null {
  try {
    const v = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null') as SessionReply | null;
    return v?.isAuthenticated && v.user ? v : null;
  } catch {
    return null;
  }
}

/**
 * Fired on window when the logged-in user deleted their account (detail: the user name): what
 * the app keeps of them on the device goes too (diagnosis/device/DeviceSync.tsx listens), and so
 * does the remembered session at once (a tab closed before 'Ir al inicio' would otherwise leave
 * the installed app, opened offline, logged in as the deleted account).
 */
export const ACCOUNT_DELETED = 'diagrodl:account-deleted';

export function announceAccountDeleted(userName: string): void {
  rememberSession(null);
  window.dispatchEvent(new CustomEvent<string>(ACCOUNT_DELETED, { detail: userName }));
}

export interface SessionState {
  status: 'loading' | 'ready';
  isAuthenticated: boolean;
  user: SessionReply['user'] | null;
  /** Takes a session state the server just sent (the login's answer): no second request. */
  accept(session: SessionReply): void;
  /**
   * Asks the server again (a call was refused with 401: the session may have ended); resolves to
   * whether someone is still logged in.
   */
  refresh(): Promise<boolean>;
  logout(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

/** Holds the authentication state: checked with GET /api/session/ on load. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<'loading' | 'ready'>('loading');
  const [reply, setReply] = useState<SessionReply>({ isAuthenticated: false });

  const accept = useCallback((session: SessionReply) => {
    rememberSession(session);
    setReply(session);
    setStatus('ready');
  }, []);

  const refresh = useCallback(async (): Promise<boolean> => {
    try {
      if (flag(LOGOUT_PENDING_KEY)) {
        await callApi(ENDPOINTS.logoutGet);
        flag(LOGOUT_PENDING_KEY, false);
      }
      const session = await callApi(ENDPOINTS.session);
      accept(session);
      return session.isAuthenticated;
    } catch (err) {
      // offline: the last known session (the server checks it again when it answers)
      const offline = err instanceof ApiError && err.status === 0 ? rememberedSession() : null;
      if (!offline) console.error('session check failed', err);
      setReply(offline ?? { isAuthenticated: false });
      return offline !== null;
    } finally {
      setStatus('ready');
    }
  }, [accept]);

  const logout = useCallback(async () => {
    try {
      await callApi(ENDPOINTS.logoutGet);
    } catch (err) {
      console.error('logout failed', err);
      if (err instanceof ApiError && err.status === 0) flag(LOGOUT_PENDING_KEY, true);
    }
    rememberSession(null);
    setReply({ isAuthenticated: false });
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const value = useMemo<SessionState>(
    () => ({
      status,
      isAuthenticated: reply.isAuthenticated,
      user: reply.user ?? null,
      accept,
      refresh,
      logout,
    }),
    [status, reply, accept, refresh, logout],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession must be used inside SessionProvider');
  return ctx;
}

/** The logged-in user, or null (also outside a SessionProvider, e.g. a page rendered alone). */
export function useSessionUser(): SessionReply['user'] | null {
  return useContext(SessionContext)?.user ?? null;
}
