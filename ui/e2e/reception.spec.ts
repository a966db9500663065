// The shop's reception on a phone, offline (issue 40, PRODUCT §16
// "Reception", §20 "Offline"): a shop opens a delivery's reception once
// online, loses the network (the test cuts it), opens the screen again
// without network, ticks a line, marks the other short with a photo,
// signs, and the reception waits on the phone; the app closed, the network
// back, the app opened on another screen sends it at its start, and the producer sees the claim the short line made —
// its photo, who received it — and accepts it, which the shop then reads.
// The service worker and the manifest are served as a browser needs them.
import type { BrowserContext } from '@playwright/test'
import { fileURLToPath } from 'node:url'
import { expect, seed, test, uniqueAccount, watchProblems } from './fixtures'

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true } as const

/** The first day of the month after next in Paris: no other spec's job locks its deliveries. */
function monthAfterNext(): string {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  return new Date(Date.UTC(year, m + 1, 1)).toISOString().slice(0, 10)
}

async function register(context: BrowserContext, prefix: string, distributor: boolean, name: string) {
  const account = { ...uniqueAccount(prefix), name }
  const res = await context.request.post('/auth/register', { data: { ...account, distributor } })
  expect(res.status(), await res.text()).toBe(201)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  return account
}

/** The receptions left in the phone's queue (IndexedDB primeur-receptions), run in the page. */
function queued(): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('primeur-receptions')
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const count = open.result.transaction('queue', 'readonly').objectStore('queue').count()
      count.onsuccess = () => resolve(count.result)
      count.onerror = () => reject(count.error)
    }
  })
}

test.use(PHONE)

test('the daemon serves the service worker and the manifest as a browser needs them', async ({ request }) => {
  const sw = await request.get('/sw.js')
  expect(sw.status()).toBe(200)
  expect(sw.headers()['content-type']).toMatch(/^text\/javascript/)
  expect(sw.headers()['cache-control']).toBe('no-cache')
  expect(await sw.text()).toContain('primeur-api')
  const manifest = await request.get('/manifest.webmanifest')
  expect(manifest.status()).toBe(200)
  expect(manifest.headers()['content-type']).toBe('application/manifest+json')
  const m = await manifest.json()
  expect(m).toMatchObject({ name: 'Primeur', lang: 'fr', display: 'standalone', start_url: '/' })
  for (const icon of m.icons as { src: string }[]) expect((await request.get(icon.src)).status()).toBe(200)
  const page = await request.get('/dis/deliveries')
  expect(await page.text()).toContain('<link rel="manifest" href="/manifest.webmanifest">')
})

