import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type StubShop, mapRequests, stubMap } from '../test/shopmap'
import type { User } from '../types'
import {
  MAP_DELAY,
  boxAround,
  clearNearby,
  loadNearby,
  loadShopCard,
  mapQuery,
  readMapAhead,
  requestMapView,
  resetShopMap,
  retryMapView,
  roundBox,
  shopMap,
} from './shopmap'
import { resetState, state } from './state'

const annecy: StubShop = {
  _id: 'd1',
  name: 'Épicerie du Lac',
  email: 'lac@x.fr',
  latitude: 45.9009,
  longitude: 6.1265,
  score: 940,
}
const brest: StubShop = { _id: 'd2', name: 'Halles de Brest', latitude: 48.39, longitude: -4.48 }
const hauteSavoie = { south: 45.68, west: 5.8, north: 46.41, east: 7.05, zoom: 1 }
const finistere = { south: 47.5, west: -5.5, north: 49, east: -3, zoom: 1 }

beforeEach(() => {
  resetState(null)
  resetShopMap()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the map by viewport', () => {
  it('rounds the area outward to 1e-4 degree within the globe, and writes its query', () => {
    expect(roundBox({ south: 45.68004, west: -5.20001, north: 46.40001, east: 200, zoom: 2 })).toEqual({
      south: 45.68,
      west: -5.2001,
      north: 46.4001,
      east: 180,
      zoom: 2,
    })
    expect(mapQuery(hauteSavoie)).toBe('south=45.6800&west=5.8000&north=46.4100&east=7.0500&zoom=1')
    expect(mapQuery({ ...hauteSavoie, south: -95 })).toContain('south=-90.0000')
    // The filters join the query, and so the area's key; none leaves it as it was.
    expect(mapQuery(hauteSavoie, { family: 'produits-laitiers', km: 50 })).toBe(
      'south=45.6800&west=5.8000&north=46.4100&east=7.0500&zoom=1&family=produits-laitiers&km=50',
    )
    expect(mapQuery(hauteSavoie, { family: '', km: 0 })).toBe(mapQuery(hauteSavoie))
  })

  it('asks for an area once the map rests, the last one only', async () => {
    vi.useFakeTimers()
    const fetch = stubMap([annecy, brest])
    requestMapView(finistere)
    await vi.advanceTimersByTimeAsync(MAP_DELAY - 1)
    requestMapView(hauteSavoie)
    await vi.advanceTimersByTimeAsync(MAP_DELAY - 1)
    expect(fetch).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(mapRequests(fetch)).toEqual([hauteSavoie])
    await vi.advanceTimersByTimeAsync(1) // the answer
    expect(shopMap.view?.shops.map((s) => [s.name, s.score])).toEqual([['Épicerie du Lac', 940]])
    expect(shopMap.view?.total).toBe(1)
    expect(shopMap.viewStatus).toBe('idle')
    // The same area again: nothing asked.
    requestMapView(hauteSavoie)
    await vi.advanceTimersByTimeAsync(MAP_DELAY * 2)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('cancels the request of an area left before its answer came, and keeps the answer held until the next', async () => {
    vi.useFakeTimers()
    const fetch = stubMap([annecy, brest], { delay: 1000 })
    requestMapView(hauteSavoie)
    await vi.advanceTimersByTimeAsync(MAP_DELAY + 1000)
    expect(shopMap.view?.shops[0]._id).toBe('d1')
    requestMapView(finistere)
    await vi.advanceTimersByTimeAsync(MAP_DELAY + 10)
    expect(shopMap.viewStatus).toBe('busy')
    expect(shopMap.view?.shops[0]._id).toBe('d1')
    requestMapView({ ...finistere, zoom: 2 })
    expect(fetch.mock.calls[1][1]?.signal?.aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(MAP_DELAY + 1000)
    expect(mapRequests(fetch).map((b) => b.zoom)).toEqual([1, 1, 2])
    expect(shopMap.view?.shops.map((s) => s._id)).toEqual(['d2'])
    expect(shopMap.view?.box.zoom).toBe(2)
  })

  it('marks a failed area, and asks for it again on demand', async () => {
    vi.useFakeTimers()
    let failing = true
    const fetch = stubMap([annecy], { fail: () => failing })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    requestMapView(hauteSavoie)
    await vi.advanceTimersByTimeAsync(MAP_DELAY + 1)
    expect(shopMap.viewStatus).toBe('error')
    expect(shopMap.view).toBeNull()
    failing = false
    retryMapView()
    await vi.advanceTimersByTimeAsync(1)
    expect(mapRequests(fetch)).toHaveLength(2)
    expect(shopMap.viewStatus).toBe('idle')
    expect(shopMap.view?.total).toBe(1)
  })

  it('refuses an answer of another shape', async () => {
    vi.useFakeTimers()
    vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ total: 1, shops: [{ _id: 'd1', name: 'X', latitude: '45.9' }], clusters: [] })),
    )
    requestMapView(hauteSavoie)
    await vi.advanceTimersByTimeAsync(MAP_DELAY)
    expect(shopMap.viewStatus).toBe('error')
    expect(shopMap.view).toBeNull()
  })

  it('forgets another user’s answers', async () => {
    vi.useFakeTimers()
    stubMap([annecy])
    state.user = { _id: 'farm-1', type: 'producer' } as User
    requestMapView(hauteSavoie)
    await vi.advanceTimersByTimeAsync(MAP_DELAY + 1)
    expect(shopMap.owner).toBe('farm-1')
    expect(shopMap.view?.total).toBe(1)
    state.user = { _id: 'farm-2', type: 'producer' } as User
    requestMapView(finistere)
    expect(shopMap.owner).toBe('farm-2')
    expect(shopMap.view).toBeNull()
  })

  it('loads the area around a place searched at the largest zoom, once', async () => {
    const fetch = stubMap([annecy, brest])
    const around = boxAround([6.12565, 45.90878], 30)
    expect(around.zoom).toBe(4)
    expect(around.north - around.south).toBeCloseTo(0.54, 2)
    expect(around.east - around.west).toBeGreaterThan(around.north - around.south)
    expect(await loadNearby([6.12565, 45.90878], 30)).toBe(true)
    expect(shopMap.nearby?.answer.shops.map((s) => s._id)).toEqual(['d1'])
    expect(await loadNearby([6.12565, 45.90878], 30)).toBe(true)
    expect(mapRequests(fetch)).toHaveLength(1)
    clearNearby()
    expect(shopMap.nearby).toBeNull()
  })

  it('names a shop once', async () => {
    const fetch = stubMap([annecy])
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await loadShopCard('d1')).toBe(true)
    expect(await loadShopCard('d1')).toBe(true)
    expect(shopMap.cards.d1).toEqual({ name: 'Épicerie du Lac', email: 'lac@x.fr' })
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(await loadShopCard('inconnu')).toBe(false)
    expect(shopMap.cards.inconnu).toBeUndefined()
  })
})

