// Reports the size of every chunk of the built UI (dist/), raw and gzipped,
// and what the first page (the landing page) loads: the entry script of
// index.html and the chunks it preloads. With --check, exits 1 when the
// landing page's JavaScript exceeds the budget (250 KB gzipped).
// Usage: node scripts/bundle-report.mjs [--check] [--markdown]
import { readFileSync, readdirSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join } from 'node:path'

const BUDGET = 250 * 1024
const dist = new URL('../dist/', import.meta.url).pathname
const args = new Set(process.argv.slice(2))

const html = readFileSync(join(dist, 'index.html'), 'utf8')
const landing = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]))
if (landing.size === 0) {
  console.error('bundle-report: no script in dist/index.html — run `npm run build` first')
  process.exit(2)
}

const chunks = readdirSync(join(dist, 'assets'))
  .filter((f) => f.endsWith('.js') || f.endsWith('.css'))
  .map((f) => {
    const bytes = readFileSync(join(dist, 'assets', f))
    return { file: `assets/${f}`, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
  })
  .sort((a, b) => b.gzip - a.gzip)

const kb = (n) => (n / 1024).toFixed(1)
const landingJS = chunks.filter((c) => landing.has(c.file)).reduce((s, c) => s + c.gzip, 0)

if (args.has('--markdown')) {
  console.log('| chunk | raw KB | gzip KB | first page |')
  console.log('|---|---:|---:|---|')
  for (const c of chunks)
    console.log(`| \`${c.file}\` | ${kb(c.raw)} | ${kb(c.gzip)} | ${landing.has(c.file) ? 'yes' : ''} |`)
  console.log(`\nFirst page JavaScript: **${kb(landingJS)} KB gzipped** (budget ${kb(BUDGET)} KB).`)
} else {
  for (const c of chunks)
    console.log(
      `${landing.has(c.file) ? '*' : ' '} ${kb(c.gzip).padStart(8)} KB gz ${kb(c.raw).padStart(9)} KB  ${c.file}`,
    )
  console.log(
    `first page JavaScript: ${kb(landingJS)} KB gzipped (budget ${kb(BUDGET)} KB; * = loaded by the landing page)`,
  )
}
if (args.has('--check') && landingJS > BUDGET) {
  console.error(
    `bundle-report: the landing page loads ${kb(landingJS)} KB of gzipped JavaScript, over the ${kb(BUDGET)} KB budget`,
  )
  process.exit(1)
}
