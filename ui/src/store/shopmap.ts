// The map of shops by viewport (PRODUCT §2 "Map", issue 20): what `GET
// /api/map` answers for the map's visible area — its shops with their
// score, or their clusters past 300 — and for the 30 km around a place the
// map's search found, both with the map's filters (issue 39). The map asks again when it moves or zooms: once it
// rests (MAP_DELAY), the request of an area left before its answer came
// cancelled. Each answer remembers the user it was loaded for (a shop's
// email depends on who asks).
import { proxy, useSnapshot } from 'valtio'
import { READ_AHEAD_MS, api } from '../api'
import type { LonLat } from '../map/coordinates'
import type { MapCluster, MapShop } from '../types'
import type { LoadStatus } from './state'
import { state } from './state'

/** The map's visible area in degrees, and its zoom. */
export interface MapBox {
  south: number
  west: number
  north: number
  east: number
  zoom: number
}

/** The answer for an area: its shops when they are 300 or fewer, else their clusters. */
export interface MapAnswer {
  /** The area asked (as sent: rounded outward to 1e-4 degree). */
  box: MapBox
  /** Shops in the area. */
  total: number
  shops: MapShop[]
  clusters: MapCluster[]
}

/**
 * The map's filters (issue 39, PRODUCT §2 "Map"): the shops with a need of
 * a family ('' any) and those within `km` of the viewer's own place by road
 * (0 any).
 */
export interface MapFilter {
  family: string
  km: number
}

/** No filter: every shop. */
export const NO_FILTER: MapFilter = { family: '', km: 0 }

/** The distances the map's filter offers, in km. */
export const MAP_DISTANCES = [20, 50, 100, 200] as const

export interface ShopMapState {
  /** Id of the user the answers were loaded for. */
  owner: string | null
  /** The filters of the map's view (and of the list of a cluster's shops). */
  filter: MapFilter
  /** The visible area's answer; the previous one stays while the next comes. */
  view: MapAnswer | null
  viewStatus: LoadStatus
  /** The answer around the place searched, with the key of its question. */
  nearby: { key: string; answer: MapAnswer } | null
  nearbyStatus: LoadStatus
  /** Shops named by `GET /api/shops/{id}`, by id: those the user load does not name. */
  cards: Record<string, { name: string; email: string }>
}

/** How long the map must rest before it asks for its area, in ms. */
export const MAP_DELAY = 250

/** The zoom of the area around a place searched: the largest, so that its shops are listed. */
export const NEARBY_ZOOM = 4

/** The slice as it starts, given to `owner`. */
function emptyShopMap(owner: string | null): ShopMapState {
  return { owner, filter: NO_FILTER, view: null, viewStatus: 'idle', nearby: null, nearbyStatus: 'idle', cards: {} }
}

export const shopMap = proxy<ShopMapState>(emptyShopMap(null))

// The request under way or waiting for the map to rest (not state: nothing renders them).
let viewTimer: ReturnType<typeof setTimeout> | null = null
let viewController: AbortController | null = null
let viewAsked: { key: string; box: MapBox; filter: MapFilter } | null = null
let nearbyController: AbortController | null = null

/**
 * The shops of an area asked before the map was drawn (the entry,
 * screens.ts, issue 42), for the user it was asked for: the map's first
 * view is served from it when that view lies inside it, at its zoom and
 * without filter, and it lists shops, not clusters (the server's answer
 * for a smaller area is then those of its shops inside it). Taken once,
 * within READ_AHEAD_MS.
 */
let ahead: { box: MapBox; owner: string | null; at: number; answer: Promise<MapAnswer> } | null = null

/** Empties the slice and cancels its requests, giving it to `owner` (tests, and a change of user). */
export function resetShopMap(owner: string | null = null): void {
  if (viewTimer) clearTimeout(viewTimer)
  viewController?.abort()
  nearbyController?.abort()
  viewTimer = viewController = nearbyController = null
  viewAsked = null
  ahead = null
  Object.assign(shopMap, emptyShopMap(owner))
}

/** Makes the slice belong to the session's user, forgetting another user's answers. */
function claim(): void {
  const id = state.user?._id ?? null
  if (shopMap.owner !== id) resetShopMap(id)
}

const clamp = (x: number, limit: number) => Math.max(-limit, Math.min(limit, x))

/** The area rounded outward to 1e-4 degree (about 10 m) and kept within the globe. */
export function roundBox(box: MapBox): MapBox {
  const down = (x: number) => Math.floor(x * 1e4) / 1e4
  const up = (x: number) => Math.ceil(x * 1e4) / 1e4
  return {
    south: clamp(down(box.south), 90),
    west: clamp(down(box.west), 180),
    north: clamp(up(box.north), 90),
    east: clamp(up(box.east), 180),
    zoom: box.zoom,
  }
}

