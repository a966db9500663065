// The trade actions merge what the daemon answers into the store: the need,
// the order, the product's price and the events, without loading the user
// again (issue 14).
import { notifications } from '@mantine/notifications'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { distributor, producer } from '../test/fixtures'
import { need, proposal } from '../test/needs'
import type { ActivityEvent, Delivery, Need, Order, TradeAnswer } from '../types'
import { resetState, state } from './state'
import { TRADE_MESSAGES, propose, review, withdraw } from './trade'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

let fetchMock: ReturnType<typeof vi.spyOn>

beforeEach(() => {
  resetState('epicerie@exemple.fr')
  vi.spyOn(notifications, 'show')
  vi.spyOn(notifications, 'update')
  fetchMock = vi.spyOn(globalThis, 'fetch')
})

afterEach(() => {
  vi.restoreAllMocks()
})

/** The URLs fetched so far. */
const urls = () => fetchMock.mock.calls.map((call: unknown[]) => String(call[0]))

function delivery(orderId: string, date: string, product: string, quantity: number): Delivery {
  return {
    _id: `${orderId}-${date}-${product}`,
    orderId,
    status: 'planned',
    date,
    chrono: 1,
    claimStatus: 'void',
    claimBy: 'producer',
    deliveryLines: [
      {
        _id: `l-${date}-${product}`,
        product,
        price: 2,
        quantityExpected: quantity,
        quantitySent: quantity,
        quantityClaimed: 0,
      },
    ],
  }
}

function event(id: string, type: ActivityEvent['type'], outcome?: boolean): ActivityEvent {
  return {
    _id: id,
    createdAt: '2026-11-20T10:00:00Z',
    type,
    data: {
      product: { name: 'Tomate', unit: 'kg' },
      date: '2026-12-01',
      quantity: 40,
      price: 2,
      ...(outcome === undefined ? {} : { outcome }),
    },
    origin: { email: 'epicerie@exemple.fr', name: 'Épicerie du coin' },
    target: { name: 'Ferme des Saules' },
  }
}

/** A trade answer: the need's fields, then what else changed. */
const answer = (n: Need, extra: Partial<TradeAnswer> = {}): TradeAnswer => ({ ...n, events: [], ...extra })

