import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  ensureList,
  ensureMonths,
  ensureOrder,
  gaps,
  loadPurchases,
  ordersPeriod,
  periodPath,
  purchases,
} from './lists'
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
    return json([{ _id: `${path.split('?')[0]}-1`, date: '2026-12-01' }])
  })
  return { asked, fetch }
}

beforeEach(() => resetState(shop.email))
afterEach(() => vi.restoreAllMocks())

describe('the screens’ reads', () => {
  it('reads the periods shown: the deliveries’ tabs, the reception', () => {
    const today = '2026-11-20'
    const rows: [Parameters<typeof ordersPeriod>[0], string][] = [
      ['upcoming14', '/api/orders?from=2026-11-01&to=2026-12-01'],
      ['upcoming', '/api/orders?from=2026-11-01'],
      ['done14', '/api/orders?from=2026-11-01'],
      ['done', '/api/orders?from=2025-11-01'],
      ['recent', '/api/orders?from=2026-11-01&to=2026-12-01'],
      ['year', '/api/orders?from=2025-11-01'],
    ]
    for (const [tab, path] of rows) expect(periodPath('orders', ordersPeriod(tab, today))).toBe(path)
    // Early in a month, the 14 days back reach the month before.
    expect(ordersPeriod('upcoming14', '2026-11-03')).toEqual({ from: '2026-10-01', to: '2026-11-01' })
  })

  it('finds the months no read holds', () => {
    const p = (from: string, to: string | null) => ({ from, to })
    const rows: [ReturnType<typeof p>, ReturnType<typeof p>[], ReturnType<typeof p>[]][] = [
      [p('2026-11-01', '2027-06-01'), [], [p('2026-11-01', '2027-06-01')]],
      [p('2026-11-01', '2027-06-01'), [p('2026-11-01', '2027-06-01')], []],
      [p('2026-07-01', '2027-02-01'), [p('2026-11-01', '2027-06-01')], [p('2026-07-01', '2026-10-01')]],
      [
        p('2026-01-01', '2026-12-01'),
        [p('2026-09-01', '2026-10-01'), p('2026-03-01', '2026-05-01')],
        [p('2026-01-01', '2026-02-01'), p('2026-06-01', '2026-08-01'), p('2026-11-01', '2026-12-01')],
      ],
      [p('2026-11-01', null), [p('2026-11-01', '2026-12-01')], [p('2027-01-01', null)]],
      [p('2026-11-01', '2027-03-01'), [p('2026-10-01', null)], []],
      [p('2026-11-01', null), [p('2027-01-01', null)], [p('2026-11-01', '2026-12-01')]],
    ]
    for (const [want, held, missing] of rows) expect(gaps(want, held)).toEqual(missing)
  })

  it('loads the user and the catalogue, not the lists', async () => {
    const { asked } = daemon()
    expect(await loadUser()).toBe('loaded')
    expect(asked.sort()).toEqual(['/api/catalogue', '/api/user'])
    expect(state.products.map((p) => p._id)).toEqual(['tomate'])
    expect(state.counts).toEqual({ needs: 3 })
    expect(state.fetched).toEqual({ needs: false, orders: false, events: false })
  })

  it('reads each month once per session, only the months not read, and revalidates those', async () => {
    const { asked } = daemon()
    await loadUser()
    await settle() // its revalidation of the lists held: none yet
    asked.length = 0
    const view = { from: '2026-11-01', to: '2027-06-01' }
    const [a, b] = await Promise.all([ensureMonths('needs', view), ensureMonths('needs', view)])
    expect([a, b]).toEqual([true, true])
    // The planner moves back half its span: only the months before.
    expect(await ensureMonths('needs', { from: '2026-07-01', to: '2027-02-01' })).toBe(true)
    expect(asked).toEqual(['/api/needs?from=2026-11-01&to=2027-06-01', '/api/needs?from=2026-07-01&to=2026-10-01'])
    expect(state.fetched.needs).toBe(true)
    expect(state.loading.needs).toBe('idle')
    // A new user load reads again the periods the session holds, those only.
    asked.length = 0
    await loadUser()
    await vi.waitFor(() => expect(asked.filter((p) => p.startsWith('/api/needs'))).toHaveLength(2))
    await settle()
    expect(asked.filter((p) => p.startsWith('/api/needs')).sort()).toEqual([
      '/api/needs?from=2026-07-01&to=2026-10-01',
      '/api/needs?from=2026-11-01&to=2027-06-01',
    ])
    expect(asked.some((p) => p.startsWith('/api/orders'))).toBe(false)
  })

  it('puts a period’s answer in place of the months it read', async () => {
    const items: Record<string, unknown[]> = {
      '/api/orders?from=2026-11-01&to=2026-12-01': [{ _id: 'o1', date: '2026-11-01' }],
      '/api/orders?from=2025-11-01&to=2026-10-01': [{ _id: 'o0', date: '2026-02-01' }],
    }
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => json(items[String(input)] ?? []))
    state.user = shop as unknown as typeof state.user
    expect(await ensureMonths('orders', { from: '2026-11-01', to: '2026-12-01' })).toBe(true)
    expect(await ensureMonths('orders', { from: '2025-11-01', to: '2026-11-01' })).toBe(true)
    expect(state.orders.map((o) => o._id).sort()).toEqual(['o0', 'o1'])
    // The order of November is gone: read again, the period holds none.
    items['/api/orders?from=2026-11-01&to=2026-12-01'] = []
    const { refreshLists } = await import('./lists')
    await refreshLists()
    expect(state.orders.map((o) => o._id)).toEqual(['o0'])
  })

  it('finds the reception’s order around today, else in the year', async () => {
    const asked: string[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      asked.push(String(input))
      return json(String(input).includes('to=') ? [{ _id: 'recent', date: '2026-11-01' }] : [])
    })
    state.user = shop as unknown as typeof state.user
    expect(await ensureOrder('recent', '2026-11-20')).toBe(true)
    expect(asked).toEqual(['/api/orders?from=2026-11-01&to=2026-12-01'])
    expect(await ensureOrder('old', '2026-11-20')).toBe(true)
    expect(asked).toEqual([
      '/api/orders?from=2026-11-01&to=2026-12-01',
      '/api/orders?from=2025-11-01&to=2026-10-01',
      '/api/orders?from=2027-01-01',
    ])
  })

  it('drops a read overtaken by a write that replaced the list, and says it is not busy', async () => {
    daemon()
    await loadUser()
    const read = ensureMonths('orders', ordersPeriod('upcoming14', '2026-11-20'))
    state.orders = [] // the profile's answer: the orders re-planned
    expect(await read).toBe(false)
    expect(state.loading.orders).toBe('idle')
  })

  it('drops a read overtaken by another session', async () => {
    daemon()
    await loadUser()
    const read = ensureMonths('needs', { from: '2026-11-01', to: '2027-06-01' })
    resetState(null)
    expect(await read).toBe(false)
    expect(state.needs).toHaveLength(0)
    expect(state.fetched.needs).toBe(false)
  })

  it('reads the feed’s first page once per session', async () => {
    const { asked } = daemon()
    await loadUser()
    await settle()
    asked.length = 0
    const [a, b] = await Promise.all([ensureList('events'), ensureList('events')])
    expect([a, b]).toEqual([true, true])
    await ensureList('events')
    expect(asked).toEqual(['/api/events'])
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
