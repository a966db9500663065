import { getVersion } from 'valtio'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ActivityEvent, Need, Order } from '../types'
import { prependEvents, upsertOrder } from './merge'
import { ensureList, ensureMonths } from './lists'
import { resetState, state } from './state'
import { storeNeed } from './trade'

// The user load's large lists hold their items as they came, not as deep
// proxies (state.ts, `held`): a proxy's version is a number, a plain
// object's undefined. The lists themselves stay proxies, so that a
// replaced, added or removed item is seen.
const isProxy = (x: object) => getVersion(x) !== undefined

const need = (id: string): Need =>
  ({
    _id: id,
    distributor: 'd1',
    product: 'tomate',
    date: '2026-12-01',
    quantity: 10,
    proposals: [],
  }) as unknown as Need
const order = (id: string) =>
  ({ _id: id, date: '2026-12-01', deliveries: [{ _id: 'l1', lines: [{ _id: 'x' }] }] }) as unknown as Order
const event = (id: string) =>
  ({ _id: id, type: 'need:create', data: {}, origin: { name: 'a' } }) as unknown as ActivityEvent

beforeEach(() => resetState('epicerie@exemple.fr'))
afterEach(() => vi.restoreAllMocks())

describe('the user load lists hold plain items', () => {
  it("from each screen's read", async () => {
    state.user = { _id: 'd1', type: 'distributor', email: 'epicerie@exemple.fr' } as unknown as typeof state.user
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = String(input)
      const body = path.startsWith('/api/needs')
        ? [need('n1')]
        : path.startsWith('/api/orders')
          ? [order('o1')]
          : [event('e1')]
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
    })
    for (const list of ['needs', 'orders'] as const)
      expect(await ensureMonths(list, { from: '2026-12-01', to: '2026-12-01' })).toBe(true)
    expect(await ensureList('events')).toBe(true)
    for (const list of [state.needs, state.orders, state.events]) {
      expect(list).toHaveLength(1)
      expect(isProxy(list)).toBe(true)
      expect(isProxy(list[0])).toBe(false)
    }
  })

  it('from the answers merged into the store', () => {
    storeNeed({ ...need('n2'), proposals: [{ producer: 'p1' }] } as unknown as Need)
    state.user = { _id: 'p1', type: 'producer' } as unknown as typeof state.user
    storeNeed({ ...need('n3'), proposals: [{ producer: 'p1' }] } as unknown as Need)
    upsertOrder(order('o1'))
    upsertOrder(order('o1'))
    prependEvents([event('e1')])
    for (const list of [state.needs, state.orders, state.events]) {
      expect(list).toHaveLength(1)
      expect(isProxy(list[0])).toBe(false)
    }
  })
})