describe('trade answers merged into the store', () => {
  const older = event('e0', 'need:create')
  const otherOrder: Order = {
    _id: 'o0',
    date: '2026-12-01',
    producer: 'p2',
    deliveries: [delivery('o0', '2026-12-03', 'pomme', 10)],
  }

  beforeEach(() => {
    state.user = distributor
    state.orders = [otherOrder]
    state.events = [older]
  })

  it('an acceptance creating an order adds it, with the event', async () => {
    const open = need('tomate', '2026-12-01', 100, {
      proposals: [proposal('p1', 'proposed', 40)],
      quantityProposed: 40,
    })
    state.needs = [open]
    const accepted = {
      ...open,
      quantityAccepted: 40,
      quantityProposed: 0,
      proposals: [{ ...open.proposals[0], status: 'accepted' as const }],
    }
    const order: Order = {
      _id: 'o1',
      date: '2026-12-01',
      producer: 'p1',
      deliveries: [delivery('o1', '2026-12-03', 'tomate', 20), delivery('o1', '2026-12-07', 'tomate', 20)],
    }
    const reviewed = event('e1', 'proposal:review', true)
    fetchMock.mockResolvedValueOnce(json(200, answer(accepted, { order, events: [reviewed] })))

    expect(await review(open._id, 'p1', true)).toEqual({ ok: true, need: accepted })
    expect(state.needs).toEqual([accepted])
    expect(state.orders).toEqual([otherOrder, order])
    expect(state.events).toEqual([reviewed, older])
    // The user is not loaded again.
    expect(urls()).toEqual([`/api/proposalreview/${open._id}/p1`])
  })

  it('a second acceptance replaces the order it adds deliveries to', async () => {
    state.user = producer
    const first: Order = {
      _id: 'o1',
      date: '2026-12-01',
      distributor: 'd1',
      deliveries: [delivery('o1', '2026-12-03', 'tomate', 40)],
    }
    state.orders = [first, otherOrder]
    const carrots = need('carotte', '2026-12-01', 50, {
      proposals: [proposal('p1', 'proposed', 20, 'distributor')],
      quantityProposed: 20,
    })
    state.needs = [carrots]
    const accepted = {
      ...carrots,
      quantityAccepted: 20,
      quantityProposed: 0,
      proposals: [{ ...carrots.proposals[0], status: 'accepted' as const }],
    }
    const grown: Order = { ...first, deliveries: [...first.deliveries, delivery('o1', '2026-12-07', 'carotte', 20)] }
    const reviewed = event('e2', 'proposal:review', true)
    fetchMock.mockResolvedValueOnce(json(200, answer(accepted, { order: grown, events: [reviewed] })))

    expect((await review(carrots._id, 'p1', true)).ok).toBe(true)
    expect(state.orders).toEqual([grown, otherOrder])
    expect(state.orders[0].deliveries).toHaveLength(2)
    expect(state.needs).toEqual([accepted])
    expect(state.events).toEqual([reviewed, older])
    expect(urls()).toEqual([`/api/proposalreview/${carrots._id}/p1`])
  })

  it('an acceptance ending the last commitment removes the order', async () => {
    const ended = need('tomate', '2026-12-01', 100)
    const held: Order = {
      _id: 'o1',
      date: '2026-12-01',
      producer: 'p1',
      deliveries: [delivery('o1', '2026-12-03', 'tomate', 40)],
    }
    state.orders = [otherOrder, held]
    state.needs = [
      need('tomate', '2026-12-01', 100, {
        _id: ended._id,
        quantityAccepted: 40,
        proposals: [proposal('p1', 'accepted', 40), proposal('p1', 'proposed', 0)],
      }),
    ]
    const reviewed = event('e3', 'fix:review', true)
    fetchMock.mockResolvedValueOnce(json(200, answer(ended, { removedOrder: 'o1', events: [reviewed] })))

    expect((await review(ended._id, 'p1', true)).ok).toBe(true)
    expect(state.orders).toEqual([otherOrder])
    expect(state.needs).toEqual([ended])
    expect(state.events).toEqual([reviewed, older])
  })

  it('a refusal replaces the need and adds its event; orders stay', async () => {
    const open = need('tomate', '2026-12-01', 100, {
      proposals: [proposal('p1', 'proposed', 40)],
      quantityProposed: 40,
    })
    state.needs = [open]
    const refused = { ...open, quantityProposed: 0, proposals: [{ ...open.proposals[0], status: 'rejected' as const }] }
    const reviewed = event('e4', 'proposal:review', false)
    fetchMock.mockResolvedValueOnce(json(200, answer(refused, { events: [reviewed] })))

    expect(await review(open._id, 'p1', false)).toEqual({ ok: true, need: refused })
    expect(state.needs).toEqual([refused])
    expect(state.events).toEqual([reviewed, older])
    expect(state.orders).toEqual([otherOrder])
    expect(urls()).toEqual([`/api/proposalreview/${open._id}/p1`])
  })

  it('a withdrawal replaces the need only', async () => {
    const open = need('tomate', '2026-12-01', 100, {
      proposals: [proposal('p1', 'proposed', 40, 'distributor')],
      quantityProposed: 40,
    })
    state.needs = [open]
    const withdrawn = { ...open, quantityProposed: 0, quantityAvailable: 100, proposals: [] }
    fetchMock.mockResolvedValueOnce(json(200, answer(withdrawn)))

    expect(await withdraw(open._id, 'p1')).toEqual({ ok: true, need: withdrawn })
    expect(state.needs).toEqual([withdrawn])
    expect(state.events).toEqual([older])
    expect(state.orders).toEqual([otherOrder])
    expect(urls()).toEqual([`/api/proposals/${open._id}/p1`])
  })

  it('a proposal adds its event once, even when the feed already holds it', async () => {
    const open = need('tomate', '2026-12-01', 100)
    state.needs = [open]
    const proposed = {
      ...open,
      quantityProposed: 40,
      quantityAvailable: 60,
      proposals: [proposal('p1', 'proposed', 40, 'distributor')],
    }
    const requested = event('e5', 'proposal:request')
    fetchMock.mockResolvedValueOnce(json(200, answer(proposed, { events: [requested] })))
    expect((await propose(open._id, 'p1', { quantity: 40, price: 2 }, 'create')).ok).toBe(true)
    expect(state.events).toEqual([requested, older])
    fetchMock.mockResolvedValueOnce(json(200, answer(proposed, { events: [requested] })))
    expect((await propose(open._id, 'p1', { quantity: 40, price: 2 }, 'create')).ok).toBe(true)
    expect(state.events).toEqual([requested, older])
  })

  it('words a first proposal as a creation, the others as a modification (PRODUCT §8)', async () => {
    const open = need('tomate', '2026-12-01', 100)
    state.needs = [open]
    const titles = () => ({
      progress: vi.mocked(notifications.show).mock.calls.map(([n]) => String(n.title)),
      outcome: vi.mocked(notifications.update).mock.calls.map(([n]) => String(n.title)),
    })
    const proposed = { ...open, proposals: [proposal('p1', 'proposed', 40)] }
    fetchMock.mockResolvedValueOnce(json(200, answer(proposed)))
    await propose(open._id, 'p1', { quantity: 40, price: 2 }, 'create')
    expect(titles()).toEqual({ progress: ['Création en cours'], outcome: ['Création effectuée'] })
    vi.mocked(notifications.show).mockClear()
    vi.mocked(notifications.update).mockClear()
    fetchMock.mockResolvedValueOnce(json(200, answer(proposed)))
    await propose(open._id, 'p1', { quantity: 30, price: 2 }, 'modify')
    expect(titles()).toEqual({ progress: ['Modification en cours'], outcome: ['Modification effectuée'] })
    vi.mocked(notifications.show).mockClear()
    vi.mocked(notifications.update).mockClear()
    fetchMock.mockResolvedValueOnce(json(500, { status: 500, title: 'x', detail: 'panne' }))
    await propose(open._id, 'p1', { quantity: 30, price: 2 }, 'create')
    // Every proposal failure is PRODUCT §8's "Échec de la modification".
    expect(titles()).toEqual({ progress: ['Création en cours'], outcome: ['Échec de la modification'] })
  })

  it('a refused call changes nothing', async () => {
    const open = need('tomate', '2026-12-01', 100, {
      proposals: [proposal('p1', 'proposed', 40)],
      quantityProposed: 40,
    })
    state.needs = [open]
    fetchMock.mockResolvedValueOnce(
      json(409, {
        status: 409,
        title: 'Conflict',
        detail: "Cette action n'est pas possible dans l'état actuel de la proposition.",
      }),
    )
    const result = await review(open._id, 'p1', true)
    expect(result).toMatchObject({ ok: false })
    expect(state.needs).toEqual([open])
    expect(state.orders).toEqual([otherOrder])
    expect(state.events).toEqual([older])
    expect(vi.mocked(notifications.update).mock.calls.map(([n]) => String(n.title))).toEqual([
      TRADE_MESSAGES.reviewFailed,
    ])
  })
})
