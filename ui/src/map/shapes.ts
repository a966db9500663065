// What the maps draw under their markers: the department outlines and the
// most populous cities of the reference (PRODUCT §3, §19), decoded once.
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import cityReference from './data/cities.json'
import topology from './data/departments.topo.json'
import { type City, type ViewBox, boxesOverlap, topCities } from './geo'

export interface DepartmentProps {
  NAME_2: string
  CC_2: string
}

const topo = topology as unknown as Topology<{ fra: GeometryCollection<DepartmentProps> }>

/** The 96 metropolitan departments. */
export const DEPARTMENTS = (feature(topo, topo.objects.fra) as FeatureCollection<Geometry, DepartmentProps>).features

/**
 * The extremes of an outline's longitudes and latitudes: its box of
 * degrees (a department crosses neither the antimeridian nor a pole, so
 * the planar extremes are its box). Null for an outline without points.
 */
export function outlineBox(geometry: Geometry): ViewBox | null {
  const box = { south: Infinity, west: Infinity, north: -Infinity, east: -Infinity }
  const visit = (coordinates: unknown): void => {
    if (!Array.isArray(coordinates)) return
    if (typeof coordinates[0] === 'number') {
      const [lon, lat] = coordinates as Position
      box.west = Math.min(box.west, lon)
      box.east = Math.max(box.east, lon)
      box.south = Math.min(box.south, lat)
      box.north = Math.max(box.north, lat)
      return
    }
    for (const c of coordinates) visit(c)
  }
  if (geometry.type === 'GeometryCollection') {
    for (const g of geometry.geometries) visit(g.type === 'GeometryCollection' ? [] : g.coordinates)
  } else visit(geometry.coordinates)
  return Number.isFinite(box.west) ? box : null
}

const DEPARTMENT_BOXES = DEPARTMENTS.map((d) => outlineBox(d.geometry))

/**
 * The departments a view of this box of degrees shows (ShopMap draws only
 * them: the outlines out of view cost the map's first frame and every move
 * their path, issue 42); every department without a box (a view off the
 * globe's edge).
 */
export function departmentsIn(view: ViewBox | null): Feature<Geometry, DepartmentProps>[] {
  if (!view) return DEPARTMENTS
  return DEPARTMENTS.filter((_, i) => {
    const box = DEPARTMENT_BOXES[i]
    return box !== null && boxesOverlap(box, view)
  })
}

const POPULATION = new Map((cityReference as City[]).map((c) => [c.id, c.population2012]))

/** The cities drawn, most populous first (their names win the free space). */
export const DRAWN_CITIES = topCities(cityReference as City[]).sort(
  (a, b) => (POPULATION.get(b.id) ?? 0) - (POPULATION.get(a.id) ?? 0),
)
