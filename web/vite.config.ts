// The client builds to web/dist, which atout-server serves (--web-root). Assets get content
// hashes in their names (cached for good); nothing is inlined into index.html (the server's
// Content-Security-Policy forbids inline script). `npm run dev` proxies /ws and /api to a server
// on :8080 (or ATOUT_DEV_PORT), and so does `npm run preview`.
import { defineConfig } from 'vitest/config';

const api = `127.0.0.1:${process.env.ATOUT_DEV_PORT ?? '8080'}`;

export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2020',
  },
  server: {
    proxy: {
      '/ws': { target: `ws://${api}`, ws: true },
      '/api': `http://${api}`,
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
