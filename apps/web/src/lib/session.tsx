import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import type { SessionReply } from '@diagrodl/contracts';
import { apiGet } from '@/lib/api-client.ts';

export interface SessionState {
  status: 'loading' | 'ready';
  isAuthenticated: boolean;
  user: SessionReply['user'] | null;
  refresh(): Promise<void>;
  logout(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

/** Holds the authentication state: checked with GET /api/session/ on load. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<'loading' | 'ready'>('loading');
  const [reply, setReply] = useState<SessionReply>({ isAuthenticated: false });

  const refresh = useCallback(async () => {
    try {
      setReply(await apiGet<SessionReply>('/api/session/'));
    } catch (err) {
      console.error('session check failed', err);
      setReply({ isAuthenticated: false });
    } finally {
      setStatus('ready');
    }
  }, []);

  const logout = useCallback(async () => {
    try {
      await apiGet('/api/logout/');
    } catch (err) {
      console.error('logout failed', err);
    }
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
      refresh,
      logout,
    }),
    [status, reply, refresh, logout],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession must be used inside SessionProvider');
  return ctx;
}
