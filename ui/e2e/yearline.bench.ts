// The screens of a year of trade on a slow line (issue 42): a platform
// seeded by tools/loadbench (`loadbench seed --regions 1`: 20 shops and 100
// producers, 12 months of needs, proposals, orders, deliveries, invoices and
// payments, made through core's operations), served by the real binary at
// the seed's clock (`serve --now`, the browser's clock pinned to it), and
// its largest shop (150 products) and its measured producer (four shops)
// each opening the dashboard (its chart drawn), the map (the dashboard's
// shops drawn), the planner, the deliveries and the payments under
// Chromium's network emulation (1.6 Mbit/s down, 750 kbit/s up, 150 ms: the
// line of slowline.bench.ts). Each screen cold (a fresh context: nothing
// cached) then warm (the same context opening it again: assets from the
// cache, the API's answers revalidated), the time from the navigation's
// start to the first frame showing it, and the bytes received by then.
// Then each screen but the dashboard's opened in the app (inApp): the
// dashboard loaded cold and drawn, the line quiet, the screen's route taken
// as a link does (history.pushState), the time to the first frame showing
// it and the bytes received meanwhile — what a screen costs by itself once
// the app is open (its code and its reads, the shell's files shared by
// every screen already there), without the service worker, whose
// precache would share the line.
//
// A benchmark, not a test: it fails only when a measure cannot be taken. Run
// by `make bench` (playwright.bench.config.ts), which writes the figures into
// docs/BENCHMARKS.md between the yearline markers, then, nginx installed,
// again through nginx (PRIMEUR_YEARLINE_VIA=nginx, below) between the
// yearline-nginx markers. Settings:
//   PRIMEUR_BIN            the binary measured (default ../bin/primeur)
//   PRIMEUR_YEARLINE_DATA  a data directory seeded already (else seeded here, about a minute)
//   PRIMEUR_YEARLINE_RUNS  loads per measure (default 3; the median is kept)
//   PRIMEUR_YEARLINE_OUT   a JSON file for the figures
//   PRIMEUR_YEARLINE_DOC   a Markdown file whose yearline block is rewritten
//   PRIMEUR_YEARLINE_WORKERS=block  without the service worker (what it costs the warm loads)
//   PRIMEUR_YEARLINE_ONLY  a regular expression: only the measures whose "who screen" it matches
//   PRIMEUR_YEARLINE_TRACE=1  prints each load's requests: when each started and ended (ms), its bytes,
//                          its protocol, its connection (and a new one's set-up time)
//   PRIMEUR_YEARLINE_VIA=nginx  through Debian's nginx as a real installation runs it (README "Running
//                          Primeur for real"): deploy/nginx.conf with only its ports, certificate
//                          (self-signed, made by openssl, its key given to Chromium as valid) and
//                          upstream changed (e2e/nginx.ts), TLS and HTTP/2 to the browser; the daemon
//                          with deploy/primeur.service's proxy settings (the proxy trusted, an https base
//                          URL: secure cookies); the browser maps primeur.example.fr to 127.0.0.1. The
//                          table and the JSON say which path; the doc's block is the one between the
//                          yearline-nginx markers. Skipped, the reason printed, when nginx is missing.
//                          The line's latency is Chromium's emulation, charged per request: the TCP
//                          and TLS handshakes (loopback) are not, on either path.
//   PRIMEUR_YEARLINE_CPU   the page's CPU slowed down that many times (Chromium's CPU throttling; 4
//                          is DevTools' "mid-tier mobile"): what the main thread's work costs a slower
//                          device than this machine's. Not written into the doc, whose tables are the
//                          goals' (unthrottled); the table and the JSON say the rate.
import { type Browser, type BrowserContext, type CDPSession, test } from '@playwright/test'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { recordTransfers } from './demo'
import { type Nginx, SITE, nginxBinary, siteRequest, startNginx } from './nginx'
import { watch } from './watch'

/** The line of slowline.bench.ts (a test file cannot import another), in the DevTools protocol's units. */
const SLOW_LINE = {
  offline: false,
  downloadThroughput: (1.6 * 1000 * 1000) / 8,
  uploadThroughput: (750 * 1000) / 8,
  latency: 150,
}

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..', '..')

/** The seed's clock (tools/loadbench's defaultNow) and its accounts' password. */
const NOW = '2026-11-18T09:00:00+01:00'
const PASSWORD = 'loadbench2026'
const SHOP = 'magasin-00-00@bench.primeur.fr'
const PRODUCER = 'ferme-00-000@bench.primeur.fr'

