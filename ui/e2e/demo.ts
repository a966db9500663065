// A daemon of its own on the demo world (`primeur serve --demo`: four shops,
// four producers, a year of trade), for the measures of what each screen
// weighs (budget.spec.ts) and how long it takes on a slow line
// (slowline.bench.ts): the figures of a user with real data, not of an
// empty account. The binary is ../bin/primeur (`make build`) or $PRIMEUR_BIN.
import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test'
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, stop, waitHealthy } from './global-setup'

const here = dirname(fileURLToPath(import.meta.url))

/** The demo world's password, shared by every demo account (core/demo). */
export const DEMO_PASSWORD = 'primeur2026'
/** Its largest shop and one of its producers. */
export const DEMO_SHOP = { email: 'epicerie-du-lac@demo.primeur.fr', name: 'Épicerie du Lac' }
export const DEMO_PRODUCER = { email: 'ferme-des-glieres@demo.primeur.fr', name: 'Ferme des Glières' }

export interface DemoDaemon {
  baseURL: string
  /** The demo shop's id, for the producer's /prod/needs/:id. */
  shopId: string
  stop: () => Promise<void>
}

/** Starts `bin serve --demo` on a free port and a fresh data directory. */
export async function startDemo(bin = process.env.PRIMEUR_BIN ?? join(here, '..', '..', 'bin', 'primeur')) {
  if (!existsSync(bin)) throw new Error(`${bin} not found: run "make build" at the repository root first`)
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'primeur-demo-'))
  const baseURL = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(bin, ['serve', '--demo', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir], {
    env: { ...process.env, PRIMEUR_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const done = async () => {
    await stop(child)
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    await waitHealthy(baseURL, child)
    const shopId = await findShop(baseURL)
    return { baseURL, shopId, stop: done } satisfies DemoDaemon
  } catch (err) {
    await done()
    throw err
  }
}

/** The demo shop's id, from the producer's user load (the shops it trades with). */
async function findShop(baseURL: string): Promise<string> {
  const login = await fetch(`${baseURL}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: DEMO_PRODUCER.email, password: DEMO_PASSWORD }),
  })
  if (!login.ok) throw new Error(`demo login: ${login.status} ${await login.text()}`)
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0])
  const load = await fetch(`${baseURL}/api/user`, { headers: { Cookie: cookie.join('; ') } })
  const { distributors } = (await load.json()) as { distributors: { _id: string; name: string }[] }
  const shop = distributors.find((d) => d.name === DEMO_SHOP.name)
  if (!shop) throw new Error(`${DEMO_SHOP.name} is not on the producer's map`)
  return shop._id
}

/**
 * A fresh browser context (nothing cached: a cold start) on the demo
 * daemon, logged in as `email` when given: the session cookie from
 * /auth/login and the stored email the UI reads at start.
 */
export async function coldContext(browser: Browser, baseURL: string, email?: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 }, locale: 'fr-FR' })
  if (email) {
    const res = await context.request.post('/auth/login', { data: { email, password: DEMO_PASSWORD } })
    if (!res.ok()) throw new Error(`login ${email}: ${res.status()} ${await res.text()}`)
    await context.addInitScript((stored) => window.localStorage.setItem('primeur.email', stored), email)
  }
  return context
}

/** One response as the network saw it. */
export interface Transfer {
  url: string
  mimeType: string
  encoding: string
  /** The body's length as sent (Content-Length; -1 when streamed). */
  length: number
  /** Bytes received: headers and the body as sent (compressed when it was). */
  bytes: number
}

/**
 * Records through the DevTools protocol every response a page receives,
 * with its encoded size: what went over the wire.
 */
export async function recordTransfers(page: Page): Promise<{ cdp: CDPSession; transfers: () => Transfer[] }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  const seen = new Map<string, Omit<Transfer, 'bytes'>>()
  const sizes = new Map<string, number>()
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]))
    seen.set(e.requestId, {
      url: e.response.url,
      mimeType: e.response.mimeType,
      encoding: String(headers['content-encoding'] ?? ''),
      length: Number(headers['content-length'] ?? -1),
    })
  })
  cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength))
  const transfers = () =>
    [...sizes].flatMap(([id, bytes]) => {
      const r = seen.get(id)
      return r && !r.url.startsWith('data:') ? [{ ...r, bytes }] : []
    })
  return { cdp, transfers }
}

/** Whether a response is JavaScript. */
export const isScript = (t: Transfer) => /javascript/.test(t.mimeType) || /\.m?js(\?|$)/.test(t.url)

/** Kilobytes with one decimal. */
export const kb = (bytes: number) => (bytes / 1024).toFixed(1)
