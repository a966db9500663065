/// <reference types="vite-plugin-pwa/client" />
// Registers the service worker that vite-plugin-pwa builds (pwa.config.ts):
// the app installable, and its screens opening without network once loaded.
// Called once by the entry; in development (no worker is built) it does
// nothing.
import { registerSW } from 'virtual:pwa-register'

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  registerSW({ immediate: true })
}
