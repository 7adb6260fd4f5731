#!/usr/bin/env node
// Bundles one service entry point (and the workspace packages it uses) into dist/server.js for images.
// Third-party packages stay external and come from node_modules.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const entry = process.argv[2] ?? 'src/server.ts';
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const root = path.resolve(import.meta.dirname, '..');
// The root's workspaces, `services/*` patterns expanded to the folders with a package.json.
const workspaces = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  .workspaces.flatMap((w) =>
    w.endsWith('/*')
      ? fs.readdirSync(path.join(root, w.slice(0, -2))).map((d) => `${w.slice(0, -1)}${d}`)
      : [w],
  )
  .filter((w) => fs.existsSync(path.join(root, w, 'package.json')));
const byName = new Map(
  workspaces.map((w) => {
    const p = JSON.parse(fs.readFileSync(path.join(root, w, 'package.json'), 'utf8'));
    return [p.name, p];
  }),
);
const external = new Set();
const seen = new Set();
const collect = (p) => {
  for (const dep of Object.keys(p.dependencies ?? {})) {
    if (byName.has(dep)) {
      if (!seen.has(dep)) {
        seen.add(dep);
        collect(byName.get(dep));
      }
    } else external.add(dep);
  }
};
collect(pkg);
await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outfile: 'dist/server.js',
  external: [...external, ...[...external].map((d) => `${d}/*`)],
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log(`built ${pkg.name} -> dist/server.js`);
