// What a returning user fetches again after a release: the scripts and
// styles of build `after` whose names (and so contents) build `before`
// did not have, as served (brotli), against all of them. The browser keeps
// the others (immutable, a year), and so does the service worker's
// precache. Usage (two builds of the UI, e.g. one text changed between):
//   npx vite build --outDir /tmp/before && <change> && npx vite build --outDir /tmp/after
//   node scripts/release-diff.mjs /tmp/before /tmp/after
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const [before, after] = process.argv.slice(2)
if (!before || !after) {
  console.error('usage: node scripts/release-diff.mjs <before dist> <after dist>')
  process.exit(2)
}
const names = (dist) => readdirSync(join(dist, 'assets')).filter((f) => /\.(js|css)$/.test(f))
const served = (dist, f) => {
  const path = join(dist, 'assets', f)
  return statSync(existsSync(`${path}.br`) ? `${path}.br` : path).size
}
const kept = new Set(names(before))
let again = 0
let all = 0
for (const f of names(after)) {
  const size = served(after, f)
  all += size
  if (!kept.has(f)) {
    again += size
    console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${f}`)
  }
}
console.log(`fetched again: ${(again / 1024).toFixed(1)} KB of ${(all / 1024).toFixed(1)} KB as served`)
