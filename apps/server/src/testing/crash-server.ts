/**
 * A real server process for the crash tests (kill -9): the same buildApp as main.ts, on the
 * configuration from the environment. It prints `LISTENING <port>` once it serves. With
 * PAUSE_AT=n an identification run stops before the chunk that would start after n images
 * and prints `PAUSED <n>`, so a test can kill the process right there; LEASE_MS and CHUNK set
 * the run's lease and chunk size.
 */
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

const pauseAt = process.env.PAUSE_AT ? Number(process.env.PAUSE_AT) : undefined;
const app = await buildApp(loadConfig(), {
  diagnosis: {
    ...(process.env.LEASE_MS ? { leaseMs: Number(process.env.LEASE_MS) } : {}),
    ...(process.env.CHUNK ? { chunkSize: Number(process.env.CHUNK) } : {}),
    beforeChunk: async ({ done }) => {
      if (pauseAt !== undefined && done >= pauseAt) {
        process.stdout.write(`PAUSED ${done}\n`);
        await new Promise(() => undefined); // until killed
      }
    },
  },
});
await app.server.listen({ port: app.config.port, host: app.config.host });
const address = app.server.server.address();
process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
