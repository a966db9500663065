// How long the planner takes to show its table against the shell's first
// paint (issue 20: "the planner's table visible ≤ 3× the shell's first
// paint on a cold cache"), over loopback against the real daemon, no
// network emulation: what is left is the page's own work (fetching over
// loopback, parsing, rendering). For each cold load (a fresh browser
// context, logged in), measured by the page itself from the start of the
// navigation:
//
//   - the shell's first paint: Chromium's first-contentful-paint, the frame
//     where the header and the loading spinner first show;
//   - the table visible: the first frame where the grid's first row header
//     has a size;
//   - the long tasks (PerformanceObserver "longtask", over 50 ms) that
//     started before the table was visible, and those of the second after;
//   - the rows the grid has in the DOM at that frame, against its
//     aria-rowcount;
//   - when the user load (GET /api/user) had come (its resource timing).
//
// On three planners: the demo world's largest shop (`serve --demo`,
// Épicerie du Lac, 60 products) on /dis/needs, a demo producer on that
// shop's needs (/prod/needs/:id), and the largest shop of a platform seeded
// by tools/loadbench (`loadbench seed --regions 1`: magasin-00-00, 150
// products, needs over two years), on /dis/needs. The platform's daemon is
// measured once the jobs it runs at start have finished (its CPU at rest).
//
// A benchmark, not a test: it fails only when a measure cannot be taken. Run
// by `make bench` (playwright.bench.config.ts); the figures go into
// docs/BENCHMARKS.md between the plannerpaint markers. Settings:
//   PRIMEUR_BIN                  the binary measured (default ../bin/primeur)
//   PRIMEUR_PLANNERPAINT_RUNS    cold loads per planner (default 7; medians kept)
//   PRIMEUR_PLANNERPAINT_OUT     a JSON file for the figures
//   PRIMEUR_PLANNERPAINT_DOC     a Markdown file whose plannerpaint block is rewritten
//   PRIMEUR_PLANNERPAINT_LABEL   what the figures are of (default the binary's version)
//   PRIMEUR_PLANNERPAINT_PLATFORM=0  leaves out the seeded platform (it needs Go)
import { type Browser, type BrowserContext, test } from '@playwright/test'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEMO_PASSWORD, DEMO_PRODUCER, DEMO_SHOP, startDemo } from './demo'
import { freePort, stop, waitHealthy } from './global-setup'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..')

/** The seeded platform's largest shop and every seeded account's password (tools/loadbench). */
const PLATFORM_SHOP = 'magasin-00-00@bench.primeur.fr'
const PLATFORM_PASSWORD = 'loadbench2026'

/** The grid's first row header: the table is on screen. */
const TABLE = 'table[role="grid"] tbody th[scope="row"]'

interface Target {
  name: string
  baseURL: string
  email: string
  password: string
  path: string
}

interface Load {
  fcp: number
  table: number
  /** Long tasks that started before the table showed: [start, duration] in ms. */
  before: [number, number][]
  /** Long tasks of the second after. */
  after: [number, number][]
  rowsInDom: number
  rowCount: number
  /** When the user load's last byte came (its resource timing). */
  userLoad: number
}

/**
 * Installed before any script: the paint and long-task observers, and at
 * every frame, until the table's first row header has a size, the check
 * that records the time and the rows then in the DOM.
 */
function watch(selector: string) {
  const w = window as unknown as {
    __paint: { fcp?: number; table?: number; rows?: number; rowCount?: number; long: [number, number][] }
  }
  const p: typeof w.__paint = { long: [] }
  w.__paint = p
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) p.long.push([e.startTime, e.duration])
  }).observe({ type: 'longtask', buffered: true })
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') p.fcp = e.startTime
  }).observe({ type: 'paint', buffered: true })
  const tick = () => {
    const el = document.querySelector(selector)
    if (el) {
      const box = el.getBoundingClientRect()
      if (box.width > 0 && box.height > 0) {
        p.table = performance.now()
        const grid = el.closest('table')
        p.rows = grid?.querySelectorAll('tbody tr[aria-rowindex]').length ?? 0
        p.rowCount = Number(grid?.getAttribute('aria-rowcount') ?? 0) - 1
        return
      }
    }
    requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
}

