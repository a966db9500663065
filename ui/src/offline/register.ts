/// <reference types="vite-plugin-pwa/client" />
// Registers the service worker that vite-plugin-pwa builds (pwa.config.ts):
// the app installable, and its screens opening without network once loaded.
// Called once by the offline part (./start); in development (no worker is built) it does
// nothing. The worker is registered only once the page has done its own
// loading (./quiet): its precache then never competes with the screen on a
// slow line (issue 42).
import { registerSW } from 'virtual:pwa-register'
import { whenQuiet } from './quiet'

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  void whenQuiet().then(() => registerSW({ immediate: true }))
}
