// The service worker serves the API answers it keeps stale while
// revalidating (issue 42, ui/pwa.config.ts): a screen opens from the copy
// kept at once — here with no network at all — and, once the daemon's
// answer behind differs, the worker tells the page, which shows the
// fresher data without a reload (src/offline/updates.ts).
import type { BrowserContext } from '@playwright/test'
import { confirmEmail, expect, seed, test, uniqueAccount } from './fixtures'

/** The first day of the month `offset` months from now in Paris, "2026-12-01". */
function monthStart(offset: number): string {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  return new Date(Date.UTC(year, m - 1 + offset, 1)).toISOString().slice(0, 10)
}

async function register(context: BrowserContext, prefix: string, distributor: boolean) {
  const account = uniqueAccount(prefix)
  expect((await context.request.post('/auth/register', { data: { ...account, distributor } })).status()).toBe(201)
  await confirmEmail(context.request, account.email)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  return account
}

test.use({ viewport: { width: 1400, height: 1000 } })

test('the deliveries open from the kept copy offline, then show the daemon’s fresher answer', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const month = monthStart(1)
  const context = await browser.newContext({ baseURL })
  const farmContext = await browser.newContext({ baseURL })
  const shop = await register(context, 'perime', true)
  const farm = await register(farmContext, 'perime-ferme', false)
  const orderId = seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', month])
  const orders = await (await context.request.get(`/api/orders?from=${month}&to=${month}`)).json()
  const first = [...orders.find((o: { _id: string }) => o._id === orderId).deliveries].sort(
    (a: { date: string }, b: { date: string }) => a.date.localeCompare(b.date),
  )[0] as { _id: string; chrono: number; date: string }
  const row = (status: string) => new RegExp(`${first.chrono} ${status} ${first.date.split('-').reverse().join('/')}`)

  // Online once: the worker installs, then keeps the screen's answers.
  const page = await context.newPage()
  await page.goto('/dis/deliveries')
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
  await page.reload()
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  const table = page.getByRole('table', { name: 'Livraisons' })
  await page.getByRole('tab', { name: 'À venir', exact: true }).click()
  await expect(table.getByRole('row', { name: row('Prévue') })).toBeVisible()

  // The delivery cancelled meanwhile (through the API, not this page).
  expect((await context.request.put(`/api/deliveries/cancel/${orderId}/${first._id}`)).status()).toBe(200)

  // No network: the screen opens all the same, from the copy kept.
  await context.setOffline(true)
  await page.reload()
  await page.getByRole('tab', { name: 'À venir', exact: true }).click()
  await expect(table.getByRole('row', { name: row('Prévue') })).toBeVisible()

  // The network back: the page reads again, the worker answers with the
  // copy kept and asks the daemon behind; told of the fresher answer, the
  // page shows it, with no reload.
  await context.setOffline(false)
  await expect(table.getByRole('row', { name: row('Annulée') })).toBeVisible({ timeout: 20_000 })
  await expect(table.getByRole('row', { name: row('Prévue') })).toHaveCount(0)
  await context.close()
  await farmContext.close()
})
