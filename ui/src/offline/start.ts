// What makes the app work offline, started once a session is there (at the
// entry for a stored session, else at login): the service worker, the
// reception queue and the worker's news of fresher answers. Loaded on its
// own, so that the landing page, where no one is logged in, carries none of
// it (e2e budget.spec.ts).
import { startReceptionQueue } from '../store/reception'
import { registerServiceWorker } from './register'
import { listenForUpdates } from './updates'

let started = false

export function startOffline(): void {
  if (started) return
  started = true
  registerServiceWorker()
  listenForUpdates()
  startReceptionQueue()
}
