// Pure rules of the map (PRODUCT §2 "Map", §4 "Map zoom", §9 map constants):
// zoom steps, coordinates of shops and cities, the cities shown per
// department, and the projection. No React, no network.
import { type GeoProjection, geoAzimuthalEqualArea } from 'd3-geo'
import { type LonLat, MAP, parseCoordinate, validLonLat as valid } from './coordinates'

// The coordinates of shops, the map's constants and its first centre live
// apart (no d3-geo there: the proposal form's first-steps notice reads them,
// and the entry the map's first area, map/ahead.ts).
export { type LonLat, MAP, parseCoordinate, shopLonLat, startCenter } from './coordinates'

/** Zoom in: doubles, capped at the maximum; no change at the maximum or above (PRODUCT §4). */
export function zoomIn(zoom: number): number {
  if (!Number.isFinite(zoom)) return MAP.zoom
  if (zoom >= MAP.maxZoom) return zoom
  return Math.min(MAP.maxZoom, zoom * MAP.zoomFactor)
}

/** Zoom out: halves, never under the minimum (PRODUCT §4). */
export function zoomOut(zoom: number): number {
  if (!Number.isFinite(zoom)) return MAP.zoom
  return Math.max(MAP.minZoom, zoom / MAP.zoomFactor)
}

/** Whether zooming in would change anything. */
export const canZoomIn = (zoom: number) => zoomIn(zoom) !== zoom

/** Whether zooming out would change anything. */
export const canZoomOut = (zoom: number) => zoomOut(zoom) !== zoom

/** Metropolitan France with Corsica, generously: the check for swapped city coordinates. */
const FRANCE = { minLon: -5.5, maxLon: 10, minLat: 41, maxLat: 51.5 }

const inFrance = ([lon, lat]: LonLat) =>
  lon >= FRANCE.minLon && lon <= FRANCE.maxLon && lat >= FRANCE.minLat && lat <= FRANCE.maxLat

/**
 * A city's position from the PRODUCT §3 reference (longitudedeg, latitudedeg):
 * [lon, lat]. The legacy reference has a few 0/0 and swapped entries: a
 * pair that only makes sense swapped is swapped back; 0/0 or a pair outside
 * France either way gives null.
 */
export function cityLonLat(city: {
  longitudedeg?: string | number | null
  latitudedeg?: string | number | null
}): LonLat | null {
  const p = valid(parseCoordinate(city.longitudedeg), parseCoordinate(city.latitudedeg))
  if (!p) return null
  if (inFrance(p)) return p
  const swapped: LonLat = [p[1], p[0]]
  return inFrance(swapped) ? swapped : null
}

/** A city of the PRODUCT §3 reference. */
export interface City {
  id: string
  departement: number | string
  slug: string
  nomreel: string
  codepostal: number | string
  population2012: number
  longitudedeg: string
  latitudedeg: string
}

/** A city as the map draws it. */
export interface PlacedCity {
  id: string
  name: string
  postalCode: string
  department: string
  lonLat: LonLat
}

/** A department code as text: 1 → "01", "2A" → "2A". */
export function departmentCode(departement: number | string): string {
  const text = String(departement).trim().toUpperCase()
  return /^\d$/.test(text) ? `0${text}` : text
}

/**
 * The first postal code of a city, 5 digits: 1000 → "01000",
 * "06000-06100" → "06000", "13001 à 13016" → "13001". "" when none.
 */
export function postalCode(codepostal: number | string | null | undefined): string {
  if (typeof codepostal === 'number')
    return Number.isInteger(codepostal) && codepostal > 0 ? String(codepostal).padStart(5, '0') : ''
  const m = /\d{4,5}/.exec(String(codepostal ?? ''))
  return m ? m[0].padStart(5, '0') : ''
}

/**
 * The cities to draw: per department, the `perDepartment` most populous
 * with usable coordinates (PRODUCT §3, §9), most populous first, departments
 * in code order. Ties keep the reference's order.
 */
