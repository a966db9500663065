// A cluster of the map at its largest zoom (issue 37): zooming in no more,
// a tap on it lists its shops instead, asked of the server for the box of
// its shops (`GET /api/map`). Pure: the area asked and the shops kept.
import type { MapBox } from '../store/shopmap'
import type { MapCluster, MapShop } from '../types'
import { MAP } from './geo'

/** The least height and width of the area asked, in degrees: the server refuses an empty area. */
export const CLUSTER_AREA_MIN = 1e-4

/** Where a cluster is, as a key: the same cluster of the same answer gives the same key. */
export function clusterKey(cluster: MapCluster): string {
  return `${cluster.latitude},${cluster.longitude}`
}

/**
 * The area whose shops are a cluster's: the box of its shops, opened to
 * CLUSTER_AREA_MIN around its middle where it is narrower (shops placed on
 * one commune make a box of one point), at the largest zoom.
 */
export function clusterArea(cluster: MapCluster): MapBox {
  const open = (lo: number, hi: number): [number, number] => {
    if (hi - lo >= CLUSTER_AREA_MIN) return [lo, hi]
    const mid = (lo + hi) / 2
    return [mid - CLUSTER_AREA_MIN / 2, mid + CLUSTER_AREA_MIN / 2]
  }
  const [south, north] = open(cluster.south, cluster.north)
  const [west, east] = open(cluster.west, cluster.east)
  return { south, west, north, east, zoom: MAP.maxZoom }
}

/**
 * The shops of an answer for clusterArea that are the cluster's own: those
 * within the box of its shops (the area asked, opened and rounded outward,
 * may hold a neighbour a few metres away). The positions compare exactly:
 * the server gives both in the same millionths of a degree.
 */
export function clusterShops(cluster: MapCluster, shops: readonly MapShop[]): MapShop[] {
  return shops.filter(
    (s) =>
      s.latitude >= cluster.south &&
      s.latitude <= cluster.north &&
      s.longitude >= cluster.west &&
      s.longitude <= cluster.east,
  )
}
