// The city reference of the map itself (PRODUCT §3 "City reference"): the
// towns of `data/cities.json` the map labels and the shop list names, their
// distances, and the answer of the map's search as the map reads it. Finding
// a place by postal code or name is the server's (`GET /api/places`,
// map/places.ts): the browser never loads every commune. Pure; no network.
import cityReference from './data/cities.json'
import { type City, type LonLat, cityLonLat, departmentCode } from './geo'
import { normalizeText } from './text'

export { normalizeText } from './text'

/** A town of the reference, ready to search and place. */
export interface CityEntry {
  id: string
  name: string
  /** Department code, "01" … "95", "2A", "2B". */
  department: string
  /** Every postal code of the commune, 5 digits each. */
  postalCodes: string[]
  population: number
  lonLat: LonLat
  /** The name normalised for matching (see normalizeText). */
  key: string
}

/** The postal codes of a reference entry: 1000 → ["01000"], "06000-06100" → ["06000", "06100"]. */
export function postalCodesOf(codepostal: number | string | null | undefined): string[] {
  if (typeof codepostal === 'number') {
    return Number.isInteger(codepostal) && codepostal > 0 ? [String(codepostal).padStart(5, '0')] : []
  }
  return (String(codepostal ?? '').match(/\d{4,5}/g) ?? []).map((c) => c.padStart(5, '0'))
}

/** The entries of a reference (those with usable coordinates), most populous first. */
export function cityEntries(cities: readonly City[]): CityEntry[] {
  const out: CityEntry[] = []
  for (const c of cities) {
    const lonLat = cityLonLat(c)
    if (!lonLat) continue
    out.push({
      id: c.id,
      name: c.nomreel,
      department: departmentCode(c.departement),
      postalCodes: postalCodesOf(c.codepostal),
      population: c.population2012 || 0,
      lonLat,
      key: normalizeText(c.nomreel),
    })
  }
  return out.sort((a, b) => b.population - a.population || a.id.localeCompare(b.id))
}

/** The reference of the map (`data/cities.json`). */
export const CITIES: readonly CityEntry[] = cityEntries(cityReference as City[])

/** One answer of the map's search: a town, the postal code that matched, and whether it is only near. */
export interface CityMatch {
  city: CityEntry
  /** The postal code shown with the town (the one typed when it matched). */
  postalCode: string
  /**
   * The code typed belongs to no commune (a CEDEX code): this is a place of
   * the nearest postal code, a neighbour rather than the place itself.
   */
  approximate: boolean
}

const EARTH_RADIUS_KM = 6371

/** Great-circle distance in km between two [lon, lat] points. */
export function distanceKm(a: LonLat, b: LonLat): number {
  const rad = Math.PI / 180
  const dLat = (b[1] - a[1]) * rad
  const dLon = (b[0] - a[0]) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** The radius of the map's search (PRODUCT §9 "Map"). */
export const SEARCH_RADIUS_KM = 30

/**
 * The items within `radiusKm` of `center`, nearest first (ties by name),
 * each with its distance; items without a position are left out.
 */
export function withinRadius<T extends { name: string }>(
  items: readonly T[],
  positionOf: (item: T) => LonLat | null,
  center: LonLat,
  radiusKm: number = SEARCH_RADIUS_KM,
): { item: T; km: number }[] {
  const out: { item: T; km: number }[] = []
  for (const item of items) {
    const p = positionOf(item)
    if (!p) continue
    const km = distanceKm(center, p)
    if (km <= radiusKm) out.push({ item, km })
  }
  return out.sort((a, b) => a.km - b.km || a.item.name.localeCompare(b.item.name, 'fr'))
}

/** "Annecy (74000)", or "Annecy (74)" without a postal code. */
export function cityLabel(match: { city: CityEntry; postalCode: string }): string {
  return `${match.city.name} (${match.postalCode || match.city.department})`
}