/**
 * The query of `GET /api/map` for an area (rounded first) and the filters
 * set; it is also the area's key.
 */
export function mapQuery(box: MapBox, filter: MapFilter = NO_FILTER): string {
  const b = roundBox(box)
  const f = (x: number) => x.toFixed(4)
  let q = `south=${f(b.south)}&west=${f(b.west)}&north=${f(b.north)}&east=${f(b.east)}&zoom=${b.zoom}`
  if (filter.family) q += `&family=${encodeURIComponent(filter.family)}`
  if (filter.km > 0) q += `&km=${filter.km}`
  return q
}

/** Sets the map's filters: the view is asked again with them (ShopMap's effect). */
export function setMapFilter(filter: MapFilter): void {
  claim()
  shopMap.filter = { family: filter.family, km: filter.km }
}

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)

function isShop(x: unknown): x is MapShop {
  const s = x as MapShop | null
  return (
    !!s &&
    typeof s._id === 'string' &&
    typeof s.name === 'string' &&
    typeof s.email === 'string' &&
    isNumber(s.latitude) &&
    isNumber(s.longitude) &&
    isNumber(s.score)
  )
}

function isCluster(x: unknown): x is MapCluster {
  const c = x as MapCluster | null
  return (
    !!c && isNumber(c.count) && [c.latitude, c.longitude, c.south, c.west, c.north, c.east].every((v) => isNumber(v))
  )
}

/**
 * The answer for an area (`GET /api/map`), read into its documented shape;
 * an answer of another shape rejects, and so does a cancelled request.
 */
export async function fetchMap(box: MapBox, signal?: AbortSignal, filter: MapFilter = NO_FILTER): Promise<MapAnswer> {
  const sent = roundBox(box)
  const answer = await api.get<unknown>(`/api/map?${mapQuery(sent, filter)}`, signal)
  const a = answer as { total?: unknown; shops?: unknown; clusters?: unknown } | null
  if (
    !a ||
    !isNumber(a.total) ||
    !Array.isArray(a.shops) ||
    !Array.isArray(a.clusters) ||
    !a.shops.every(isShop) ||
    !a.clusters.every(isCluster)
  ) {
    throw new Error('réponse inattendue de /api/map')
  }
  return { box: sent, total: a.total, shops: a.shops, clusters: a.clusters }
}

/**
 * Asks for the map's visible area once the map rests for `delay` ms: a new
 * area replaces the one waiting and cancels the request under way. The
 * area of the answer held, or the one under way, is not asked again.
 */
export function requestMapView(box: MapBox, { delay = MAP_DELAY }: { delay?: number } = {}): void {
  claim()
  const filter = { ...shopMap.filter }
  const key = mapQuery(box, filter)
  if (viewAsked?.key === key) return
  if (viewTimer) clearTimeout(viewTimer)
  viewController?.abort()
  viewController = null
  viewAsked = { key, box, filter }
  viewTimer = setTimeout(() => {
    viewTimer = null
    void loadMapView(box, filter)
  }, delay)
}

/** Asks again, at once, for the last area asked (after a failure). */
export function retryMapView(): void {
  if (!viewAsked) return
  if (viewTimer) clearTimeout(viewTimer)
  viewTimer = null
  void loadMapView(viewAsked.box, viewAsked.filter)
}

/**
 * Reads the shops of `box` now (GET /api/map), for the map's first view
 * to take if it lies inside (see `ahead`): the entry asks it of an area
 * that holds the dashboard's map (map/ahead.ts firstMapArea).
 */
export function readMapAhead(box: MapBox): void {
  claim()
  const answer = fetchMap(box)
  // Its failure is the taker's to see (it asks again); one not taken is forgotten.
  answer.catch(() => undefined)
  ahead = { box: roundBox(box), owner: shopMap.owner, at: Date.now(), answer }
}

/** The shops of `box` inside the answer read ahead, when it holds them (see `ahead`); null else. */
async function takeAhead(box: MapBox, filter: MapFilter): Promise<MapAnswer | null> {
  const held = ahead
  ahead = null
  if (!held || held.owner !== shopMap.owner || filter.family || filter.km > 0) return null
  if (Date.now() - held.at > READ_AHEAD_MS) return null
  const b = roundBox(box)
  const a = held.box
  if (b.zoom !== a.zoom || b.south < a.south || b.north > a.north || b.west < a.west || b.east > a.east) return null
  const answer = await held.answer.catch(() => null)
  if (!answer || answer.clusters.length > 0) return null
  const shops = answer.shops.filter(
    (s) => s.latitude >= b.south && s.latitude <= b.north && s.longitude >= b.west && s.longitude <= b.east,
  )
  return { box: b, total: shops.length, shops, clusters: [] }
}

