import { useEffect } from 'react'

/**
 * Starts the app's offline part (src/offline/start.ts: the service worker
 * and the reception queue) from the screens used in a van or a cellar —
 * the deliveries, the farmer's day, the reception — in a chunk of its own,
 * so that the other screens, the dashboard's charts first, weigh nothing
 * more (e2e budget.spec.ts). Once started, it serves every screen.
 */
export function useOffline(): void {
  useEffect(() => {
    void import('./start').then((m) => m.startOffline()).catch((err) => console.error('offline:', err))
  }, [])
}