async function coldLogin(browser: Browser, t: Target): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: t.baseURL,
    viewport: { width: 1440, height: 900 },
    locale: 'fr-FR',
  })
  const res = await context.request.post('/auth/login', { data: { email: t.email, password: t.password } })
  if (!res.ok()) throw new Error(`login ${t.email}: ${res.status()} ${await res.text()}`)
  await context.addInitScript((stored) => window.localStorage.setItem('primeur.email', stored), t.email)
  return context
}

async function load(browser: Browser, t: Target): Promise<Load> {
  const context = await coldLogin(browser, t)
  try {
    await context.addInitScript(watch, TABLE)
    const page = await context.newPage()
    await page.goto(t.path, { waitUntil: 'commit' })
    await page.waitForFunction(
      () => {
        const p = (window as unknown as { __paint?: { fcp?: number; table?: number } }).__paint
        return p?.table !== undefined && p.fcp !== undefined
      },
      null,
      { timeout: 60_000, polling: 50 },
    )
    // The long tasks of the second after the table showed.
    await page.waitForTimeout(1000)
    const p = await page.evaluate(
      () =>
        (
          window as unknown as {
            __paint: { fcp: number; table: number; rows: number; rowCount: number; long: [number, number][] }
          }
        ).__paint,
    )
    const userLoad = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
      return entries.find((e) => new URL(e.name).pathname === '/api/user')?.responseEnd ?? 0
    })
    return {
      userLoad,
      fcp: p.fcp,
      table: p.table,
      before: p.long.filter(([s]) => s < p.table),
      after: p.long.filter(([s]) => s >= p.table),
      rowsInDom: p.rows,
      rowCount: p.rowCount,
    }
  } finally {
    await context.close()
  }
}

/** CPU ticks (user + system) a process has used, from /proc. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/** Waits until the process has used under 2 % of a core over 2 s (its jobs at start done), at most 4 minutes. */
async function atRest(pid: number) {
  const deadline = Date.now() + 4 * 60_000
  let last = cpuTicks(pid)
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 2000))
    const now = cpuTicks(pid)
    if (now - last < 4) return
    last = now
  }
  throw new Error('the platform daemon did not come to rest in 4 minutes')
}

