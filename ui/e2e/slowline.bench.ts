// How long the interface takes on a slow line (issue 19): Chromium's
// network emulation (DevTools protocol, Network.emulateNetworkConditions:
// 1.6 Mbit/s down, 750 kbit/s up, 150 ms latency) on a cold cache, a
// daemon of its own on the demo world (demo.ts), the time from the start of
// the navigation until each of these is on screen:
//
//   - the login form (a visitor on /landing/login);
//   - the dashboard's chart drawn (the demo shop on /, its chart scrolled to
//     as soon as its card is there, as a user would);
//   - the needs table of /prod/needs/:shop (a demo producer on the demo shop);
//   - the needs table of /dis/needs (the demo shop).
//
// A benchmark, not a test: it fails only when a measure cannot be taken. Run
// by `make bench` (playwright.bench.config.ts), which writes the figures into
// docs/BENCHMARKS.md between the slowline markers. Settings:
//   PRIMEUR_BIN            the binary measured (default ../bin/primeur)
//   PRIMEUR_SLOWLINE_RUNS  cold loads per measure (default 5; the median is kept)
//   PRIMEUR_SLOWLINE_OUT   a JSON file for the figures
//   PRIMEUR_SLOWLINE_DOC   a Markdown file whose slowline block is rewritten
//   PRIMEUR_SLOWLINE_LABEL what the figures are of (default the binary's version)
import { test } from '@playwright/test'
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { DEMO_PRODUCER, DEMO_SHOP, type DemoDaemon, coldContext, kb, recordTransfers, startDemo } from './demo'
import { watch } from './watch'

/** The line of issue 19, in the DevTools protocol's units (bytes per second, milliseconds). */
export const SLOW_LINE = {
  offline: false,
  downloadThroughput: (1.6 * 1000 * 1000) / 8,
  uploadThroughput: (750 * 1000) / 8,
  latency: 150,
}

interface Measure {
  name: string
  email?: string
  path: (d: DemoDaemon) => string
  /** What must be on screen (CSS, checked at every frame by the page itself). */
  selector: string
  /** Scrolled into view as soon as it exists. */
  scrollTo?: string
}

const measures: Measure[] = [
  {
    name: 'login form visible',
    path: () => '/landing/login',
    selector: 'form[aria-labelledby="login-title"] button[type="submit"]',
  },
  {
    name: 'dashboard chart visible',
    email: DEMO_SHOP.email,
    path: () => '/',
    selector: '[data-testid="purchases-chart"] [data-drawn="true"] canvas',
    scrollTo: '[data-testid="purchases-chart"]',
  },
  {
    name: '/prod/needs table visible',
    email: DEMO_PRODUCER.email,
    path: (d) => `/prod/needs/${d.shopId}`,
    selector: 'table tbody th[scope="row"]',
  },
  {
    name: '/dis/needs table visible',
    email: DEMO_SHOP.email,
    path: () => '/dis/needs',
    selector: 'table tbody th[scope="row"]',
  },
]

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const seconds = (ms: number) => (ms / 1000).toFixed(2)

interface Figure {
  measure: string
  runs: number[]
  medianMs: number
  transferKB: number
}

test('the interface on a slow line, cold cache', async ({ browser }) => {
  const runs = Number(process.env.PRIMEUR_SLOWLINE_RUNS ?? 5)
  test.setTimeout(60_000 + runs * measures.length * 60_000)
  const demo = await startDemo()
  const bin = process.env.PRIMEUR_BIN ?? '../bin/primeur'
  const label = process.env.PRIMEUR_SLOWLINE_LABEL ?? execFileSync(bin, ['version'], { encoding: 'utf8' }).trim()
  const figures: Figure[] = []
  try {
    for (const m of measures) {
      const times: number[] = []
      let bytes = 0
      for (let i = 0; i < runs; i++) {
        const context = await coldContext(browser, demo.baseURL, m.email)
        await context.addInitScript(watch, { selector: m.selector, scrollTo: m.scrollTo })
        const page = await context.newPage()
        const { cdp, transfers } = await recordTransfers(page)
        await cdp.send('Network.emulateNetworkConditions', SLOW_LINE)
        await page.goto(m.path(demo), { waitUntil: 'commit' })
        await page.waitForFunction(() => (window as unknown as { __shown?: number }).__shown !== undefined, null, {
          timeout: 60_000,
          polling: 100,
        })
        times.push(await page.evaluate(() => (window as unknown as { __shown: number }).__shown))
        bytes = transfers().reduce((s, t) => s + t.bytes, 0) // what had come by then
        await context.close()
      }
      figures.push({
        measure: m.name,
        runs: times.map(Math.round),
        medianMs: Math.round(median(times)),
        transferKB: Number(kb(bytes)),
      })
    }
  } finally {
    await demo.stop()
  }

  const table = [
    `Slow line (${(SLOW_LINE.downloadThroughput * 8) / 1e6} Mbit/s down, ${(SLOW_LINE.uploadThroughput * 8) / 1e3} kbit/s up, ` +
      `${SLOW_LINE.latency} ms latency), cold cache, ${runs} loads each, median; ${label}:`,
    '',
    '| measure | median | runs (s) | received by then |',
    '|---|---:|---|---:|',
    ...figures.map(
      (f) => `| ${f.measure} | **${seconds(f.medianMs)} s** | ${f.runs.map(seconds).join(', ')} | ${f.transferKB} KB |`,
    ),
  ].join('\n')
  console.log(table)
  if (process.env.PRIMEUR_SLOWLINE_OUT)
    writeFileSync(process.env.PRIMEUR_SLOWLINE_OUT, JSON.stringify({ label, line: SLOW_LINE, runs, figures }, null, 2))
  const doc = process.env.PRIMEUR_SLOWLINE_DOC
  if (doc) {
    const text = readFileSync(doc, 'utf8')
    const begin = '<!-- slowline:begin'
    const end = '<!-- slowline:end -->'
    const from = text.indexOf(begin)
    const to = text.indexOf(end)
    if (from < 0 || to < from) throw new Error(`${doc} has no slowline markers`)
    const head = text.slice(from, text.indexOf('\n', from) + 1)
    writeFileSync(doc, text.slice(0, from) + head + table + '\n' + text.slice(to))
  }
})
