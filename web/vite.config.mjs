// Vite config for the achain studio (root web/, output web/dist, relative base so the built
// files work from any sub-path). Two entries: the studio page (index.html) and the embeddable
// <achain-viewer> web component, written to a stable name, web/dist/achain-viewer.js, so any static
// page can use it with one script tag. The tutorial pages of docs/tutorials/*.html are copied to
// web/dist/tutorials/ (they load ../achain-viewer.js). The wasm core lives in ../wasm and is
// imported directly, so the dev server may serve the parent directory.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { resolve, join } from 'node:path';
import { readdirSync, readFileSync, existsSync } from 'node:fs';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = resolve(here, '..');
const tutorials = join(repo, 'docs', 'tutorials');

/** Emits docs/tutorials/*.{html,json,css} as tutorials/* in the build; serves them in dev. */
function tutorialPages() {
  const files = () => (existsSync(tutorials) ? readdirSync(tutorials).filter((f) => /\.(html|json|css)$/.test(f)) : []);
  return {
    name: 'achain-tutorials',
    generateBundle() {
      for (const f of files()) this.emitFile({ type: 'asset', fileName: `tutorials/${f}`, source: readFileSync(join(tutorials, f)) });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /^\/tutorials\/([\w.-]+)$/.exec((req.url || '').split('?')[0]);
        if (!m || !files().includes(m[1])) return next();
        let text = readFileSync(join(tutorials, m[1]), 'utf8');
        // in dev the component is served from source
        if (m[1].endsWith('.html')) text = text.replace('../achain-viewer.js', '../src/component/achain-viewer.js');
        res.setHeader('content-type', m[1].endsWith('.html') ? 'text/html' : m[1].endsWith('.css') ? 'text/css' : 'application/json');
        res.end(text);
      });
    },
  };
}

export default defineConfig({
  root: here,
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [tutorialPages()],
  build: {
    outDir: resolve(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    assetsInlineLimit: 0,
    rollupOptions: {
      input: {
        index: resolve(here, 'index.html'),
        'achain-viewer': resolve(here, 'src/component/achain-viewer.js'),
      },
      preserveEntrySignatures: 'exports-only',
      output: {
        entryFileNames: (chunk) => (chunk.name === 'achain-viewer' ? 'achain-viewer.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  server: { fs: { allow: [repo] } },
  worker: { format: 'es' },
});
