// Shared test fixtures: the base URL comes from the global setup, which runs
// after the configuration was read, so it is injected here.
import { type APIRequestContext, type Locator, type Page, expect, test as base } from '@playwright/test'
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A planner cell, editable or read-only: a grid cell named "{product},
 * {month} : {what it holds}", its text the quantity ("12,5", empty without
 * need).
 */
export function needCell(page: Page, product: string, month: string): Locator {
  const label = `${product}, ${month} : `.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return page.getByRole('gridcell', { name: new RegExp(`^${label}`) })
}

/** A read-only planner cell (the producer's view of a shop, a shop's past months): a cell of needCell's. */
export const readOnlyCell = needCell

/** The text field of a shop's cell being edited (Enter, F2 or a digit typed on the cell): "{product}, {month}". */
export function cellField(page: Page, product: string, month: string): Locator {
  return page.getByRole('textbox', { name: `${product}, ${month}`, exact: true })
}

export const test = base.extend<{ pageProblems: string[] }>({
  baseURL: async ({}, use) => {
    const url = process.env.PRIMEUR_E2E_BASE_URL
    if (!url) throw new Error('PRIMEUR_E2E_BASE_URL is not set: the global setup did not run')
    await use(url)
  },
  // Every test fails on an uncaught exception or a Content-Security-Policy
  // violation in the page (the daemon serves a strict CSP).
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = []
      watchProblems(page, problems)
      await use(problems)
      expect(problems, 'errors in the page').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }

/**
 * Records in `problems` every uncaught exception and Content-Security-Policy
 * violation of a page (the guard of every test; pages of contexts a test
 * opens itself call it directly).
 */
export function watchProblems(page: Page, problems: string[]) {
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`))
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) problems.push(`csp: ${msg.text()}`)
  })
}

/** A fresh account for this run. */
export function uniqueAccount(prefix: string) {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
  return { email: `${prefix}-${id}@exemple.fr`, password: `legumes${id}1`, name: `${prefix} ${id}` }
}

/** Fills and sends the registration form of /landing/register. */
export async function registerThroughForm(
  page: Page,
  account: ReturnType<typeof uniqueAccount>,
  role: 'Distributeur' | 'Producteur',
) {
  await page.getByText(role, { exact: true }).click()
  await page.getByLabel('Nom de votre entreprise').fill(account.name)
  await page.getByLabel('Adresse email', { exact: true }).fill(account.email)
  await page.getByLabel("Confirmation de l'adresse email").fill(account.email)
  await page.getByLabel('Mot de passe', { exact: true }).fill(account.password)
  await page.getByLabel('Confirmation du mot de passe').fill(account.password)
  await page.getByRole('button', { name: 'Créer mon compte' }).click()
}

/** Fills and sends the login form of /landing/login. */
export async function loginThroughForm(page: Page, account: { email: string; password: string }) {
  await page.getByLabel('Adresse email', { exact: true }).fill(account.email)
  await page.getByLabel('Mot de passe', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Se connecter' }).click()
}

/** The daemon's data directory, which the global setup exports (tests that need it fail without it). */
export function dataDir(): string {
  const dir = process.env.PRIMEUR_E2E_DATA_DIR
  if (!dir) throw new Error('PRIMEUR_E2E_DATA_DIR is not set: this test needs the daemon started by the global setup')
  return dir
}

/**
 * Writes a scene of tools/e2eseed (`orders`, `supply`, `prices`) into the daemon's
 * database and returns what it prints. The global setup built the seeder
 * into the data directory.
 */
export function seed(scene: 'orders' | 'supply' | 'prices' | 'progression', args: string[]): string {
  return execFileSync(join(dataDir(), 'e2eseed'), [scene, '--data-dir', dataDir(), ...args], {
    encoding: 'utf8',
  }).trim()
}

/**
 * The text of an email of a daemon's outbox (no SMTP server in these
 * tests: each email is `<data-dir>/outbox/{key}.eml`) whose key starts with
 * `prefix`, sent to `to` and, when given, accepted by `pick` (the first of
 * several, in file name order). Quoted-printable is undone (soft line
 * breaks, "=3D"). It waits for the email, which may be sent after the
 * answer, up to 10 s. `dir` is the daemon's data directory (by default the
 * global setup's).
 */
export async function outboxEmail(
  prefix: string,
  to: string,
  { pick, dir = dataDir() }: { pick?: (text: string) => boolean; dir?: string } = {},
): Promise<string> {
  const outbox = join(dir, 'outbox')
  for (let i = 0; i < 100; i++) {
    let files: string[] = []
    try {
      files = readdirSync(outbox)
        .filter((f) => f.startsWith(prefix) && f.endsWith('.eml'))
        .sort()
    } catch {
      // No email yet.
    }
    for (const f of files) {
      const text = readFileSync(join(outbox, f), 'latin1')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      if (text.includes(`To: <${to}>`) && (!pick || pick(text))) return text
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no ${prefix}… email to ${to} in the outbox`)
}

/** The path and fragment of the confirmation link emailed to `to` ("/landing/confirm#…"). */
export async function confirmationLink(to: string, dir?: string): Promise<string> {
  const text = await outboxEmail('confirm-', to, { dir })
  const link = /\/landing\/confirm#[A-Za-z0-9_-]{20,}/.exec(text)?.[0]
  if (!link) throw new Error(`no confirmation link in the email to ${to}`)
  return link
}

/**
 * Confirms the login email of an account just registered, as opening the
 * link it was sent does: documents and notifications are emailed only to
 * confirmed addresses.
 */
export async function confirmEmail(request: APIRequestContext, email: string, dir?: string): Promise<void> {
  const token = (await confirmationLink(email, dir)).split('#')[1]
  const response = await request.post('/auth/email/confirm', { data: { token } })
  expect(response.status(), `confirmation of ${email}`).toBe(200)
}