/** The goals of issue 42 on this line: usable cold within 2.5 s, warm within 1 s, 150 KB a screen. */
const GOAL_COLD_MS = 2500
const GOAL_WARM_MS = 1000
const GOAL_KB = 150

interface Screen {
  name: string
  /** Measured opened from the dashboard too (the screens the dashboard is not). */
  inApp?: boolean
  path: (who: 'shop' | 'producer', shopId: string) => string
  /** What must be on screen (CSS, checked at every frame by the page itself). */
  selector: string
  scrollTo?: string
}

const screens: Screen[] = [
  {
    name: 'dashboard (chart drawn)',
    path: () => '/',
    selector: '[data-testid="purchases-chart"] [data-drawn="true"] canvas',
    scrollTo: '[data-testid="purchases-chart"]',
  },
  {
    name: 'map (shops drawn)',
    path: () => '/',
    selector: '[aria-label="Carte des magasins"] g[aria-label="Magasins"] > *',
  },
  {
    name: 'planner',
    inApp: true,
    path: (who, shopId) => (who === 'shop' ? '/dis/needs' : `/prod/needs/${shopId}`),
    selector: 'table[aria-label="Besoins par produit et par mois"] tbody th[scope="row"]',
  },
  {
    name: 'deliveries',
    inApp: true,
    path: (who) => (who === 'shop' ? '/dis/deliveries' : '/prod/deliveries'),
    selector: 'table[aria-label="Livraisons"] tbody tr',
  },
  {
    name: 'payments',
    inApp: true,
    path: (who) => (who === 'shop' ? '/dis/payments' : '/prod/payments'),
    selector: 'table[aria-label^="Documents — "] tbody tr',
  },
]

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer()
    srv.once('error', fail)
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => ok(port))
    })
  })
}

async function waitHealthy(baseURL: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`primeur exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('primeur did not become healthy')
}

/** Where the browser reaches the daemon: straight, or through nginx (its https port). */
interface Origin {
  baseURL: string
  nginx?: Nginx
}

async function login(browser: Browser, origin: Origin, email: string, workers = true): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: origin.baseURL,
    viewport: { width: 1440, height: 900 },
    locale: 'fr-FR',
    serviceWorkers: !workers || process.env.PRIMEUR_YEARLINE_WORKERS === 'block' ? 'block' : 'allow',
  })
  await context.clock.setFixedTime(new Date(NOW))
  if (origin.nginx) {
    // The context's API requests resolve names in this process, which does
    // not know the site's: the login goes from here, its cookie to the context.
    const res = await siteRequest(origin.nginx.port, 'POST', '/auth/login', { body: { email, password: PASSWORD } })
    if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${res.body}`)
    await context.addCookies(
      res.cookies.map((c) => {
        const [pair, ...attrs] = c.split(';').map((a) => a.trim())
        const at = pair.indexOf('=')
        const has = (a: string) => attrs.some((x) => x.toLowerCase() === a)
        return {
          name: pair.slice(0, at),
          value: pair.slice(at + 1),
          url: origin.baseURL,
          httpOnly: has('httponly'),
          secure: has('secure'),
          sameSite: 'Lax' as const,
        }
      }),
    )
  } else {
    const res = await context.request.post('/auth/login', { data: { email, password: PASSWORD } })
    if (!res.ok()) throw new Error(`login ${email}: ${res.status()} ${await res.text()}`)
  }
  await context.addInitScript((stored) => window.localStorage.setItem('primeur.email', stored), email)
  return context
}

/** PRIMEUR_YEARLINE_CPU: how many times slower the page's CPU runs (1: as this machine's). */
function cpuRate(): number {
  const raw = process.env.PRIMEUR_YEARLINE_CPU ?? '1'
  const rate = Number(raw)
  if (!Number.isFinite(rate) || rate < 1) throw new Error(`PRIMEUR_YEARLINE_CPU=${raw}: a number of 1 or more`)
  return rate
}

/** The slow line, and the CPU slowed down by rate when over 1, on the page behind cdp. */
async function emulate(cdp: CDPSession, rate: number): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', SLOW_LINE)
  if (rate > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate })
}

