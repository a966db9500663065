// The service worker keeps the API answers network first (pwa.config.ts):
// offline the page gets the last copy kept, and when the network returns it
// reads again what it shows. The worker also tells it when a kept answer
// was replaced by another (another ETag: { type: 'CACHE_UPDATED', payload:
// { cacheName, updatedURL } }, Workbox's broadcast update); the page then
// reads again what that address feeds, so that the screen shows the
// fresher data without a reload.
import { API_CACHE } from './caches'

/** What the worker posts when a kept answer changed (workbox-broadcast-update). */
interface CacheUpdated {
  type: 'CACHE_UPDATED'
  payload: { cacheName: string; updatedURL: string }
}

function isCacheUpdated(data: unknown): data is CacheUpdated {
  const d = data as CacheUpdated | null
  return d?.type === 'CACHE_UPDATED' && d.payload?.cacheName === API_CACHE && typeof d.payload.updatedURL === 'string'
}

/** The reading again that an address kept by the worker feeds, or null. */
export function rereadOf(pathname: string): 'user' | 'lists' | 'settings' | { day: string } | null {
  if (pathname === '/api/user' || pathname === '/api/catalogue') return 'user'
  if (pathname === '/api/orders') return 'lists'
  if (pathname === '/api/deliveries/settings') return 'settings'
  const day = /^\/api\/deliveries\/day\/([0-9-]+)$/.exec(pathname)
  return day ? { day: day[1] } : null
}

// The readings under way, by kind, and whether another update came while
// one ran (it may have read the older copy): then it runs once more.
const running = new Map<string, { again: boolean }>()

async function reread(pathname: string): Promise<void> {
  const what = rereadOf(pathname)
  if (!what) return
  const key = typeof what === 'string' ? what : `day:${what.day}`
  const under = running.get(key)
  if (under) {
    under.again = true
    return
  }
  const run = { again: true }
  running.set(key, run)
  try {
    while (run.again) {
      run.again = false
      if (what === 'user') {
        // The user load reads the catalogue beside it, then the lists held.
        await (await import('../store/session')).loadUser()
      } else if (what === 'lists') {
        await (await import('../store/lists')).refreshLists()
      } else if (what === 'settings') {
        await (await import('../store/deliveries')).loadDeliverySettings()
      } else {
        const dayplan = await import('../store/dayplan')
        if (dayplan.dayState.date === what.day) await dayplan.loadDay(what.day)
      }
    }
  } catch (err) {
    console.error('offline update:', err)
  } finally {
    running.delete(key)
  }
}

let listening = false

/** Listens for the worker's news of fresher answers (once per page). */
export function listenForUpdates(): void {
  if (listening || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  listening = true
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    if (!isCacheUpdated(event.data)) return
    void reread(new URL(event.data.payload.updatedURL, location.href).pathname)
  })
  // The network back, the screen reads again: the worker answers with the
  // copy kept at once and asks the daemon behind, telling what changed.
  window.addEventListener('online', () => void reread('/api/user'))
}
