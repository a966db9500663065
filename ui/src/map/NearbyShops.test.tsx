import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type MapFilter,
  NO_FILTER,
  boxAround,
  loadNearby,
  mapQuery,
  resetShopMap,
  setMapFilter,
  shopMap,
} from '../store/shopmap'
import { resetState, state } from '../store/state'
import { renderWithProviders } from '../test/render'
import { type StubShop, askedBox, mapAnswer } from '../test/shopmap'
import type { CityMatch } from './cities'
import { NearbyShops, nearbyFilterText } from './NearbyShops'

// The shops around Annecy, each with the families it needs and its road
// distance from the farm viewing the map: what the server's filters read
// (core/shopmap, tested in Go on both engines).
const shops: (StubShop & { families: string[]; roadKm: number })[] = [
  { _id: 'd1', name: 'Épicerie du Lac', latitude: 45.9009, longitude: 6.1265, families: ['fromages'], roadKm: 12 },
  { _id: 'd2', name: 'Le Panier des Aravis', latitude: 45.8817, longitude: 6.325, families: ['fruits'], roadKm: 18 },
  {
    _id: 'd3',
    name: 'Fromagerie de Rumilly',
    latitude: 45.8667,
    longitude: 5.9431,
    families: ['fromages'],
    roadKm: 35,
  },
]

/** A stand-in of `GET /api/map` that keeps the shops its filters keep; every request is remembered. */
function stubFilteredMap(fail = false) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
    const url = new URL(String(input), 'http://localhost')
    if (url.pathname !== '/api/map') return Promise.reject(new Error(`unexpected request ${url.pathname}`))
    if (fail) return Promise.resolve(new Response(JSON.stringify({ status: 422, detail: 'refusé' }), { status: 422 }))
    const family = url.searchParams.get('family') ?? ''
    const km = Number(url.searchParams.get('km') ?? 0)
    const kept = shops.filter((s) => !family || s.families.includes(family)).filter((s) => !km || s.roadKm <= km)
    return Promise.resolve(new Response(JSON.stringify(mapAnswer(kept, askedBox(String(input))))))
  })
}

/** The filters of each `GET /api/map` asked, in order: "family km", empty for none. */
function filtersAsked(fetch: ReturnType<typeof stubFilteredMap>): string[] {
  return fetch.mock.calls.map((c) => {
    const q = new URL(String(c[0]), 'http://localhost').searchParams
    return `${q.get('family') ?? ''} ${q.get('km') ?? ''}`.trim()
  })
}

const annecy: CityMatch = {
  city: {
    id: '74010',
    name: 'Annecy',
    department: '74',
    postalCodes: ['74000'],
    population: 132117,
    lonLat: [6.12565, 45.90878],
    key: 'annecy',
  },
  postalCode: '74000',
  approximate: false,
}

beforeEach(() => {
  resetState(null)
  resetShopMap()
  state.families = [
    { _id: 'fruits', name: 'Fruits' },
    { _id: 'fromages', name: 'Fromages' },
    { _id: 'oeufs', name: 'Œufs' },
  ]
})

describe('nearbyFilterText', () => {
  it.each<[MapFilter, string, string | null]>([
    [NO_FILTER, '', null],
    [{ family: 'fromages', km: 0 }, 'Fromages', 'Filtres de la carte : magasins ayant des besoins en fromages.'],
    [{ family: 'oeufs', km: 0 }, 'Œufs', 'Filtres de la carte : magasins ayant des besoins en œufs.'],
    [{ family: '', km: 50 }, '', 'Filtres de la carte : à moins de 50 km de chez vous.'],
    [
      { family: 'fromages', km: 20 },
      'Fromages',
      'Filtres de la carte : magasins ayant des besoins en fromages, à moins de 20 km de chez vous.',
    ],
  ])('%o', (filter, name, want) => {
    expect(nearbyFilterText(filter, name)).toBe(want)
  })
})