describe("the map's first area read ahead", () => {
  const annemasse: StubShop = { _id: 'd3', name: 'Primeurs du Genevois', latitude: 46.1934, longitude: 6.2342 }
  const rhoneAlpes = { south: 44.5, west: 4, north: 47, east: 8, zoom: 1 }
  const aroundAnnecy = { south: 45.7, west: 5.9, north: 46, east: 6.4, zoom: 1 }

  it.each([
    { name: 'an area inside it', box: aroundAnnecy, filter: undefined, asks: [rhoneAlpes] },
    {
      name: 'an area past it',
      box: { ...aroundAnnecy, north: 47.2 },
      filter: undefined,
      asks: [rhoneAlpes, { ...aroundAnnecy, north: 47.2 }],
    },
    {
      name: 'another zoom',
      box: { ...aroundAnnecy, zoom: 2 },
      filter: undefined,
      asks: [rhoneAlpes, { ...aroundAnnecy, zoom: 2 }],
    },
    { name: 'a filter', box: aroundAnnecy, filter: { family: 'fruits', km: 0 }, asks: [rhoneAlpes, aroundAnnecy] },
  ])('serves the view of $name from it, or asks', async ({ box, filter, asks }) => {
    const fetch = stubMap([annecy, annemasse, brest])
    readMapAhead(rhoneAlpes)
    if (filter) shopMap.filter = filter
    requestMapView(box, { delay: 0 })
    await vi.waitFor(() => expect(shopMap.view).not.toBeNull())
    expect(mapRequests(fetch)).toEqual(asks)
    // The view is the server's answer for its own area: the shops inside it, not those of the area read ahead.
    expect(shopMap.view?.shops.map((s) => s.name)).toEqual(
      box === aroundAnnecy && !filter ? ['Épicerie du Lac'] : expect.any(Array),
    )
    if (box === aroundAnnecy && !filter) expect(shopMap.view?.total).toBe(1)
    // Taken once: the next area is asked.
    requestMapView({ ...aroundAnnecy, south: 45.6 }, { delay: 0 })
    await vi.waitFor(() => expect(mapRequests(fetch)).toHaveLength(asks.length + 1))
  })

  it('asks for the view when the area read ahead answered clusters', async () => {
    const crowd = Array.from({ length: 301 }, (_, i) => ({ ...annecy, _id: `c${i}`, name: `Magasin ${i}` }))
    const fetch = stubMap(crowd)
    readMapAhead(rhoneAlpes)
    requestMapView(aroundAnnecy, { delay: 0 })
    await vi.waitFor(() => expect(shopMap.view).not.toBeNull())
    expect(mapRequests(fetch)).toEqual([rhoneAlpes, aroundAnnecy])
  })

  it('is forgotten with the user it was read for', async () => {
    const fetch = stubMap([annecy])
    readMapAhead(rhoneAlpes)
    resetShopMap('someone-else')
    requestMapView(aroundAnnecy, { delay: 0 })
    await vi.waitFor(() => expect(shopMap.view).not.toBeNull())
    expect(mapRequests(fetch)).toEqual([rhoneAlpes, aroundAnnecy])
  })
})
