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

/** Static files the build copies as they are: the tutorial pages (docs/tutorials/*.{html,json,css,js} → tutorials/*,
 *  they load ../achain-viewer.js) and the robot-file variants (core/robots/variants/*.json → robots/variants/*, e.g.
 *  the prototype with its drive for the vibration tutorial). Served from the same paths by the dev server. */
const copied = [
  { dir: tutorials, prefix: 'tutorials', pattern: /\.(html|json|css|js)$/ },
  { dir: join(repo, 'core', 'robots', 'variants'), prefix: 'robots/variants', pattern: /\.json$/ },
];
const types = { html: 'text/html', css: 'text/css', json: 'application/json', js: 'text/javascript' };

function staticFiles() {
  const files = (c) => (existsSync(c.dir) ? readdirSync(c.dir).filter((f) => c.pattern.test(f)) : []);
  return {
    name: 'achain-static-files',
    generateBundle() {
      for (const c of copied)
        for (const f of files(c)) this.emitFile({ type: 'asset', fileName: `${c.prefix}/${f}`, source: readFileSync(join(c.dir, f)) });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = (req.url || '').split('?')[0];
        for (const c of copied) {
          const m = new RegExp(`^/${c.prefix}/([\\w.-]+)$`).exec(url);
          if (!m || !files(c).includes(m[1])) continue;
          let text = readFileSync(join(c.dir, m[1]), 'utf8');
          // in dev the component is served from source
          if (m[1].endsWith('.html')) text = text.replace('../achain-viewer.js', '../src/component/achain-viewer.js');
          res.setHeader('content-type', types[m[1].split('.').pop()]);
          res.end(text);
          return;
        }
        next();
      });
    },
  };
}

export default defineConfig({
  root: here,
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [staticFiles()],
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
