// The service worker's cache of API answers (pwa.config.ts), emptied from
// the page at logout and at login: on a shared phone, no answer kept for
// one account is ever served to the next (PRODUCT §20 "Offline",
// docs/SECURITY.md "Offline copies").

/** The cache's name, as pwa.config.ts gives it to Workbox. */
export const API_CACHE = 'primeur-api'

/** Deletes the kept API answers; nothing to do where the browser has no Cache Storage. */
export async function forgetOfflineAnswers(): Promise<void> {
  try {
    if (typeof caches !== 'undefined') await caches.delete(API_CACHE)
  } catch (err) {
    console.error('offline answers:', err)
  }
}