/** Each request of a load: its start and end (ms from the first request), its bytes and address. */
function traceRequests(cdp: CDPSession): () => string {
  const rows = new Map<
    string,
    { url: string; start: number; end?: number; bytes?: number; protocol?: string; connection?: string }
  >()
  let zero: number | null = null
  cdp.on('Network.requestWillBeSent', (e) => {
    zero ??= e.timestamp
    rows.set(e.requestId, { url: e.request.url, start: e.timestamp })
  })
  cdp.on('Network.responseReceived', (e) => {
    const r = rows.get(e.requestId)
    if (!r) return
    r.protocol = e.response.protocol
    // A new connection: its set-up (TCP, then TLS) as the browser timed it.
    const t = e.response.timing
    r.connection =
      `#${e.response.connectionId}` +
      (t && t.connectStart >= 0
        ? ` new: ${Math.round(t.connectEnd - t.connectStart)} ms` +
          (t.sslStart >= 0 ? ` (TLS ${Math.round(t.sslEnd - t.sslStart)})` : '')
        : '')
  })
  cdp.on('Network.loadingFinished', (e) => {
    const r = rows.get(e.requestId)
    if (r) Object.assign(r, { end: e.timestamp, bytes: e.encodedDataLength })
  })
  const ms = (t: number) => String(Math.round((t - (zero ?? t)) * 1000)).padStart(6)
  return () =>
    [...rows.values()]
      .filter((r) => !r.url.startsWith('data:'))
      .map(
        (r) =>
          `${ms(r.start)} ${r.end === undefined ? '     …' : ms(r.end)} ${String(((r.bytes ?? 0) / 1024).toFixed(1)).padStart(7)} KB ` +
          `${(r.protocol ?? '').padEnd(8)} ` +
          new URL(r.url).pathname +
          new URL(r.url).search +
          (r.connection ? `  ${r.connection}` : ''),
      )
      .join('\n')
}

interface Figure {
  who: 'shop' | 'producer'
  screen: string
  coldMs: number
  warmMs: number
  coldKB: number
  warmKB: number
  /** Opened from the dashboard (inApp screens only). */
  inAppMs?: number
  inAppKB?: number
}

/**
 * Opens the screen at path in a page showing the dashboard, as a link of
 * the app does (wouter follows history.pushState and popstate), and
 * resolves to the milliseconds until a frame shows selector.
 */
