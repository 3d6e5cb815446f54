// Builds what is stale: the web app (Vite), the server bundle (esbuild) and the user manual PDF.
// `node scripts/build.mjs --force` rebuilds everything.
import fs from 'node:fs';
import path from 'node:path';
import { ensureInstalled, log, mtime, newestMtime, root, run } from './lib.mjs';
import { precompress } from './precompress.mjs';

const force = process.argv.includes('--force');

// WEB_DIST / SERVER_DIST let parallel work build into separate folders (relative to the repo).
const webDist = process.env.WEB_DIST ?? 'apps/web/dist';
const serverDist = process.env.SERVER_DIST ?? 'apps/server/dist';

export async function build({ force: forced = false } = {}) {
  ensureInstalled();
  const shared = ['packages/contracts', 'packages/hydraulics', 'package-lock.json'];

  const webInputs = [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'scripts/precompress.mjs',
    ...shared,
  ];
  const webStamp = `${webDist}/.built`;
  if (forced || newestMtime(webInputs) > mtime(webStamp)) {
    log('building the web app (Vite)…');
    run(path.join(root, 'node_modules/.bin/vite'), [
      'build',
      'apps/web',
      '--logLevel',
      'warn',
      '--outDir',
      path.resolve(root, webDist),
    ]);
    const packed = precompress(path.resolve(root, webDist));
    const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    log(
      `compressed ${packed.files} text and WebAssembly files: ${mb(packed.bytes)} -> ` +
        `${mb(packed.brotli)} brotli, ${mb(packed.gzip)} gzip`,
    );
    fs.writeFileSync(path.join(root, webStamp), new Date().toISOString());
  }

  const manualInputs = ['docs/manual', 'scripts/build-manual.mjs'];
  const manualOut = `${webDist}/user_manual.pdf`;
  if (forced || Math.max(newestMtime(manualInputs), mtime(webStamp)) > mtime(manualOut)) {
    log('generating the user manual PDF from docs/manual…');
    run(process.execPath, ['scripts/build-manual.mjs', manualOut]);
  }

  const serverInputs = ['apps/server/src', 'apps/server/package.json', ...shared];
  const serverOut = `${serverDist}/main.js`;
  if (forced || newestMtime(serverInputs) > mtime(serverOut)) {
    log('building the server (esbuild)…');
    const esbuild = await import('esbuild');
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'apps/server/package.json'), 'utf8'));
    // npm packages stay external (native addons, data files); our workspaces are bundled.
    const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@diagrodl/'));
    await esbuild.build({
      entryPoints: {
        main: path.join(root, 'apps/server/src/main.ts'),
        // the inference worker thread (apps/server/src/worker/model-worker.ts)
        'model-worker': path.join(root, 'apps/server/src/worker/model-worker.thread.ts'),
      },
      outdir: path.resolve(root, serverDist),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      external,
      sourcemap: true,
      logLevel: 'warning',
      banner: {
        js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
      },
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await build({ force });
  log('build up to date.');
}
