// Coordinates of shops and farms as the profile stores them (PRODUCT §2
// "Map", §3 "User": decimal strings, latitude then longitude), the map's
// constants (PRODUCT §9) and where it looks first. Pure, and without
// d3-geo, so that screens without a map, and the entry, can read them.

/** [longitude, latitude] in degrees: the order d3-geo expects. */
export type LonLat = [number, number]

/** PRODUCT §9 map constants. */
export const MAP = {
  /** Projection scale at zoom 1. */
  scale: 20000,
  /** Default centre: longitude, latitude (Annecy). */
  center: [6.1213, 45.9016] as LonLat,
  zoom: 1,
  maxZoom: 4,
  minZoom: 0.5,
  zoomFactor: 2,
  citiesPerDepartment: 3,
  /** Vertical offset of a shop's name above its pin, in pixels. */
  shopLabelOffset: -35,
} as const

/**
 * Where the map of shops looks first (PRODUCT §2 "Map"): the viewer's own
 * place — a shop's position, a producer's farm — wherever it is, Guadeloupe,
 * Martinique, Guyane, La Réunion or Mayotte as well as metropolitan France;
 * without one, the default centre (Annecy), until the browser's position is
 * known. The projection is centred on it (makeProjection), so the viewer's
 * own pin is in the middle of the view.
 */
export function startCenter(own: LonLat | null): LonLat {
  return own ?? MAP.center
}

/**
 * A coordinate from the data: a decimal string ("45.9016", " -1.5 ") or a
 * number. Empty, malformed or non-finite values give null. A decimal comma
 * is accepted, as a French user may type one.
 */
export function parseCoordinate(value: string | number | null | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value !== 'string') return null
  const text = value.trim().replace(',', '.')
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return null
  const n = Number(text)
  return Number.isFinite(n) ? n : null
}

/** [lon, lat] when both are usable: within range, and not 0/0 (unset coordinates stored so). */
export function validLonLat(lon: number | null, lat: number | null): LonLat | null {
  if (lon === null || lat === null) return null
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null
  if (lon === 0 && lat === 0) return null // unset coordinates stored as 0/0
  return [lon, lat]
}

/**
 * A shop's position. Shops carry latitude then longitude (PRODUCT §2: the
 * reverse of cities); the result is [lon, lat]. Null when either is missing
 * or unusable: such shops are not shown.
 */
export function shopLonLat(shop: { latitude?: string | null; longitude?: string | null }): LonLat | null {
  return validLonLat(parseCoordinate(shop.longitude), parseCoordinate(shop.latitude))
}
