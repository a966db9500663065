import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { API_CACHE } from './caches'
import { listenForUpdates, rereadOf } from './updates'

// The worker tells the page of a fresher answer (issue 42): the page reads
// again what that address feeds.

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })

const worker = new EventTarget()
const told = (data: unknown) => worker.dispatchEvent(new MessageEvent('message', { data }))
const updated = (path: string, cacheName = API_CACHE) => ({
  type: 'CACHE_UPDATED',
  meta: 'workbox-broadcast-update',
  payload: { cacheName, updatedURL: `${location.origin}${path}` },
})

beforeAll(() => {
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: worker })
  listenForUpdates()
  listenForUpdates() // once per page, however often started
})
beforeEach(() => resetState('epicerie@exemple.fr'))
afterEach(() => vi.restoreAllMocks())

describe('the worker’s news of fresher answers', () => {
  it('names what each kept address feeds', () => {
    const rows: [string, ReturnType<typeof rereadOf>][] = [
      ['/api/user', 'user'],
      ['/api/catalogue', 'user'],
      ['/api/orders', 'lists'],
      ['/api/deliveries/settings', 'settings'],
      ['/api/deliveries/day/2026-11-20', { day: '2026-11-20' }],
      ['/api/payments', null],
    ]
    for (const [path, what] of rows) expect(rereadOf(path)).toEqual(what)
  })

  it('reads the user load again, once for updates told together, and ignores other messages', async () => {
    const asked: string[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = String(input)
      asked.push(path)
      if (path === '/api/user') return json({ user: { _id: 'd1', type: 'distributor' }, counts: { needs: 1 } })
      return json({ products: [], families: [] })
    })
    told({ type: 'SOMETHING_ELSE' })
    told(updated('/api/user', 'primeur-assets'))
    told(updated('/api/user'))
    told(updated('/api/catalogue'))
    // The catalogue's news came while the first read ran: read once more, no more.
    const users = () => asked.filter((p) => p === '/api/user').length
    await vi.waitFor(() => expect(users()).toBe(2))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(users()).toBe(2)
    expect(state.user?._id).toBe('d1')
    // The network back: the user load read again.
    window.dispatchEvent(new Event('online'))
    await vi.waitFor(() => expect(users()).toBe(3))
    expect(state.counts).toEqual({ needs: 1 })
  })
})
