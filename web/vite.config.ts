import * as contracts from '../packages/contracts/src/index.ts';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

/** The web client's routes (web/src/api/client.ts): name, method, path and where the input goes, from the route table. */
const apiRoutes = Object.fromEntries(
  Object.entries(contracts).flatMap(([name, r]) =>
    (contracts.ROUTES as unknown[]).includes(r) && (r as contracts.RouteDef).access !== 'internal'
      ? [[name, routeCall(r as contracts.RouteDef)]]
      : [],
  ),
);
function routeCall({ method, path, schema }: contracts.RouteDef) {
  return [method, path, schema.body ? 'body' : schema.querystring || schema.params ? 'query' : null];
}

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
