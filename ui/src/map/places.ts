// Places of the server's reference (PRODUCT §3 "Place reference", `GET
// /api/places`) as the map and the profile form use them: the answer read
// into the map's CityMatch, its label, and the place of an address. Pure; the
// requests are in store/places.ts.
import type { CityMatch } from './cities'
import { normalizeText } from './text'
import { de } from '../grammar'

/** Where a place's position comes from (PRODUCT §3): its own point, its postal code's neighbours, or its area. */
export type PlacePosition = 'own' | 'postcode' | 'area'

/** A place found by the server, as the map's search and the profile form read it. */
export interface PlaceMatch extends CityMatch {
  /** A current commune, a municipal arrondissement, or a former commune under its old name. */
  kind: 'commune' | 'arrondissement' | 'former'
  /** The commune of an arrondissement or former commune; "" for a commune. */
  commune: string
  position: PlacePosition
}

const KINDS = new Set(['commune', 'arrondissement', 'former'])
const POSITIONS = new Set(['own', 'postcode', 'area'])

/** One place of an answer of `GET /api/places`, or null when it does not have the documented shape. */
export function placeMatchOf(x: unknown): PlaceMatch | null {
  const p = x as Record<string, unknown> | null
  if (
    !p ||
    typeof p.code !== 'string' ||
    typeof p.name !== 'string' ||
    typeof p.department !== 'string' ||
    typeof p.postalCode !== 'string' ||
    !Array.isArray(p.postalCodes) ||
    !p.postalCodes.every((c) => typeof c === 'string') ||
    typeof p.latitude !== 'number' ||
    typeof p.longitude !== 'number' ||
    !Number.isFinite(p.latitude) ||
    !Number.isFinite(p.longitude) ||
    !KINDS.has(String(p.kind)) ||
    !POSITIONS.has(String(p.position))
  ) {
    return null
  }
  return {
    city: {
      id: p.code,
      name: p.name,
      department: p.department,
      postalCodes: p.postalCodes as string[],
      population: typeof p.population === 'number' ? p.population : 0,
      lonLat: [p.longitude, p.latitude],
      key: normalizeText(p.name),
    },
    postalCode: p.postalCode,
    approximate: p.approximate === true,
    kind: p.kind as PlaceMatch['kind'],
    commune: typeof p.commune === 'string' ? p.commune : '',
    position: p.position as PlacePosition,
  }
}

/** A unique value for a place of a list: its code, kind and postal code. */
export function placeValue(m: PlaceMatch): string {
  return `${m.city.id}|${m.kind}|${m.postalCode}`
}

/**
 * What the list says beside a place, "" for nothing: the commune of a former
 * commune, or that the postal code typed belongs to no commune.
 */
export function placeHint(m: PlaceMatch): string {
  if (m.approximate) return 'code postal voisin'
  if (m.kind === 'former') return `commune ${de(m.commune)}`
  return ''
}

/** The town an address writes for a place: its name, the city's for an arrondissement ("Paris"). */
export function townOf(m: PlaceMatch): string {
  return m.kind === 'arrondissement' && m.commune ? m.commune : m.city.name
}

/**
 * How a position was found from an address: on the town typed, on the most
 * populous commune of the postal code (the town typed is not one of its
 * communes), or on a commune of the nearest postal code (the code typed is
 * no commune's, a CEDEX code).
 */
export interface AddressPlace {
  place: PlaceMatch
  how: 'town' | 'postcode' | 'near'
}

/**
 * The place of an address (PRODUCT §2 "Profile form") among the server's
 * answers for "postcode town": the town typed when one of the postal code's
 * places has its name (or, for Paris, Lyon and Marseille, the city's);
 * else the postal code's first place; else a place of a neighbouring code;
 * without a postal code, the best match of the town. Null when nothing fits.
 */
export function addressPlace(matches: readonly PlaceMatch[], postcode: string, town: string): AddressPlace | null {
  const code = postcode.replace(/\s/g, '')
  const key = normalizeText(town)
  const exact = matches.filter((m) => !m.approximate)
  if (key) {
    const named = exact.find(
      (m) => (m.city.key === key || normalizeText(townOf(m)) === key) && (!code || m.city.postalCodes.includes(code)),
    )
    if (named) return { place: named, how: 'town' }
  }
  if (code) {
    const byCode = exact.find((m) => m.postalCode === code)
    if (byCode) return { place: byCode, how: 'postcode' }
    const near = matches.find((m) => m.approximate)
    return near ? { place: near, how: 'near' } : null
  }
  return key && exact[0] ? { place: exact[0], how: 'town' } : null
}
