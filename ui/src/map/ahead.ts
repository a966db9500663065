// The map's first area, read at the entry beside the dashboard's code
// (screens.ts, issue 42): on a slow line the map's shops then come with
// the code instead of a round trip after the dashboard is drawn. Without
// d3-geo (the entry carries it): a generous box of degrees that holds the
// first view, which the map's store serves the view from (store/shopmap.ts
// readMapAhead).
import { type LonLat, MAP, startCenter } from './coordinates'

/** The map's height on the dashboard, in pixels (ShopMap's default). */
export const MAP_HEIGHT = 440

/** Pixels around the view whose shops are asked for too (a pin just outside shows its head). */
export const VIEW_MARGIN = 80

/**
 * How much wider each way than the flat estimate: the projection's
 * parallels bend (some 17 px at the corners of a 1,600 px wide view at the
 * first zoom) and its scale drifts away from the centre.
 */
const SLACK = 1.25

/** The area asked: degrees and the zoom (store/shopmap.ts MapBox). */
export interface AheadBox {
  south: number
  west: number
  north: number
  east: number
  zoom: number
}

/**
 * A box of degrees holding the first view of a map at most `width` pixels
 * wide and MAP_HEIGHT high, with its margin, centred where it looks first
 * (startCenter of the viewer's own place) at the first zoom: the flat
 * estimate (MAP.scale pixels a radian) a quarter wider each way, the
 * longitudes at the latitude farthest from the equator.
 */
export function firstMapArea(own: LonLat | null, width: number): AheadBox {
  const [lon, lat] = startCenter(own)
  const zoom = MAP.zoom
  const degrees = (px: number) => ((px / (MAP.scale * zoom)) * 180 * SLACK) / Math.PI
  const dLat = degrees(MAP_HEIGHT / 2 + VIEW_MARGIN)
  const farthest = Math.min(89, Math.abs(lat) + dLat)
  const dLon = degrees(width / 2 + VIEW_MARGIN) / Math.cos((farthest * Math.PI) / 180)
  return { south: lat - dLat, west: lon - dLon, north: lat + dLat, east: lon + dLon, zoom }
}
