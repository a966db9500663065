// The receptions waiting on this phone leave when the app starts, whatever
// the first screen (PRODUCT §20 "Offline"), not only once a delivery
// screen opens: a shop that typed a reception offline and opens the app on
// its dashboard later sends it. Loaded on its own by the protected frame
// for shops; it reads the queue (IndexedDB) and, when something waits,
// starts the offline part (src/offline/start.ts), which drains it and
// listens for the network.
import { waitingOf } from './queue'

/** Starts the offline part when a reception of `email` waits to be sent; answers whether one did. */
export async function sendWaitingAtStart(email: string, start: () => Promise<void> = startOffline): Promise<boolean> {
  const waiting = (await waitingOf(email)).filter((r) => !r.refused)
  if (waiting.length === 0) return false
  await start()
  return true
}

async function startOffline(): Promise<void> {
  const m = await import('../offline/start')
  m.startOffline()
}
