// A stand-in for the server's map in unit tests (the query itself is tested
// in Go, core/shopmap): `GET /api/map` answers the given shops inside the
// area asked, or, past `limit`, their counts per cell of the server's grid
// (64 pixels at the zoom, 1.44 times wider in degrees); `GET /api/shops/{id}`
// names one of them; `GET /api/places` answers as stubPlaces does. A
// request honours its AbortSignal; every other request fails.
import { vi } from 'vitest'
import type { MapCluster, MapShop } from '../types'
import { type PlaceJSON, answerLater, placesBody } from './places'

/** A shop of the stand-in, its email and score optional. */
export type StubShop = Omit<MapShop, 'email' | 'score'> & { email?: string; score?: number }

/** The area of a request of `GET /api/map`. */
export interface AskedBox {
  south: number
  west: number
  north: number
  east: number
  zoom: number
}

/** The area a `GET /api/map` URL asks for. */
export function askedBox(url: string): AskedBox {
  const q = new URL(url, 'http://localhost').searchParams
  const n = (k: string) => Number(q.get(k))
  return { south: n('south'), west: n('west'), north: n('north'), east: n('east'), zoom: n('zoom') }
}

/** What the server answers for an area: its shops, or their clusters past `limit`. */
export function mapAnswer(shops: readonly StubShop[], box: AskedBox, limit = 300) {
  const inside = shops
    .filter((s) => s.latitude >= box.south && s.latitude <= box.north)
    .filter((s) => s.longitude >= box.west && s.longitude <= box.east)
    .map((s) => ({ email: '', score: 0, ...s }))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
  if (inside.length <= limit) return { total: inside.length, shops: inside, clusters: [] as MapCluster[] }
  const cellLat = Math.round(((64 / (20000 * box.zoom)) * 180 * 1e6) / Math.PI)
  const cellLon = Math.round(cellLat * 1.44)
  const cells = new Map<string, MapShop[]>()
  for (const s of inside) {
    const key = `${Math.floor((s.latitude * 1e6 + 90e6) / cellLat)},${Math.floor((s.longitude * 1e6 + 180e6) / cellLon)}`
    cells.set(key, [...(cells.get(key) ?? []), s])
  }
  const clusters: MapCluster[] = [...cells.values()].map((list) => ({
    count: list.length,
    latitude: list.reduce((t, s) => t + s.latitude, 0) / list.length,
    longitude: list.reduce((t, s) => t + s.longitude, 0) / list.length,
    south: Math.min(...list.map((s) => s.latitude)),
    north: Math.max(...list.map((s) => s.latitude)),
    west: Math.min(...list.map((s) => s.longitude)),
    east: Math.max(...list.map((s) => s.longitude)),
  }))
  return { total: inside.length, shops: [] as MapShop[], clusters }
}

/**
 * Stubs fetch with the stand-in. Returns the spy, whose calls are the
 * requests. `fail` makes `GET /api/map` answer 500 while it returns true.
 */
export function stubMap(
  shops: readonly StubShop[],
  {
    limit = 300,
    delay = 0,
    places = {},
    fail,
  }: { limit?: number; delay?: number; places?: Record<string, PlaceJSON[]>; fail?: () => boolean } = {},
) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = new URL(String(input), 'http://localhost')
    if (url.pathname === '/api/places') return answerLater(placesBody(url, places), init?.signal, delay)
    if (url.pathname === '/api/map') {
      if (fail?.())
        return answerLater(
          JSON.stringify({ status: 500, detail: 'Erreur interne du serveur.' }),
          init?.signal,
          delay,
          500,
        )
      return answerLater(JSON.stringify(mapAnswer(shops, askedBox(String(input)), limit)), init?.signal, delay)
    }
    const card = /^\/api\/shops\/([^/]+)$/.exec(url.pathname)
    if (card) {
      const shop = shops.find((s) => s._id === decodeURIComponent(card[1]))
      if (!shop)
        return answerLater(JSON.stringify({ status: 404, detail: 'Ressource introuvable.' }), init?.signal, delay, 404)
      return answerLater(
        JSON.stringify({ _id: shop._id, name: shop.name, email: shop.email ?? '' }),
        init?.signal,
        delay,
      )
    }
    return Promise.reject(new Error(`unexpected request ${url.pathname}`))
  })
}

/** The `GET /api/map` requests a spy saw, as areas. */
export function mapRequests(fetch: ReturnType<typeof stubMap>): AskedBox[] {
  return fetch.mock.calls
    .map((c) => String(c[0]))
    .filter((u) => u.startsWith('/api/map?'))
    .map(askedBox)
}
