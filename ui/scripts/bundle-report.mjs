// Reports the size of every chunk of the built UI (dist/), raw, gzipped and
// as served (the build's brotli copy, name.br, which the daemon sends to
// browsers), and what the first page (the landing page) loads: the entry
// script of index.html and the chunks it preloads. With --check, exits 1
// when the landing page's JavaScript exceeds its budget (120 KB as served
// since issue 42, 150 KB by issue 19; e2e/budget.spec.ts measures it in a
// browser too). It also checks that every Mantine class the scripts use
// has its rules in the built CSS: the UI imports the styles of the
// components it draws only (src/mantine.css, issue 42), so a component drawn
// for the first time without its file there would be unstyled; --check
// exits 1 then too, and when the libraries' files (vendor, kit) import a
// chunk of the app's code (vite.config.ts).
// Usage: node scripts/bundle-report.mjs [--check] [--markdown]
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { join } from 'node:path'

const BUDGET = 120 * 1024
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
    const path = join(dist, 'assets', f)
    const bytes = readFileSync(path)
    // Files under 1 KB have no brotli copy: they are sent as they are.
    const br = existsSync(`${path}.br`)
      ? readFileSync(`${path}.br`).length
      : bytes.length < 1024
        ? bytes.length
        : brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
    return { file: `assets/${f}`, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, br }
  })
  .sort((a, b) => b.br - a.br)

const kb = (n) => (n / 1024).toFixed(1)
const firstPage = chunks.filter((c) => landing.has(c.file) && c.file.endsWith('.js'))
const landingJS = firstPage.reduce((s, c) => s + c.br, 0)
const landingGzip = firstPage.reduce((s, c) => s + c.gzip, 0)

if (args.has('--markdown')) {
  console.log('| chunk | raw KB | gzip KB | brotli KB (served) | first page |')
  console.log('|---|---:|---:|---:|---|')
  for (const c of chunks)
    console.log(`| \`${c.file}\` | ${kb(c.raw)} | ${kb(c.gzip)} | ${kb(c.br)} | ${landing.has(c.file) ? 'yes' : ''} |`)
  console.log(
    `\nFirst page JavaScript: **${kb(landingJS)} KB as served (brotli)**, ${kb(landingGzip)} KB gzipped ` +
      `(budget ${kb(BUDGET)} KB).`,
  )
} else {
  for (const c of chunks)
    console.log(
      `${landing.has(c.file) ? '*' : ' '} ${kb(c.br).padStart(8)} KB br ${kb(c.gzip).padStart(8)} KB gz ` +
        `${kb(c.raw).padStart(9)} KB  ${c.file}`,
    )
  console.log(
    `first page JavaScript: ${kb(landingJS)} KB as served, brotli (${kb(landingGzip)} KB gzipped; ` +
      `budget ${kb(BUDGET)} KB; * = loaded by the landing page)`,
  )
}
// Mantine's classes (m_ and 8 hex digits) in the scripts, against the rules of the built CSS.
const mantineClass = /m_[0-9a-f]{8}/g
const assets = readdirSync(join(dist, 'assets'))
const classesOf = (ext) =>
  new Set(
    assets
      .filter((f) => f.endsWith(ext))
      .flatMap((f) => readFileSync(join(dist, 'assets', f), 'utf8').match(mantineClass) ?? []),
  )
const styled = classesOf('.css')
const mantineRules = new Set(
  ['@mantine/core/styles.css', '@mantine/dates/styles.css', '@mantine/notifications/styles.css'].flatMap(
    (f) => readFileSync(new URL(`../node_modules/${f}`, import.meta.url), 'utf8').match(mantineClass) ?? [],
  ),
)
const unstyled = [...classesOf('.js')].filter((c) => mantineRules.has(c) && !styled.has(c))
if (unstyled.length > 0)
  console.error(
    `bundle-report: ${unstyled.length} Mantine classes used without their rules in the built CSS ` +
      `(${unstyled.slice(0, 5).join(', ')}…): add the components' files to src/mantine.css`,
  )

// The libraries' files (vite.config.ts: vendor, kit) import nothing of
// the app: an import of an app chunk names it by its hash, which changes at
// every release, and the libraries' files would then be fetched again by
// every returning user though no library changed.
const stable = /^(vendor|kit|rolldown-runtime)-[\w-]+\.js$/
const unstable = assets
  .filter((f) => stable.test(f))
  .flatMap((f) =>
    [...readFileSync(join(dist, 'assets', f), 'utf8').matchAll(/(?:from|import)\s*\(?\s*["']\.\/([^"']+\.js)["']/g)]
      .map((m) => m[1])
      .filter((name) => !stable.test(name))
      .map((name) => `${f} imports ${name}`),
  )
if (unstable.length > 0)
  console.error(`bundle-report: a library's file imports the app's code (${unstable.join('; ')}): see vite.config.ts`)

if (args.has('--check') && (unstyled.length > 0 || unstable.length > 0)) process.exit(1)
if (args.has('--check') && landingJS > BUDGET) {
  console.error(
    `bundle-report: the landing page loads ${kb(landingJS)} KB of JavaScript as served, over the ${kb(BUDGET)} KB budget`,
  )
  process.exit(1)
}
