import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
// By path, so that Vite bundles the TypeScript sources into the config (Node does not load .ts packages).
import * as contracts from '../packages/contracts/src/index.ts';
import { precompress } from './precompress.ts';

/** The web client's routes (src/api/client.ts) from the route table: name → method, path, where input goes. */
const names = new Map<unknown, string>(Object.entries(contracts).map(([name, value]) => [value, name]));
const apiRoutes = Object.fromEntries(
  contracts.ROUTES.filter((r) => r.access !== 'internal').map((route) => {
    const { method, path, schema } = route;
    const name = names.get(route);
    if (!name) throw new Error(`${method} ${path}: export the route from @ct/contracts by name`);
    return [
      name,
      [method, path, schema.body ? 'body' : schema.querystring || schema.params ? 'query' : null],
    ];
  }),
);

// In development Vite serves the app and forwards /api to the gateway (npm start on :8080).
export default defineConfig({
  plugins: [react(), precompress()],
  define: { __API_ROUTES__: JSON.stringify(apiRoutes) },
  server: { port: 5173, proxy: { '/api': 'http://localhost:8080' } },
  build: {
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      output: {
        manualChunks(id: string) {
          if (id.includes('node_modules/firebase') || id.includes('node_modules/@firebase'))
            return 'firebase';
          return undefined;
        },
      },
    },
  },
});