/** Seeds a one-region platform with tools/loadbench and serves it; returns its URL and how to stop it. */
async function startPlatform(bin: string) {
  const dir = mkdtempSync(join(tmpdir(), 'primeur-plannerpaint-'))
  const dataDir = join(dir, 'data')
  execFileSync(
    'go',
    ['run', './tools/loadbench', 'seed', '--regions', '1', '--data-dir', dataDir, '--now', new Date().toISOString()],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const port = await freePort()
  const baseURL = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir], {
    env: { ...process.env, PRIMEUR_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const done = async () => {
    await stop(child)
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitHealthy(baseURL, child)
    await atRest(child.pid!)
    return { baseURL, stop: done }
  } catch (err) {
    await done()
    throw err
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)

interface Figure {
  planner: string
  rows: number
  rowsInDom: number
  fcpMs: number
  userLoadMs: number
  tableMs: number
  ratio: number
  /** Medians over the loads: long tasks before the table, their total and the longest; total of the second after. */
  longTasks: number
  longMs: number
  longestMs: number
  afterMs: number
  runs: { fcp: number; table: number }[]
}

function figure(name: string, loads: Load[]): Figure {
  const fcp = median(loads.map((l) => l.fcp))
  const table = median(loads.map((l) => l.table))
  return {
    planner: name,
    rows: loads[0].rowCount,
    rowsInDom: median(loads.map((l) => l.rowsInDom)),
    fcpMs: Math.round(fcp),
    userLoadMs: Math.round(median(loads.map((l) => l.userLoad))),
    tableMs: Math.round(table),
    ratio: Number((table / fcp).toFixed(2)),
    longTasks: median(loads.map((l) => l.before.length)),
    longMs: Math.round(median(loads.map((l) => sum(l.before.map(([, d]) => d))))),
    longestMs: Math.round(median(loads.map((l) => Math.max(0, ...l.before.map(([, d]) => d))))),
    afterMs: Math.round(median(loads.map((l) => sum(l.after.map(([, d]) => d))))),
    runs: loads.map((l) => ({ fcp: Math.round(l.fcp), table: Math.round(l.table) })),
  }
}

test('the planner’s table against the shell’s first paint, cold cache, loopback', async ({ browser }) => {
  const runs = Number(process.env.PRIMEUR_PLANNERPAINT_RUNS ?? 7)
  const withPlatform = process.env.PRIMEUR_PLANNERPAINT_PLATFORM !== '0'
  test.setTimeout(5 * 60_000 + runs * 3 * 30_000)
  const bin = resolve(process.env.PRIMEUR_BIN ?? join(root, 'bin', 'primeur'))
  const label = process.env.PRIMEUR_PLANNERPAINT_LABEL ?? execFileSync(bin, ['version'], { encoding: 'utf8' }).trim()

  const figures: Figure[] = []
  const measure = async (targets: Target[]) => {
    const loads = new Map<string, Load[]>(targets.map((t) => [t.name, []]))
    // One load of each in turn, so that a busy moment of the machine is shared.
    for (let i = 0; i < runs; i++) for (const t of targets) loads.get(t.name)!.push(await load(browser, t))
    for (const t of targets) figures.push(figure(t.name, loads.get(t.name)!))
  }

  const demo = await startDemo(bin)
  try {
    await measure([
      {
        name: `demo shop (${DEMO_SHOP.name}), /dis/needs`,
        baseURL: demo.baseURL,
        email: DEMO_SHOP.email,
        password: DEMO_PASSWORD,
        path: '/dis/needs',
      },
      {
        name: `demo producer on that shop, /prod/needs/:id`,
        baseURL: demo.baseURL,
        email: DEMO_PRODUCER.email,
        password: DEMO_PASSWORD,
        path: `/prod/needs/${demo.shopId}`,
      },
    ])
  } finally {
    await demo.stop()
  }
  if (withPlatform) {
    const platform = await startPlatform(bin)
    try {
      await measure([
        {
          name: 'seeded platform’s largest shop, /dis/needs',
          baseURL: platform.baseURL,
          email: PLATFORM_SHOP,
          password: PLATFORM_PASSWORD,
          path: '/dis/needs',
        },
      ])
    } finally {
      await platform.stop()
    }
  }

  const table = [
    `Loopback, cold cache, desktop viewport 1440 × 900, ${runs} loads each, medians; ${label}:`,
    '',
    '| planner | rows (in the DOM) | shell first paint | user load in | table visible | ratio (goal ≤ 3×) | long tasks before the table: count, total, longest | long tasks, second after |',
    '|---|---:|---:|---:|---:|---:|---|---:|',
    ...figures.map(
      (f) =>
        `| ${f.planner} | ${f.rows} (${f.rowsInDom}) | ${f.fcpMs} ms | ${f.userLoadMs} ms | ${f.tableMs} ms | **${f.ratio}×** | ` +
        `${f.longTasks}, ${f.longMs} ms, ${f.longestMs} ms | ${f.afterMs} ms |`,
    ),
    '',
    'Each load (shell first paint → table visible, ms): ' +
      figures
        .map((f) => `${f.planner.split(',')[0]}: ${f.runs.map((r) => `${r.fcp}→${r.table}`).join(', ')}`)
        .join('; ') +
      '.',
  ].join('\n')
  console.log(table)
  if (process.env.PRIMEUR_PLANNERPAINT_OUT)
    writeFileSync(process.env.PRIMEUR_PLANNERPAINT_OUT, JSON.stringify({ label, runs, figures }, null, 2))
  const doc = process.env.PRIMEUR_PLANNERPAINT_DOC
  if (doc) {
    const text = readFileSync(doc, 'utf8')
    const begin = '<!-- plannerpaint:begin'
    const end = '<!-- plannerpaint:end -->'
    const from = text.indexOf(begin)
    const to = text.indexOf(end)
    if (from < 0 || to < from) throw new Error(`${doc} has no plannerpaint markers`)
    const head = text.slice(from, text.indexOf('\n', from) + 1)
    writeFileSync(doc, text.slice(0, from) + head + table + '\n' + text.slice(to))
  }
})