function openInApp({ path, selector }: { path: string; selector: string }): Promise<number> {
  if (document.querySelector(selector)) throw new Error(`${selector} is on the dashboard already`)
  const start = Number(document.timeline.currentTime)
  history.pushState(null, '', path)
  dispatchEvent(new PopStateEvent('popstate'))
  return new Promise((resolve) => {
    const tick = () => {
      const el = document.querySelector(selector)
      const box = el?.getBoundingClientRect()
      if (el && box && box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden') {
        resolve(Number(document.timeline.currentTime) - start)
        return
      }
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
}

/** deploy/primeur.service's Environment= lines. */
function unitEnvironment(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const line of readFileSync(join(root, 'deploy', 'primeur.service'), 'utf8').split('\n')) {
    const m = /^\s*Environment=([A-Z_]+)=(.*)$/.exec(line)
    if (m) env[m[1]] = m[2].trim()
  }
  return env
}

test('the screens of a year of trade on a slow line, cold and warm', async ({ playwright, launchOptions }) => {
  const via = process.env.PRIMEUR_YEARLINE_VIA ?? 'direct'
  const cpu = cpuRate()
  if (cpu > 1 && process.env.PRIMEUR_YEARLINE_DOC)
    throw new Error("PRIMEUR_YEARLINE_CPU with PRIMEUR_YEARLINE_DOC: the doc holds the goals' figures, unthrottled")
  if (via !== 'direct' && via !== 'nginx') throw new Error(`PRIMEUR_YEARLINE_VIA=${via}: direct or nginx`)
  const nginxBin = via === 'nginx' ? nginxBinary() : null
  if (via === 'nginx' && !nginxBin) {
    console.log("yearline via nginx skipped: nginx is not installed (Debian's package nginx)")
    test.skip(true, "nginx is not installed (Debian's package nginx)")
  }
  const runs = Number(process.env.PRIMEUR_YEARLINE_RUNS ?? 3)
  const only = process.env.PRIMEUR_YEARLINE_ONLY ? new RegExp(process.env.PRIMEUR_YEARLINE_ONLY) : null
  test.setTimeout(15 * 60_000 + runs * screens.length * 2 * 90_000)
  const bin = resolve(process.env.PRIMEUR_BIN ?? join(root, 'bin', 'primeur'))
  if (!existsSync(bin)) throw new Error(`${bin} not found: run "make build" first`)
  let data = process.env.PRIMEUR_YEARLINE_DATA
  const seeded = !data
  if (!data) {
    data = mkdtempSync(join(tmpdir(), 'primeur-year-'))
    // The seeded platform is kept in the load bench's cache (build/loadbench,
    // which make bench's load bench fills with the same platform): a minute
    // and a half of seeding saved while the seeder is unchanged.
    const cache = join(root, 'build', 'loadbench', 'cache')
    execFileSync('go', ['run', './tools/loadbench', 'seed', '--regions', '1', '--data-dir', data, '--cache', cache], {
      cwd: root,
      stdio: 'inherit',
    })
  }
  const port = await freePort()
  const baseURL = `http://127.0.0.1:${port}`
  // Through nginx, the daemon as deploy/primeur.service sets it where it
  // matters: the proxy trusted (X-Forwarded-Proto: https, so secure cookies
  // and HSTS), the base URL the site's (its port the bench's).
  const httpsPort = via === 'nginx' ? await freePort() : 0
  let unit: Record<string, string> = {}
  if (via === 'nginx') {
    const u = unitEnvironment()
    if (!u.PRIMEUR_TRUSTED_PROXIES || !u.PRIMEUR_BASE_URL?.startsWith(`https://${SITE}`))
      throw new Error(`deploy/primeur.service: trusted proxies and https://${SITE} expected: ${JSON.stringify(u)}`)
    unit = { PRIMEUR_TRUSTED_PROXIES: u.PRIMEUR_TRUSTED_PROXIES, PRIMEUR_BASE_URL: `https://${SITE}:${httpsPort}` }
  }
  const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', data, '--now', NOW], {
    // The daemon refuses a PRIMEUR_ variable it does not know: the bench's own are left out.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PRIMEUR_'))),
      PRIMEUR_LOG_LEVEL: 'warn',
      ...unit,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const figures: Figure[] = []
  let nginx: Nginx | undefined
  let protocols: Record<string, number> = {}
  let browser: Browser | undefined
  try {
    await waitHealthy(baseURL, child)
    if (nginxBin)
      nginx = await startNginx({
        bin: nginxBin,
        root,
        upstream: `127.0.0.1:${port}`,
        httpPort: await freePort(),
        httpsPort,
      })
    // The browser of the config; through nginx, told that the site is this
    // machine and that its self-signed certificate is valid, as a real
    // one is (taken as an error, even ignored, it would leave the HTTP
    // cache and the service worker out: every warm load a cold one).
    browser = await playwright.chromium.launch(
      nginx
        ? {
            args: [
              ...(launchOptions.args ?? []),
              `--host-resolver-rules=MAP ${SITE} 127.0.0.1`,
              `--ignore-certificate-errors-spki-list=${nginx.spki}`,
            ],
          }
        : {},
    )
    const origin: Origin = nginx ? { baseURL: nginx.baseURL, nginx } : { baseURL }
    // The largest shop's id, for the producer's planner of it.
    let shopId: string
    if (nginx) {
      const res = await siteRequest(nginx.port, 'POST', '/auth/login', { body: { email: SHOP, password: PASSWORD } })
      const cookie = res.cookies.map((c) => c.split(';')[0]).join('; ')
      const user = await siteRequest(nginx.port, 'GET', '/api/user', { cookie })
      if (user.status !== 200) throw new Error(`GET /api/user: ${user.status} ${user.body}`)
      shopId = (JSON.parse(user.body) as { user: { _id: string } }).user._id
    } else {
      const probe = await login(browser, origin, SHOP)
      shopId = ((await (await probe.request.get('/api/user')).json()) as { user: { _id: string } }).user._id
      await probe.close()
    }
    for (const [who, email] of [
      ['shop', SHOP],
      ['producer', PRODUCER],
    ] as const) {
      for (const s of screens) {
        if (only && !only.test(`${who} ${s.name}`)) continue
        const cold: number[] = []
        const warm: number[] = []
        const coldBytes: number[] = []
        const warmBytes: number[] = []
        const inApp: number[] = []
        const inAppBytes: number[] = []
        for (let i = 0; i < runs; i++) {
          const context = await login(browser, origin, email)
          await context.addInitScript(watch, { selector: s.selector, scrollTo: s.scrollTo })
          for (const [times, bytes] of [
            [cold, coldBytes],
            [warm, warmBytes],
          ]) {
            const page = await context.newPage()
            const { cdp, transfers } = await recordTransfers(page)
            const trace = process.env.PRIMEUR_YEARLINE_TRACE ? traceRequests(cdp) : null
            await emulate(cdp, cpu)
            await page.goto(s.path(who, shopId), { waitUntil: 'commit' })
            await page.waitForFunction(() => (window as unknown as { __shown?: number }).__shown !== undefined, null, {
              timeout: 90_000,
              polling: 100,
            })
            times.push(await page.evaluate(() => (window as unknown as { __shown: number }).__shown))
            bytes.push(transfers().reduce((sum, t) => sum + t.bytes, 0))
            if (trace)
              console.log(
                `${who} ${s.name} ${times === cold ? 'cold' : 'warm'} shown at ${times.at(-1)} ms, ` +
                  `${context.serviceWorkers().length} service worker(s)\n${trace()}`,
              )
            await page.close()
          }
          await context.close()
          if (s.inApp) {
            // The dashboard cold and drawn, the line quiet, then the screen.
            const app = await login(browser, origin, email, false)
            await app.addInitScript(watch, { selector: screens[0].selector, scrollTo: screens[0].scrollTo })
            const page = await app.newPage()
            const { cdp, transfers } = await recordTransfers(page)
            await emulate(cdp, cpu)
            await page.goto('/', { waitUntil: 'commit' })
            await page.waitForFunction(() => (window as unknown as { __shown?: number }).__shown !== undefined, null, {
              timeout: 90_000,
              polling: 100,
            })
            await page.waitForLoadState('networkidle')
            const before = transfers().reduce((sum, t) => sum + t.bytes, 0)
            inApp.push(await page.evaluate(openInApp, { path: s.path(who, shopId), selector: s.selector }))
            inAppBytes.push(transfers().reduce((sum, t) => sum + t.bytes, 0) - before)
            await app.close()
          }
        }
        figures.push({
          who,
          screen: s.name,
          coldMs: Math.round(median(cold)),
          warmMs: Math.round(median(warm)),
          coldKB: Math.round(median(coldBytes) / 1024),
          warmKB: Math.round(median(warmBytes) / 1024),
          ...(s.inApp ? { inAppMs: Math.round(median(inApp)), inAppKB: Math.round(median(inAppBytes) / 1024) } : {}),
        })
      }
    }
    if (nginx) {
      protocols = nginx.protocols()
      console.log(`nginx served, by protocol: ${JSON.stringify(protocols)}`)
    }
  } finally {
    await browser?.close()
    await nginx?.stop()
    child.kill('SIGTERM')
    if (seeded) rmSync(data, { recursive: true, force: true })
  }

  const mark = (value: number, goal: number) => (value <= goal ? `${value}` : `**${value}** (over)`)
  const path =
    via === 'nginx'
      ? 'Through nginx (deploy/nginx.conf: TLS, HTTP/2 to the browser, HTTP/1.1 to the daemon)'
      : 'Straight to the daemon (plain HTTP/1.1)'
  const table = [
    `${path}. Year of trade (loadbench seed --regions 1, clock ${NOW}), slow line (${(SLOW_LINE.downloadThroughput * 8) / 1e6} Mbit/s, ` +
      `${SLOW_LINE.latency} ms)${cpu > 1 ? `, the CPU ${cpu}× slower` : ''}, ${runs} loads each, median. Goals: cold ≤ ${GOAL_COLD_MS} ms, warm ≤ ${GOAL_WARM_MS} ms, ` +
      `≤ ${GOAL_KB} KB a screen cold (received by the time it shows). In the app: opened from the dashboard ` +
      `(drawn, the line quiet), its time and what it received (the shell's files there already; no service worker).`,
    '',
    '| who | screen | cold (ms) | warm (ms) | cold KB | warm KB | in the app (ms) | in the app KB |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...figures.map(
      (f) =>
        `| ${f.who} | ${f.screen} | ${mark(f.coldMs, GOAL_COLD_MS)} | ${mark(f.warmMs, GOAL_WARM_MS)} | ` +
        `${mark(f.coldKB, GOAL_KB)} | ${f.warmKB} | ${f.inAppMs ?? '—'} | ${f.inAppKB ?? '—'} |`,
    ),
  ].join('\n')
  console.log(table)
  if (process.env.PRIMEUR_YEARLINE_OUT)
    writeFileSync(
      process.env.PRIMEUR_YEARLINE_OUT,
      JSON.stringify(
        { via, ...(via === 'nginx' ? { protocols } : {}), now: NOW, line: SLOW_LINE, cpu, runs, figures },
        null,
        2,
      ),
    )
  const doc = process.env.PRIMEUR_YEARLINE_DOC
  if (doc) {
    const text = readFileSync(doc, 'utf8')
    const marker = via === 'nginx' ? 'yearline-nginx' : 'yearline'
    const begin = `<!-- ${marker}:begin`
    const end = `<!-- ${marker}:end -->`
    const from = text.indexOf(begin)
    const to = text.indexOf(end)
    if (from < 0 || to < from) throw new Error(`${doc} has no ${marker} markers`)
    const head = text.slice(from, text.indexOf('\n', from) + 1)
    writeFileSync(doc, text.slice(0, from) + head + table + '\n' + text.slice(to))
  }
})
