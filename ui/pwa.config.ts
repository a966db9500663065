// The installable, offline app (issue 40, PRODUCT §20 "Offline"):
// vite-plugin-pwa makes the web app manifest and a Workbox service worker
// (generateSW) at build time. The worker precaches the built app (the
// shell and every screen's chunk), answers a navigation to any route of the
// app with index.html, and keeps the last answer of the few API reads the
// screens used in a van or a cellar need — the user load, the catalogue,
// the orders (issue 42 split them), the delivery rules, a producer's day —
// network first: online, the page always gets the daemon's answer (a 304
// when nothing changed); offline, the last one it got, and it reads again
// when the network returns (src/offline/updates.ts). Stale while
// revalidating was tried (issue 42) and withdrawn: after a reload the page
// kept the older copy, the worker's word of a fresher one not reaching it
// (journey.spec, deliveries.spec). The pictures of
// receptions are kept too. Nothing else of the API is kept, no
// write ever is, and the page empties that cache at logout and at login
// (src/offline/caches.ts), so that no answer of one account is served to
// another on a shared phone.
import type { VitePWAOptions } from 'vite-plugin-pwa'

/** The cache of API answers, emptied at logout and login. */
export const API_CACHE = 'primeur-api'

export const pwaOptions: Partial<VitePWAOptions> = {
  // The page registers the worker itself (src/offline/register.ts).
  injectRegister: false,
  registerType: 'autoUpdate',
  includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
  manifest: {
    id: '/',
    name: 'Primeur',
    short_name: 'Primeur',
    description: 'Primeur relie les producteurs locaux et les magasins autour de leurs besoins mensuels.',
    lang: 'fr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#2f9e44',
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // The built app: scripts, styles, the page and fonts (not their
    // .br/.gz copies, which the daemon serves in place of the files); the
    // icons come once, from the manifest and includeAssets.
    globPatterns: ['**/*.{js,css,html,svg,woff2}'],
    // Only what pays: the screens of a van or a cellar are the deliveries,
    // the day and the reception, and a first visit on a slow line should
    // not fetch what it may never use (issue 42: 392 KB precached before,
    // the chart library and the dashboard, the planners, the supply, the
    // payments, the products, the team and the statements of the site
    // left out). A screen opened once is kept all the same (the assets'
    // rule below), and the page registers the worker only once it has
    // done its own loading (src/offline/quiet.ts).
    globIgnores: [
      '**/uplot-*',
      '**/Plot-*.js',
      '**/Dashboard-*',
      '**/Planner-*',
      '**/DistributorNeeds-*',
      '**/ProducerNeeds-*',
      '**/DistributorSupply-*',
      '**/Payments-*',
      '**/ProducerProducts-*',
      '**/ProducerPage-*',
      '**/TeamPage-*',
      '**/Accessibility-*',
    ],
    navigateFallback: '/index.html',
    // The daemon's own pages and files are never the app's.
    navigateFallbackDenylist: [/^\/(api|auth|print|public|pa|docs|openapi|healthz|metrics)(\/|\.|$)/],
    clientsClaim: true,
    skipWaiting: true,
    cleanupOutdatedCaches: true,
    runtimeCaching: [
      {
        // The built files, hashed: a screen's code once fetched.
        urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
        handler: 'CacheFirst',
        options: {
          cacheName: 'primeur-assets',
          cacheableResponse: { statuses: [200] },
          expiration: { maxEntries: 120, maxAgeSeconds: 60 * 24 * 3600 },
        },
      },
      {
        // The API reads kept for offline use. (Workbox copies each function
        // into sw.js by its text: it may name nothing outside itself.)
        urlPattern: ({ url, request, sameOrigin }) =>
          sameOrigin &&
          request.method === 'GET' &&
          /^\/api\/(user|catalogue|orders|deliveries\/settings|deliveries\/day\/[0-9-]+)$/.test(url.pathname),
        handler: 'NetworkFirst',
        options: {
          cacheName: API_CACHE,
          networkTimeoutSeconds: 6,
          cacheableResponse: { statuses: [200] },
          expiration: { maxEntries: 60, maxAgeSeconds: 14 * 24 * 3600 },
          // A fresher answer (another ETag: the daemon's hash of its bytes)
          // is told to the pages: { type: 'CACHE_UPDATED', payload: { cacheName, updatedURL } }.
          broadcastUpdate: { channelName: API_CACHE, options: { headersToCheck: ['etag'] } },
        },
      },
      {
        urlPattern: ({ url, request, sameOrigin }) =>
          sameOrigin && request.method === 'GET' && url.pathname.startsWith('/print/image/'),
        handler: 'CacheFirst',
        options: {
          cacheName: API_CACHE,
          cacheableResponse: { statuses: [200] },
          expiration: { maxEntries: 200, maxAgeSeconds: 14 * 24 * 3600 },
        },
      },
    ],
  },
}