test('a shop receives a delivery offline, one line short with a photo, and the producer sees the claim once the network is back and answers it', async ({
  browser,
  page,
  context,
}) => {
  const month = monthAfterNext()
  const shop = await register(context, 'reception-lac', true, 'Épicerie du Lac')
  const farmContext = await browser.newContext({ ...PHONE })
  const farm = await register(farmContext, 'reception-ferme', false, 'Ferme des Aravis')
  const orderId = seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', month])
  const orders = await (await context.request.get('/api/orders')).json()
  const order = orders.find((o: { _id: string }) => o._id === orderId)
  const delivery = order.deliveries.find((d: { date: string }) => d.date === month)
  const url = `/dis/deliveries/reception/${orderId}/${delivery._id}`

  // Online once: the app installs its service worker, which then answers
  // the app's pages and keeps the user load.
  await page.goto(url)
  await expect(page.getByRole('heading', { level: 1, name: 'Réception de la livraison' })).toBeVisible()
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
  await page.reload()
  await expect(page.getByRole('checkbox', { name: /^Reçu — Tomate/ })).toBeVisible()
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)

  // The network cut: the screen opens again all the same.
  await context.setOffline(true)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Réception de la livraison' })).toBeVisible()
  const tomato = page.getByRole('checkbox', { name: 'Reçu — Tomate (2 kg)' })
  const lettuce = page.getByRole('checkbox', { name: /^Reçu — Laitue/ })
  await expect(lettuce).toBeChecked()
  await tomato.tap()
  await page.getByRole('button', { name: 'Valider la réception' }).tap()
  // What the daemon would say, said before anything is kept.
  await expect(page.getByText('Indiquez pourquoi la quantité reçue diffère')).toHaveCount(0)
  await expect(page.getByText('Saisissez le nom de la personne qui réceptionne')).toBeVisible()

  await page.getByLabel('Quantité reçue — Tomate (kg)').fill('1,5')
  await page.getByText('Quantité manquante', { exact: true }).tap()
  await page.getByLabel('Commentaire — Tomate').fill('Une caisse manquante')
  await page
    .locator('input[type=file]')
    .setInputFiles(fileURLToPath(new URL('../public/icon-512.png', import.meta.url)))
  await expect(page.getByRole('img', { name: 'Photo du problème — Tomate' })).toBeVisible()
  await page.getByLabel('Reçu par').fill('Léa Martin')
  const pad = await page.getByTestId('signature').boundingBox()
  if (!pad) throw new Error('no signature pad')
  await page.mouse.move(pad.x + 30, pad.y + 90)
  await page.mouse.down()
  for (let i = 1; i <= 10; i++) await page.mouse.move(pad.x + 30 + i * 25, pad.y + 90 - (i % 3) * 20)
  await page.mouse.up()
  await page.getByRole('button', { name: 'Valider la réception' }).tap()

  await expect(page.getByText('Réception enregistrée sur ce téléphone', { exact: true })).toBeVisible()
  await expect(page.getByText("1 réception en attente d'envoi")).toBeVisible()

  // The app closed offline, the network back: the app opened on the
  // dashboard, no delivery screen, sends the reception at its start, once.
  await page.close()
  await context.setOffline(false)
  const shopPage = await context.newPage()
  await shopPage.goto('/')
  await expect.poll(() => shopPage.evaluate(queued)).toBe(0)
  await shopPage.goto(url)
  await expect(shopPage.getByText(/^Reçu le \d{2}\/\d{2}\/\d{4} à \d{2}h\d{2} par Léa Martin$/)).toBeVisible()
  await expect(shopPage.getByText("1 réception en attente d'envoi")).toHaveCount(0)

  // The producer sees the reception, the short line and its photo, and the
  // claim it made, which it answers. Received, the delivery is done: past.
  const farmPage = await farmContext.newPage()
  const problems: string[] = []
  watchProblems(farmPage, problems)
  await farmPage.goto('/prod/deliveries')
  await farmPage.getByRole('tab', { name: 'Passées', exact: true }).tap()
  await farmPage
    .getByRole('row', { name: /Épicerie du Lac/ })
    .first()
    .tap()
  const panel = farmPage.getByTestId('reception')
  await expect(panel.getByText(/^Reçu le .* par Léa Martin$/)).toBeVisible()
  await expect(panel.getByText('Réserves à la réception')).toBeVisible()
  await expect(
    panel.getByText('Tomate : reçu 1,5 kg sur 2 kg (quantité manquante) — Une caisse manquante'),
  ).toBeVisible()
  const photo = panel.getByRole('img', { name: 'Photo du problème — Tomate' })
  await expect(photo).toBeVisible()
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  const claim = farmPage.getByLabel("Demande d'avoir", { exact: true })
  await expect(claim.getByText("Demande d'avoir reçue à la réception, en attente de réponse")).toBeVisible()
  await expect(claim.getByText('Tomate : -0,5 kg (Quantité) — Une caisse manquante')).toBeVisible()
  await expect(claim.getByText(/n'est acceptée que par votre réponse/)).toBeVisible()
  await farmPage.getByRole('button', { name: "Accepter l'avoir" }).tap()
  await expect(claim.getByText("Demande d'avoir reçue à la réception, acceptée")).toBeVisible()
  await expect(farmPage.getByRole('button', { name: "Accepter l'avoir" })).toHaveCount(0)
  expect(problems).toEqual([])
  await farmContext.close()

  // The shop reads the producer's answer on its delivery.
  await shopPage.goto('/dis/deliveries')
  await shopPage.getByRole('tab', { name: 'Passées', exact: true }).tap()
  await shopPage
    .getByRole('row', { name: /Ferme des Aravis/ })
    .first()
    .tap()
  await expect(shopPage.getByText("Demande d'avoir envoyée à la réception, acceptée")).toBeVisible()
  await shopPage.keyboard.press('Escape') // the delivery's drawer closed
  await expect(shopPage.getByRole('dialog')).toHaveCount(0)

  // After logout, no answer of this shop is left for the next account.
  const cached = await shopPage.evaluate(async () => (await (await caches.open('primeur-api')).keys()).length)
  expect(cached).toBeGreaterThan(0)
  await shopPage.getByRole('button', { name: 'Mon compte' }).tap()
  await shopPage.getByRole('menuitem', { name: 'Quitter' }).tap()
  await expect.poll(() => shopPage.evaluate(async () => (await caches.keys()).includes('primeur-api'))).toBe(false)
})
