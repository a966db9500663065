// Coordinates of shops and farms as the profile stores them (PRODUCT §2
// "Map", §3 "User": decimal strings, latitude then longitude). Pure, and
// without d3-geo, so that screens without a map can read them.

/** [longitude, latitude] in degrees: the order d3-geo expects. */
export type LonLat = [number, number]

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
