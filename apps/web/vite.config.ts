import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const root = path.resolve(import.meta.dirname, '../..');

/** Revision of a file built after Vite (the user manual PDF): a hash of what it is made from. */
function revisionOf(inputs: string[]): string {
  const hash = createHash('sha256');
  const walk = (p: string) => {
    if (!fs.existsSync(p)) return;
    if (fs.statSync(p).isDirectory()) {
      for (const f of fs.readdirSync(p).sort()) walk(path.join(p, f));
    } else {
      hash.update(p).update(fs.readFileSync(p));
    }
  };
  for (const i of inputs) walk(path.join(root, i));
  return hash.digest('hex').slice(0, 16);
}

export default defineConfig({
  plugins: [
    react(),
    // The installable, offline app (README: Installable and offline): manifest + service worker (src/sw.ts).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'DiAgroDL: diagnóstico de hojas de tomate y diseño de riego',
        short_name: 'DiAgroDL',
        description:
          'Diagnóstico de enfermedades de la hoja de tomate con inteligencia artificial, también sin conexión, y herramientas de diseño de riego por goteo.',
        lang: 'es-MX',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1f6f3f',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      // the plugin lists the web manifest itself; the icons come with the glob (listing them
      // here as well put four URLs twice in the precache manifest)
      includeManifestIcons: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,svg,png,jpg,webp}'],
        // the model's runtime is cached by the diagnosis pages on first use, not by every visit
        globIgnores: ['index.html', '**/*.wasm', 'media-assets/*.webm'],
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
        additionalManifestEntries: [
          // the page for every route offline (the server writes its settings into it)
          { url: '/?app-shell', revision: revisionOf(['apps/web/index.html', 'apps/web/src']) },
          // built after Vite by scripts/build-manual.mjs
          {
            url: '/user_manual.pdf',
            revision: revisionOf(['docs/manual', 'scripts/build-manual.mjs']),
          },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:8000',
      '/diagrodl': 'http://localhost:8000',
      '/media': 'http://localhost:8000',
    },
  },
});
