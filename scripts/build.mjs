// Bundles src/main.ts into one ESM file and writes the executable dist/bin/kubectl-crossplane_rbac. The bundle holds
// every library the plugin uses, so the npm package has no runtime dependencies.
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outfile = join(root, 'dist', 'bin', 'kubectl-crossplane_rbac');
mkdirSync(dirname(outfile), { recursive: true });

await build({
  entryPoints: [join(root, 'src', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  keepNames: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  define: { __VERSION__: JSON.stringify(`v${pkg.version}`) },
  // Libraries the plugin carries but never needs: see each shim's comment.
  alias: {
    'whatwg-url': join(root, 'scripts', 'bundle-shims', 'whatwg-url.mjs'),
  },
  banner: {
    // Some bundled CommonJS dependencies call require(); give them one.
    js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
});
chmodSync(outfile, 0o755);
console.log(`built ${outfile}`);
