// The request log never holds a query string's values: the e-mailed reset link
// (/Reset_password?token=…) is a page load of the web app, logged like any request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { loggedUrl } from './request-log.ts';

describe('request log', () => {
  it('keeps the path and the names of the query, not its values', () => {
    expect(loggedUrl('/api/health')).toBe('/api/health');
    expect(loggedUrl('/Reset_password?token=abc')).toBe('/Reset_password?token=[redacted]');
    expect(loggedUrl('/x?a=1&b=&c')).toBe('/x?a=[redacted]&b=[redacted]&[redacted]');
    expect(loggedUrl('/x?')).toBe('/x?[redacted]');
  });

  it('logs a page load with a reset token without the token', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-log-'));
    const web = path.join(dataDir, 'web');
    fs.mkdirSync(web);
    fs.writeFileSync(path.join(web, 'index.html'), '<html><head></head><body>APP</body></html>');
    const stream = new PassThrough();
    let log = '';
    stream.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const app = await buildApp(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_DIST: web,
        LOG_LEVEL: 'info',
      }),
      { logStream: stream },
    );
    try {
      await app.server.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.server.address() as { port: number };
      const base = `http://127.0.0.1:${port}`;
      const SECRET = 'SECRETtoken0123456789abcdef';
      const page = await fetch(`${base}/Reset_password?token=${SECRET}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('APP');
      // and an unknown page, an API path and a URL the router cannot read
      await fetch(`${base}/nothing-here?token=${SECRET}`);
      await fetch(`${base}/api/password_reset/check/?token=${SECRET}`);
      await fetch(`${base}/%E0%A4%A?token=${SECRET}`);
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    expect(log).toContain('"url":"/Reset_password?token=[redacted]"');
    expect(log).toContain('incoming request');
    expect(log).not.toContain('SECRET');
  });
});
