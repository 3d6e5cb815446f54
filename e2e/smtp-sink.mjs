// A real SMTP server for the end-to-end tests: every message it receives is written as an
// .eml file into SMTP_SINK_DIR; GET / on SMTP_SINK_HTTP_PORT answers once it is ready.
//   SMTP_SINK_PORT=8162 SMTP_SINK_HTTP_PORT=8163 SMTP_SINK_DIR=e2e/.artifacts/8160/mail node e2e/smtp-sink.mjs
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env.SMTP_SINK_PORT ?? 2525);
const httpPort = Number(process.env.SMTP_SINK_HTTP_PORT ?? port + 1);
const dir = path.resolve(process.env.SMTP_SINK_DIR ?? 'e2e/.artifacts/mail');
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });

let count = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  size: 10 * 1024 * 1024,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('error', callback);
    stream.on('end', () => {
      count += 1;
      const file = path.join(dir, `${Date.now()}-${String(count).padStart(5, '0')}.eml`);
      fs.writeFileSync(file, Buffer.concat(chunks));
      callback();
    });
  },
});
smtp.on('error', (err) => console.error('smtp-sink:', err.message));

smtp.listen(port, '127.0.0.1', () => {
  http
    .createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, received: count, dir }));
    })
    .listen(httpPort, '127.0.0.1');
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => smtp.close(() => process.exit(0)));
}
