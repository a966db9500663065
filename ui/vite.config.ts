import { constants } from 'node:zlib'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
import { VitePWA } from 'vite-plugin-pwa'
import { pwaOptions } from './pwa.config.ts'

// Paths served by the Go daemon (`primeur serve`, default 127.0.0.1:8080).
const daemon = 'http://127.0.0.1:8080'
const proxied = ['/api', '/auth', '/print', '/public', '/openapi.json', '/docs', '/healthz']

export default defineConfig({
  plugins: [
    react(),
    // The manifest and the service worker (pwa.config.ts), before the
    // compression below so that sw.js is compressed as the rest.
    VitePWA({ ...pwaOptions, disable: !!process.env.VITEST }),
    // Every built file of 1 KB or more is also written compressed next to
    // itself, at the strongest levels (name.br, name.gz), once per build:
    // the daemon sends these bytes as they are to a client accepting the
    // coding (daemon/web.go), and compresses nothing of the UI per request.
    compression({
      include: /\.(js|mjs|css|html|svg|json|txt)$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      logLevel: 'silent',
    }),
  ],
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: daemon, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Brotli's strongest level takes seconds on the chart library: by design,
    // once per build, so Rolldown's notice of slow plugins is not printed.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
})
