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
    rolldownOptions: {
      checks: { bundlerTimings: false },
      // Fewer, larger files (issue 42): on a slow line each file costs a
      // round trip (150 ms, six at a time) and some 700 bytes of headers,
      // and the automatic splitting gave a protected screen 40 files of
      // 1–6 KB after the entry (the payments: 56 files, 3.7 s; now 21,
      // docs/BENCHMARKS.md). The entry's code is one file; the interface
      // kit (Mantine, what it draws with, the icons) that the screens share
      // is another, fetched once and kept. The app's own modules are split
      // as Rolldown finds them shared: a chunk of them all was 64 KB that
      // most screens do not run.
      //
      // The libraries the first page runs (React, Mantine's provider, the
      // notifications, the router, the store) are a file of their own,
      // `vendor`, apart from the entry's own code: every chunk imports the
      // entry by its hashed name, and the entry names every screen's chunk,
      // so any change of the app's code gave the entry, then every chunk
      // importing it, the kit included, a new name — after a release, a
      // returning user fetched 344 of the app's 401 KB again (one text of
      // the payments changed). The vendor and the kit import nothing of the
      // app: a release that changes no library leaves their names, and the
      // browser's copies, as they were — 183 KB fetched again instead
      // (docs/BENCHMARKS.md "After a release"). Scripts only: the CSS stays
      // in one file, in the order the components need.
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor', tags: ['$initial'], test: /node_modules[\\/].*\.[cm]?js$/, priority: 4 },
            { name: 'index', tags: ['$initial'], priority: 3 },
            {
              name: 'kit',
              test: /node_modules[\\/](@mantine[\\/](core|hooks)|@floating-ui|react-remove-scroll|react-remove-scroll-bar|use-callback-ref|use-sidecar|react-style-singleton|react-number-format|react-textarea-autosize|tabbable|clsx|get-nonce|detect-node-es|tslib|@tabler)[\\/]/,
              priority: 2,
            },
          ],
        },
      },
    },
  },
})
