// Shared test fixtures: the base URL comes from the global setup, which runs
// after the configuration was read, so it is injected here.
import { type Page, expect, test as base } from '@playwright/test'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

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
export function seed(scene: 'orders' | 'supply' | 'prices', args: string[]): string {
  return execFileSync(join(dataDir(), 'e2eseed'), [scene, '--data-dir', dataDir(), ...args], {
    encoding: 'utf8',
  }).trim()
}
