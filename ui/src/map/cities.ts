// The city reference as a place finder (PRODUCT §3 "City reference", §2
// "Map" search, §2 "Profile form" position): towns and postal codes of
// `data/cities.json`, a fuzzy search tolerant of accents, case and typos, the
// place of an address, and distances. Pure; no network.
import cityReference from './data/cities.json'
import { type City, type LonLat, cityLonLat, departmentCode } from './geo'

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

/**
 * Text as the search compares it: lower case, no accents, œ/æ spelled out,
 * every run of other characters (hyphens, apostrophes, spaces) one space,
 * and "st"/"ste" read as "saint"/"sainte".
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/œ/gi, 'oe')
    .replace(/æ/gi, 'ae')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\bste\b/g, 'sainte')
    .replace(/\bst\b/g, 'saint')
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

/**
 * The department of a French postal code: "74230" → "74"; Corsica "200xx"
 * and "201xx" → "2A", "202xx" to "206xx" → "2B"; "" when it is not one
 * (the rule of core/address.Department, metropolitan codes only).
 */
export function departmentOfPostcode(postcode: string): string {
  if (!/^\d{5}$/.test(postcode) || postcode < '01000' || postcode >= '97000') return ''
  if (postcode.startsWith('20')) return postcode < '20200' ? '2A' : '2B'
  return postcode.slice(0, 2)
}

/** Edit distance (insertions, deletions, substitutions, swaps of neighbours). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}

/** Typos forgiven for a query of this length: none under 4 letters, 1 up to 6, then 2. */
function typosAllowed(length: number): number {
  if (length < 4) return 0
  return length <= 6 ? 1 : 2
}

/**
 * How well a normalised query matches a normalised name; lower is better,
 * null when it does not: 0 equal, 1 the name starts with it, 2 a word of the
 * name does, 3 it is inside the name, 4+ close with typos (the query against
 * the name, or against the name's start of the same length while typing).
 */
export function nameScore(query: string, name: string): number | null {
  if (!query) return null
  if (name === query) return 0
  if (name.startsWith(query)) return 1
  if (name.split(' ').some((w) => w.startsWith(query))) return 2
  if (name.includes(query)) return 3
  const allowed = typosAllowed(query.length)
  if (allowed === 0) return null
  const whole = editDistance(query, name)
  const start = editDistance(query, name.slice(0, query.length))
  const best = Math.min(whole, start + 0.5)
  return best <= allowed ? 3 + best : null
}

/** One answer of the search: a town, the postal code that matched, and whether it is only near. */
export interface CityMatch {
  city: CityEntry
  /** The postal code shown with the town (the one typed when it matched). */
  postalCode: string
  /**
   * The code typed belongs to no town of the reference: this is the main
   * town of its department, a neighbour rather than the place itself.
   */
  approximate: boolean
}

/** The most populous towns of a department, as approximate matches for a postal code. */
function departmentFallback(postcode: string, cities: readonly CityEntry[], limit: number): CityMatch[] {
  const dep = departmentOfPostcode(postcode)
  if (!dep) return []
  return cities
    .filter((c) => c.department === dep)
    .slice(0, limit)
    .map((city) => ({ city, postalCode: city.postalCodes[0] ?? '', approximate: true }))
}

/**
 * Towns for what a user types (PRODUCT §2 "Map"): a postal code or its
 * start ("74", "7400", "74000"), a town name with or without accents and
 * with a typo or two ("anecy", "saint etienne", "St-Étienne"), or both
 * ("74000 Annecy"). A full postal code of no town of the reference gives
 * the main towns of its department, marked approximate. Best first, at
 * most `limit`.
 */
export function searchCities(query: string, limit = 8, cities: readonly CityEntry[] = CITIES): CityMatch[] {
  const text = query.trim()
  const code = /^(\d{2,5})\b\s*(.*)$/.exec(text)
  const digits = code?.[1] ?? ''
  const name = normalizeText(code ? code[2] : text)
  if (!digits && !name) return []

  if (digits) {
    const byCode: CityMatch[] = []
    for (const city of cities) {
      const matched = city.postalCodes.find((c) => c.startsWith(digits))
      if (matched) byCode.push({ city, postalCode: matched, approximate: false })
    }
    byCode.sort((a, b) => a.postalCode.localeCompare(b.postalCode) || b.city.population - a.city.population)
    let found = byCode
    if (name) {
      const named = byCode.filter((m) => nameScore(name, m.city.key) !== null)
      if (named.length > 0) found = named
    }
    if (found.length > 0) return found.slice(0, limit)
    return digits.length === 5 ? departmentFallback(digits, cities, limit) : []
  }

  const scored: { match: CityMatch; score: number }[] = []
  for (const city of cities) {
    const score = nameScore(name, city.key)
    if (score !== null)
      scored.push({ match: { city, postalCode: city.postalCodes[0] ?? '', approximate: false }, score })
  }
  scored.sort((a, b) => a.score - b.score || b.match.city.population - a.match.city.population)
  return scored.slice(0, limit).map((s) => s.match)
}

/**
 * How a position was found from an address: on the town typed, on the
 * town of its postal code, or on the main town of the postal code's
 * department (approximate).
 */
export interface AddressPlace {
  city: CityEntry
  how: 'town' | 'postcode' | 'department'
}

/**
 * The town of the reference that places an address (PRODUCT §2 "Profile
 * form"): the town typed when the reference has it (in the postal code's
 * department when one is given); else the town of the postal code; else the
 * main town of the postal code's department (closest in name to the town
 * typed); else, without a postal code, the closest name. Null when nothing
 * fits.
 */
export function placeOfAddress(
  postcode: string,
  town: string,
  cities: readonly CityEntry[] = CITIES,
): AddressPlace | null {
  const code = postcode.replace(/\s/g, '')
  const key = normalizeText(town)
  const dep = departmentOfPostcode(code)
  if (key) {
    const same = cities.find((c) => c.key === key && (!dep || c.department === dep))
    if (same) return { city: same, how: 'town' }
  }
  if (dep) {
    const byCode = cities.find((c) => c.postalCodes.includes(code))
    if (byCode) return { city: byCode, how: 'postcode' }
    const inDepartment = cities.filter((c) => c.department === dep)
    if (inDepartment.length === 0) return null
    const near = key
      ? inDepartment
          .map((c) => ({ c, s: nameScore(key, c.key) }))
          .filter((x): x is { c: CityEntry; s: number } => x.s !== null)
          .sort((a, b) => a.s - b.s)[0]?.c
      : undefined
    return { city: near ?? inDepartment[0], how: 'department' }
  }
  if (!key || code) return null
  const best = searchCities(town, 1, cities)[0]
  return best ? { city: best.city, how: 'town' } : null
}

/**
 * Towns to suggest for the town field of an address: those of the postal
 * code, then those whose name is close to what was typed (in the postal
 * code's department when there is one). At most `limit` names.
 */
export function townSuggestions(
  postcode: string,
  town: string,
  limit = 6,
  cities: readonly CityEntry[] = CITIES,
): string[] {
  const code = postcode.replace(/\s/g, '')
  const dep = departmentOfPostcode(code)
  const names: string[] = []
  if (dep) for (const c of cities) if (c.postalCodes.includes(code)) names.push(c.name)
  if (town.trim()) {
    for (const m of searchCities(town, 20, cities)) {
      if (!m.approximate && (!dep || m.city.department === dep)) names.push(m.city.name)
    }
  }
  return [...new Set(names)].slice(0, limit)
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
