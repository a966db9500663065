import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ensureList, listPath, loadPurchases, purchases } from './lists'
import { loadUser } from './session'
import { resetState, state } from './state'

// Each screen reads what it shows (issue 42): the user load and the
// catalogue at once, the lists when a screen asks, each once per session.

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...headers } })

const shop = { _id: 'd1', type: 'distributor', email: 'epicerie@exemple.fr' }

/** Lets the promises under way settle (the user load's revalidation of the lists). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A fake daemon: the answer of each path, and the paths asked. */
function daemon() {
  const asked: string[] = []
  const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = String(input)
    asked.push(path)
    if (path === '/api/user') return json({ user: shop, distributors: [], producers: [], counts: { needs: 3 } })
    if (path === '/api/catalogue') return json({ products: [{ _id: 'tomate', name: 'Tomate' }], families: [] })
    if (path === '/api/stats/purchases') return json({ months: ['2026-07-01'], planned: [1], done: [2] })
    return json([{ _id: `${path.split('?')[0]}-1` }])
  })
  return { asked, fetch }
}

beforeEach(() => resetState(shop.email))
afterEach(() => vi.restoreAllMocks())

describe('the screens’ reads', () => {
  it('reads 12 months back where a list has months', () => {
    const today = new Date('2026-11-20T10:00:00+01:00')
    expect(listPath('needs', today)).toBe('/api/needs?from=2025-11-01')
    expect(listPath('orders', today)).toBe('/api/orders?from=2025-11-01')
    expect(listPath('events', today)).toBe('/api/events')
  })

  it('loads the user and the catalogue, not the lists', async () => {
    const { asked } = daemon()
    expect(await loadUser()).toBe('loaded')
    expect(asked.sort()).toEqual(['/api/catalogue', '/api/user'])
    expect(state.products.map((p) => p._id)).toEqual(['tomate'])
    expect(state.counts).toEqual({ needs: 3 })
    expect(state.fetched).toEqual({ needs: false, orders: false, events: false })
  })

  it('reads a list once per session, one read for screens asking together', async () => {
    const { asked } = daemon()
    await loadUser()
    await settle() // its revalidation of the lists held: none yet
    asked.length = 0
    const [a, b] = await Promise.all([ensureList('orders'), ensureList('orders')])
    expect([a, b]).toEqual([true, true])
    await ensureList('orders')
    expect(asked.filter((p) => p.startsWith('/api/orders'))).toHaveLength(1)
    expect(state.orders).toHaveLength(1)
    expect(state.fetched.orders).toBe(true)
    // A new user load reads again what the session holds, only that, once.
    asked.length = 0
    await loadUser()
    await vi.waitFor(() => expect(asked.filter((p) => p.startsWith('/api/orders'))).toHaveLength(1))
    await settle()
    expect(asked.filter((p) => p.startsWith('/api/orders'))).toHaveLength(1)
    expect(asked.some((p) => p.startsWith('/api/needs'))).toBe(false)
  })

  it('drops a read overtaken by a write that replaced the list, and says it is not busy', async () => {
    daemon()
    await loadUser()
    const read = ensureList('orders')
    state.orders = [] // the profile's answer: the orders re-planned
    expect(await read).toBe(false)
    expect(state.loading.orders).toBe('idle')
  })

  it('drops a read overtaken by another session', async () => {
    daemon()
    await loadUser()
    const read = ensureList('needs')
    resetState(null)
    expect(await read).toBe(false)
    expect(state.needs).toHaveLength(0)
    expect(state.fetched.needs).toBe(false)
  })

  it('reads nothing without a user', async () => {
    const { asked } = daemon()
    expect(await ensureList('events')).toBe(false)
    expect(await loadPurchases()).toBe(false)
    expect(asked).toEqual([])
  })

  it("keeps the chart's figures with their user", async () => {
    daemon()
    await loadUser()
    expect(await loadPurchases()).toBe(true)
    expect(purchases.owner).toBe('d1')
    expect(purchases.value?.done).toEqual([2])
  })
})