async function loadMapView(box: MapBox, filter: MapFilter): Promise<void> {
  viewController?.abort()
  const controller = new AbortController()
  viewController = controller
  const owner = shopMap.owner
  shopMap.viewStatus = 'busy'
  try {
    const answer = (await takeAhead(box, filter)) ?? (await fetchMap(box, controller.signal, filter))
    if (controller.signal.aborted || shopMap.owner !== owner) return
    shopMap.view = answer
    shopMap.viewStatus = 'idle'
  } catch (err) {
    if (controller.signal.aborted || shopMap.owner !== owner) return
    console.error('map:', err)
    shopMap.viewStatus = 'error'
  } finally {
    if (viewController === controller) viewController = null
  }
}

/** The area of `radiusKm` around a point: what the search lists (a degree of latitude is 111.2 km). */
export function boxAround([lon, lat]: LonLat, radiusKm: number): MapBox {
  const dLat = radiusKm / 111.2
  const dLon = dLat / Math.max(0.2, Math.cos((lat * Math.PI) / 180))
  return { south: lat - dLat, west: lon - dLon, north: lat + dLat, east: lon + dLon, zoom: NEARBY_ZOOM }
}

/**
 * Loads the shops within `radiusKm` of a place searched (the box around it;
 * the caller keeps those within the radius) that the map's filters keep:
 * the server applies them as to the map's view (`GET /api/map?family=&km=`),
 * so that a search after a filter lists only the shops the map shows. A new
 * search, or new filters, cancels the previous one. Resolves whether the
 * answer came.
 */
export async function loadNearby(center: LonLat, radiusKm: number, filter: MapFilter = NO_FILTER): Promise<boolean> {
  claim()
  const box = boxAround(center, radiusKm)
  const key = mapQuery(box, filter)
  if (shopMap.nearby?.key === key) return true
  nearbyController?.abort()
  const controller = new AbortController()
  nearbyController = controller
  const owner = shopMap.owner
  shopMap.nearbyStatus = 'busy'
  try {
    const answer = await fetchMap(box, controller.signal, filter)
    if (controller.signal.aborted || shopMap.owner !== owner) return false
    shopMap.nearby = { key, answer }
    shopMap.nearbyStatus = 'idle'
    return true
  } catch (err) {
    if (controller.signal.aborted || shopMap.owner !== owner) return false
    console.error('map search:', err)
    shopMap.nearbyStatus = 'error'
    return false
  } finally {
    if (nearbyController === controller) nearbyController = null
  }
}

/** Forgets the search's answer (the search was cleared). */
export function clearNearby(): void {
  nearbyController?.abort()
  nearbyController = null
  shopMap.nearby = null
  shopMap.nearbyStatus = 'idle'
}

/**
 * Names a shop the user load does not (a producer opening, from the map, a
 * shop it does not trade with yet): `GET /api/shops/{id}`, once per shop.
 * Resolves whether its name is known.
 */
export async function loadShopCard(id: string): Promise<boolean> {
  claim()
  if (shopMap.cards[id]) return true
  const owner = shopMap.owner
  try {
    const card = await api.get<{ _id?: unknown; name?: unknown; email?: unknown }>(
      `/api/shops/${encodeURIComponent(id)}`,
    )
    if (typeof card?.name !== 'string') throw new Error('réponse inattendue de /api/shops')
    if (shopMap.owner !== owner) return false
    shopMap.cards[id] = { name: card.name, email: typeof card.email === 'string' ? card.email : '' }
    return true
  } catch (err) {
    console.error('shop:', err)
    return false
  }
}

function useOwned() {
  const m = useSnapshot(shopMap)
  const userId = useSnapshot(state).user?._id ?? null
  return m.owner === userId ? m : null
}

/** The visible area's answer, null until the first one. */
export const useMapView = (): MapAnswer | null => (useOwned()?.view as MapAnswer | null | undefined) ?? null
export const useMapViewStatus = (): LoadStatus => useOwned()?.viewStatus ?? 'idle'
/** The map's filters. */
export const useMapFilter = (): MapFilter => useOwned()?.filter ?? NO_FILTER

/** The answer around the place searched at `center` with those filters, null until it came. */
export const useNearby = (center: LonLat | null, radiusKm: number, filter: MapFilter = NO_FILTER): MapAnswer | null => {
  const nearby = useOwned()?.nearby
  if (!center || !nearby || nearby.key !== mapQuery(boxAround(center, radiusKm), filter)) return null
  return nearby.answer as MapAnswer
}
export const useNearbyStatus = (): LoadStatus => useOwned()?.nearbyStatus ?? 'idle'

/** The name of a shop loaded by loadShopCard, undefined until then. */
export const useShopCard = (id: string): { name: string; email: string } | undefined => useOwned()?.cards[id]