export function topCities(cities: readonly City[], perDepartment: number = MAP.citiesPerDepartment): PlacedCity[] {
  const byDepartment = new Map<string, { city: City; lonLat: LonLat; index: number }[]>()
  cities.forEach((city, index) => {
    const lonLat = cityLonLat(city)
    if (!lonLat) return
    const code = departmentCode(city.departement)
    const list = byDepartment.get(code) ?? []
    list.push({ city, lonLat, index })
    byDepartment.set(code, list)
  })
  const out: PlacedCity[] = []
  for (const code of [...byDepartment.keys()].sort()) {
    const list = byDepartment.get(code)!
    list.sort((a, b) => (b.city.population2012 || 0) - (a.city.population2012 || 0) || a.index - b.index)
    for (const { city, lonLat } of list.slice(0, Math.max(0, perDepartment))) {
      out.push({ id: city.id, name: city.nomreel, postalCode: postalCode(city.codepostal), department: code, lonLat })
    }
  }
  return out
}

/**
 * The map's projection: azimuthal equal-area centred on `center`, at
 * scale 20000 × zoom, with the centre in the middle of a width × height view.
 */
export function makeProjection(center: LonLat, zoom: number, width: number, height: number): GeoProjection {
  return geoAzimuthalEqualArea()
    .rotate([-center[0], -center[1]])
    .scale(MAP.scale * zoom)
    .translate([width / 2, height / 2])
    .precision(0.5)
}

/**
 * The centre after dragging the map by (dx, dy) pixels from a view with
 * this projection: the point that was at the view's middle minus the drag.
 */
export function draggedCenter(projection: GeoProjection, dx: number, dy: number): LonLat | null {
  const [tx, ty] = projection.translate()
  const p = projection.invert?.([tx - dx, ty - dy])
  if (!p || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) return null
  return [p[0], p[1]]
}

/** The degrees a view shows, to ask the server for its shops (store/shopmap.ts). */
export interface ViewBox {
  south: number
  west: number
  north: number
  east: number
}

/**
 * The area a width × height view of this projection shows, with `margin`
 * pixels around it (pins just outside still show their head): the extremes
 * of the points along its edges, as the projection bends parallels and
 * meridians. Null when a corner is off the globe.
 */
export function visibleBox(projection: GeoProjection, width: number, height: number, margin = 0): ViewBox | null {
  const x0 = -margin
  const y0 = -margin
  const x1 = width + margin
  const y1 = height + margin
  const steps = 8
  let south = Infinity
  let west = Infinity
  let north = -Infinity
  let east = -Infinity
  for (let i = 0; i <= steps; i++) {
    const x = x0 + ((x1 - x0) * i) / steps
    const y = y0 + ((y1 - y0) * i) / steps
    for (const point of [
      [x, y0],
      [x, y1],
      [x0, y],
      [x1, y],
    ] as [number, number][]) {
      const p = projection.invert?.(point)
      if (!p || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) return null
      west = Math.min(west, p[0])
      east = Math.max(east, p[0])
      south = Math.min(south, p[1])
      north = Math.max(north, p[1])
    }
  }
  return { south, west, north, east }
}

/** Whether two boxes of degrees share a point (edges touching count). */
export function boxesOverlap(a: ViewBox, b: ViewBox): boolean {
  return a.west <= b.east && b.west <= a.east && a.south <= b.north && b.south <= a.north
}

/**
 * The zoom at which a box of degrees fits in `fill` of a width × height
 * view, as a step of the map's zooms (PRODUCT §4: from `from` doubled at
 * each step, at most the maximum); at least one step above `from`.
 */
export function zoomToFit(
  box: ViewBox,
  from: number,
  width: number,
  height: number,
  fill = 0.7,
): { zoom: number; center: LonLat } {
  const center: LonLat = [(box.west + box.east) / 2, (box.south + box.north) / 2]
  let zoom = zoomIn(from)
  for (;;) {
    const next = zoomIn(zoom)
    if (next === zoom) break
    const p = makeProjection(center, next, width, height)
    const a = p([box.west, box.north])
    const b = p([box.east, box.south])
    if (!a || !b || Math.abs(b[0] - a[0]) > width * fill || Math.abs(b[1] - a[1]) > height * fill) break
    zoom = next
  }
  return { zoom, center }
}
