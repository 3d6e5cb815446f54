import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '@diagrodl/contracts';
import { isHttps } from '../../lib/https.ts';
import { nowIso, randomToken, sha256 } from '../../lib/tokens.ts';
import type { SessionRepository } from './session.repository.ts';

/** A session that ends with the browser still expires on the server after this long idle. */
const BROWSER_SESSION_MS = 12 * 60 * 60 * 1000;
/** 'Remember me': 30 days idle. */
const PERSISTENT_SESSION_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * The expiry slides with activity, but is written back (and a remembered cookie re-sent) only
 * once this much of the lifetime has gone by since the last write, not on every request.
 */
const SESSION_REFRESH_MS = 5 * 60 * 1000;

function lifetimeMs(persistent: boolean): number {
  return persistent ? PERSISTENT_SESSION_MS : BROWSER_SESSION_MS;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user's id, or null for a visitor. */
    userId: number | null;
    sessionId: string | null;
  }
}

/**
 * Server-side sessions kept in the database, so several server processes can share them.
 * The cookie holds a random token; the table holds only its sha256.
 */
export class Sessions {
  constructor(private readonly repo: SessionRepository) {}

  register(app: FastifyInstance): void {
    app.decorateRequest('userId', null);
    app.decorateRequest('sessionId', null);
    app.addHook('onRequest', async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (!token || token.length > 200) return;
      const now = Date.now();
      const row = await this.repo.findLive(sha256(token), nowIso(new Date(now)));
      if (!row) return;
      request.userId = row.user_id;
      request.sessionId = row.id;
      const ttl = lifetimeMs(row.persistent === 1);
      if (Date.parse(row.expires_at) - now < ttl - SESSION_REFRESH_MS) {
        const expires = new Date(now + ttl);
        await this.repo.touch(row.id, nowIso(expires));
        if (row.persistent === 1) this.setCookie(request, reply, token, expires);
      }
    });
  }

  /** The session cookie; `expires` only for 'remember me' (otherwise it ends with the browser). */
  private setCookie(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    expires: Date | undefined,
  ): void {
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: isHttps(request),
      ...(expires ? { expires } : {}),
    });
  }

  /** Starts a fresh session for the user (a new id every login: no session fixation). */
  async start(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    remember: boolean,
  ): Promise<void> {
    if (request.sessionId) await this.repo.delete(request.sessionId);
    const token = randomToken();
    const ttl = lifetimeMs(remember);
    const expires = new Date(Date.now() + ttl);
    const id = sha256(token);
    await this.repo.insert({
      id,
      user_id: userId,
      created_at: nowIso(),
      expires_at: nowIso(expires),
      persistent: remember ? 1 : 0,
    });
    request.userId = userId;
    request.sessionId = id;
    this.setCookie(request, reply, token, remember ? expires : undefined);
  }

  /** Ends the session on the server: the old cookie no longer works anywhere. */
  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.sessionId) await this.repo.delete(request.sessionId);
    request.userId = null;
    request.sessionId = null;
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  /** Ends every other session of the user (after a password change or reset). */
  async endOthers(userId: number, keepSessionId: string | null): Promise<void> {
    await this.repo.deleteForUser(userId, keepSessionId ?? undefined);
  }

  async purgeExpired(): Promise<void> {
    await this.repo.deleteExpired(nowIso());
  }
}