describe('NearbyShops with the map’s filters', () => {
  it.each<[string, MapFilter, string, string[], string | null]>([
    ['every shop', NO_FILTER, '', ['Épicerie du Lac', 'Fromagerie de Rumilly', 'Le Panier des Aravis'], null],
    [
      'the shops needing cheese',
      { family: 'fromages', km: 0 },
      'fromages',
      ['Épicerie du Lac', 'Fromagerie de Rumilly'],
      'Filtres de la carte : magasins ayant des besoins en fromages.',
    ],
    [
      'the shops needing cheese within 20 km of the farm',
      { family: 'fromages', km: 20 },
      'fromages 20',
      ['Épicerie du Lac'],
      'Filtres de la carte : magasins ayant des besoins en fromages, à moins de 20 km de chez vous.',
    ],
    [
      'no shop, none needing eggs',
      { family: 'oeufs', km: 0 },
      'oeufs',
      [],
      'Filtres de la carte : magasins ayant des besoins en œufs.',
    ],
  ])('lists %s around the town', async (_name, filter, asked, listed, sentence) => {
    const fetch = stubFilteredMap()
    setMapFilter(filter)
    renderWithProviders(<NearbyShops match={annecy} onClear={() => {}} />)
    const status = () => within(screen.getByRole('region')).getByRole('status')
    const count = listed.length === 0 ? 'Aucun magasin' : `${listed.length} magasin${listed.length > 1 ? 's' : ''}`
    await waitFor(() => expect(status()).toHaveTextContent(`${count} à moins de 30 km d'Annecy (74000)`))
    expect(filtersAsked(fetch)).toEqual([asked])
    const items = screen.queryAllByRole('listitem').map((li) => li.textContent?.replace(/\d.*$/, ''))
    expect(items).toEqual(listed)
    if (sentence) expect(screen.getByText(sentence)).toBeInTheDocument()
    else expect(screen.queryByText(/^Filtres de la carte/)).not.toBeInTheDocument()
  })

  it('asks again when the filters change, and lists what the new answer keeps', async () => {
    const fetch = stubFilteredMap()
    renderWithProviders(<NearbyShops match={annecy} onClear={() => {}} />)
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(3))
    act(() => setMapFilter({ family: 'fruits', km: 0 }))
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1))
    expect(screen.getByRole('listitem')).toHaveTextContent('Le Panier des Aravis')
    act(() => setMapFilter(NO_FILTER))
    // The answer without filters was had: not asked again.
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(3))
    expect(filtersAsked(fetch)).toEqual(['', 'fruits', ''])
  })

  it('offers to try again with the same filters when the answer failed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    stubFilteredMap(true)
    setMapFilter({ family: 'fromages', km: 20 })
    const user = userEvent.setup()
    renderWithProviders(<NearbyShops match={annecy} onClear={() => {}} />)
    await screen.findByText('Les magasins proches n’ont pas pu être chargés.')
    vi.restoreAllMocks()
    const fetch = stubFilteredMap()
    await user.click(screen.getByRole('button', { name: 'Réessayer' }))
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1))
    expect(filtersAsked(fetch)).toEqual(['fromages 20'])
  })
})

describe('loadNearby', () => {
  it('asks for the 30 km around a town as the daemon’s test of the town search does (daemon/shopmap_test.go, nearbyAnnecy)', () => {
    expect(mapQuery(boxAround(annecy.city.lonLat, 30), { family: 'fromages', km: 5 })).toBe(
      'south=45.6389&west=5.7379&north=46.1786&east=6.5134&zoom=4&family=fromages&km=5',
    )
  })

  it('keys the answer by its filters: the same search with other filters asks again', async () => {
    const fetch = stubFilteredMap()
    expect(await loadNearby(annecy.city.lonLat, 30, { family: 'fromages', km: 0 })).toBe(true)
    expect(shopMap.nearby?.answer.shops.map((s) => s._id).sort()).toEqual(['d1', 'd3'])
    expect(await loadNearby(annecy.city.lonLat, 30, { family: 'fromages', km: 0 })).toBe(true)
    expect(await loadNearby(annecy.city.lonLat, 30, { family: 'fromages', km: 20 })).toBe(true)
    expect(shopMap.nearby?.answer.shops.map((s) => s._id)).toEqual(['d1'])
    expect(filtersAsked(fetch)).toEqual(['fromages', 'fromages 20'])
  })
})
