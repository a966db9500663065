// What the maps draw under their markers: the department outlines and the
// most populous cities of the reference (PRODUCT §3, §19), decoded once.
import type { FeatureCollection, Geometry } from 'geojson'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import cityReference from './data/cities.json'
import topology from './data/departments.topo.json'
import { type City, topCities } from './geo'

export interface DepartmentProps {
  NAME_2: string
  CC_2: string
}

const topo = topology as unknown as Topology<{ fra: GeometryCollection<DepartmentProps> }>

/** The 96 metropolitan departments. */
export const DEPARTMENTS = (feature(topo, topo.objects.fra) as FeatureCollection<Geometry, DepartmentProps>).features

const POPULATION = new Map((cityReference as City[]).map((c) => [c.id, c.population2012]))

/** The cities drawn, most populous first (their names win the free space). */
export const DRAWN_CITIES = topCities(cityReference as City[]).sort(
  (a, b) => (POPULATION.get(b.id) ?? 0) - (POPULATION.get(a.id) ?? 0),
)
