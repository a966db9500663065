// Helpers of the accessibility specs (a11y.spec.ts, keyboard.spec.ts): a
// daemon of their own on a fresh data directory (they move time forward
// with the daemon's jobs and issue invoices: the shared daemon's other specs
// must not see that), accounts with a profile, the orders scene, and the
// axe-core check of a screen.
import AxeBuilder from '@axe-core/playwright'
import type { BrowserContext, Page } from '@playwright/test'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, uniqueAccount } from './fixtures'
import { freePort, stop, waitHealthy } from './global-setup'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..')
const bin = resolve(process.env.PRIMEUR_BIN ?? join(root, 'bin', 'primeur'))

/** The WCAG 2.1 A and AA rules of axe-core (RGAA 4.1 follows WCAG 2.1 AA). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/** What fails the gate. */
export const BLOCKING = new Set(['serious', 'critical'])

/** A daemon of one spec file: `primeur serve` on its own SQLite data directory. */
export class OwnDaemon {
  baseURL = ''
  dataDir = ''
  private child?: ChildProcess
  private seeder = ''

  async start(extra: string[] = []) {
    if (!existsSync(bin))
      throw new Error(`${bin} not found: run "make build" at the repository root first (or set PRIMEUR_BIN)`)
    const port = await freePort()
    this.dataDir = mkdtempSync(join(tmpdir(), 'primeur-a11y-'))
    this.baseURL = `http://127.0.0.1:${port}`
    // The scenes' seeder: the global setup's build when there is one, else built here.
    const shared = process.env.PRIMEUR_E2E_DATA_DIR && join(process.env.PRIMEUR_E2E_DATA_DIR, 'e2eseed')
    if (shared && existsSync(shared)) this.seeder = shared
    else {
      this.seeder = join(this.dataDir, 'e2eseed')
      execFileSync('go', ['build', '-o', this.seeder, './tools/e2eseed'], { cwd: root, stdio: 'inherit' })
    }
    this.child = spawn(
      bin,
      [
        'serve',
        '--addr',
        `127.0.0.1:${port}`,
        '--data-dir',
        this.dataDir,
        '--registrations-per-hour',
        '1000',
        ...extra,
      ],
      { env: { ...process.env, PRIMEUR_LOG_LEVEL: 'error' }, stdio: ['ignore', 'ignore', 'inherit'] },
    )
    await waitHealthy(this.baseURL, this.child)
  }

  async stop() {
    if (this.child) await stop(this.child)
    if (this.dataDir && !process.env.PRIMEUR_E2E_KEEP_DATA) rmSync(this.dataDir, { recursive: true, force: true })
  }

  /** Runs a job of the daemon on its data directory as if it were `at` (Paris time). */
  runJob(name: string, at: string): string {
    return execFileSync(
      bin,
      ['jobs', 'run', name, '--at', at, '--force', '--data-dir', this.dataDir, '--log-level', 'warn'],
      {
        encoding: 'utf8',
      },
    )
  }

  /** The orders scene of tools/e2eseed: an order of `month` (YYYY-MM-01), delivered every day. */
  seedOrders(shop: string, producer: string, month: string): string {
    return execFileSync(
      this.seeder,
      ['orders', '--data-dir', this.dataDir, '--shop', shop, '--producer', producer, '--month', month],
      { encoding: 'utf8' },
    ).trim()
  }

  /** A scene of tools/e2eseed on this daemon's data directory; returns what it prints. */
  seed(scene: string, args: string[]): string {
    return execFileSync(this.seeder, [scene, '--data-dir', this.dataDir, ...args], { encoding: 'utf8' }).trim()
  }

  /** The path and fragment of the confirmation link emailed to `to`. */
  confirmToken(to: string): Promise<string> {
    return import('./fixtures').then(
      async ({ confirmationLink }) => (await confirmationLink(to, this.dataDir)).split('#')[1],
    )
  }
}

/** An account registered through the API, its email confirmed, its profile set, the context signed in. */
export async function registerAccount(
  daemon: OwnDaemon,
  context: BrowserContext,
  prefix: string,
  distributor: boolean,
  profile: Record<string, unknown> = {},
  { confirm = true }: { confirm?: boolean } = {},
) {
  const account = uniqueAccount(prefix)
  expect((await context.request.post('/auth/register', { data: { ...account, distributor } })).status()).toBe(201)
  if (confirm) {
    const token = await daemon.confirmToken(account.email)
    expect((await context.request.post('/auth/email/confirm', { data: { token } })).status()).toBe(200)
  }
  // Bank details need the current password (PRODUCT §13 "Changing the bank details").
  const bank = 'iban' in profile || 'bic' in profile ? { currentPassword: account.password } : {}
  if (Object.keys(profile).length)
    expect((await context.request.put('/api/user', { data: { ...profile, ...bank } })).status()).toBe(200)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  const load = (await (await context.request.get('/api/user')).json()) as { user: { _id: string } }
  return { ...account, id: load.user._id }
}

/** The first day of the month `offset` months from now in Paris, "2026-12-01". */
export function monthStart(offset: number): string {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  return new Date(Date.UTC(year, m - 1 + offset, 1)).toISOString().slice(0, 10)
}

/** "2026-12-01" → "décembre 2026", as the planner names its months. */
export function monthLabel(month: string): string {
  return new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}T12:00:00Z`),
  )
}

/** One violation of a screen, as the gate prints it. */
export interface Finding {
  screen: string
  id: string
  impact: string
  help: string
  helpUrl: string
  nodes: { target: string; html: string; summary: string }[]
}

/**
 * Runs axe-core's WCAG 2.1 A/AA rules on what `page` shows and returns its
 * violations of every impact (the gate fails on the serious and critical
 * ones). The page is given a moment to settle: transitions of Mantine's
 * overlays end, and the opacity of elements fading in would mislead the
 * contrast rule.
 */
export async function axeScan(page: Page, screen: string): Promise<Finding[]> {
  await page.waitForLoadState('load')
  await page.waitForTimeout(400)
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()
  return results.violations.map((v) => ({
    screen,
    id: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(' '),
      html: n.html.slice(0, 200),
      summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
    })),
  }))
}

/** The findings as text: one block per violation, with each node. */
export function report(findings: Finding[]): string {
  return findings
    .map(
      (f) =>
        `[${f.impact}] ${f.screen} — ${f.id}: ${f.help} (${f.helpUrl})\n` +
        f.nodes.map((n) => `    ${n.target}\n      ${n.html}\n      ${n.summary}`).join('\n'),
    )
    .join('\n')
}
