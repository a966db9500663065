// The price comparison (PRODUCT §15) in a real browser against the real
// daemon: three shops of Haute-Savoie bought pumpkins for next month from
// three producers, each a company of its own (tools/e2eseed prices: 6
// purchases at 2.00 € to 3.00 €, 2.50 € on average). One of the shops
// sees the averages and the shop price derived from them, once, in the
// price information of its need (issue 37: one price truth, no second
// figure); a new producer sees the same figures under its proposal form,
// and no second section; a need of a product nobody bought shows no figure
// of anyone's purchases, only the catalogue's reference.
import type { Page } from '@playwright/test'
import { expect, loginThroughForm, needCell, seed, test, uniqueAccount } from './fixtures'

/** Next month in Paris: ["décembre 2026", "2026-12-01"]. */
function nextMonth(): [label: string, value: string] {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  const date = new Date(Date.UTC(year, m, 1))
  return [
    new Intl.DateTimeFormat('fr-FR', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(date),
    date.toISOString().slice(0, 10),
  ]
}

const [nextLabel, nextValue] = nextMonth()

async function openCell(page: Page, product: string) {
  await needCell(page, product, nextLabel).click()
  const pane = page.getByRole('complementary', { name: 'Détail du besoin' })
  await expect(pane.getByRole('heading', { name: product })).toBeVisible()
  return pane
}

test.use({ viewport: { width: 1280, height: 900 } })

test('shops and producers compare a need’s price with the platform’s and the département’s averages', async ({
  page,
  browser,
  baseURL,
}) => {
  const password = uniqueAccount('x').password
  const shops = [1, 2, 3].map((i) => uniqueAccount(`magasin${i}`).email)
  const farms = [1, 2, 3].map((i) => uniqueAccount(`ferme${i}`).email)
  seed('prices', [
    '--password',
    password,
    '--product',
    'potiron',
    '--month',
    nextValue,
    ...shops.flatMap((e) => ['--shop', e]),
    ...farms.flatMap((e) => ['--producer', e]),
  ])

  // The first shop, beside the price hint of its pumpkins.
  await page.goto('/landing/login')
  await loginThroughForm(page, { email: shops[0], password })
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible()
  expect(
    (await page.request.post('/api/needs', { data: { product: 'butternut', date: nextValue, quantity: 20 } })).status(),
  ).toBe(201)
  const shopId = ((await (await page.request.get('/api/user')).json()) as { user: { _id: string } }).user._id
  await page.goto('/dis/needs')
  let pane = await openCell(page, 'Potiron')
  let comparison = pane.getByRole('region', { name: 'Information prix' })
  await expect(comparison).toContainText('Prix moyen payé sur Primeur : 2,50 € / kg (6 achats)')
  await expect(comparison).toContainText('Prix moyen payé dans le département 74 : 2,50 € / kg (6 achats)')
  await expect(comparison).toContainText('Prix de vente magasin pour une marge de 30 % : 3,25 € / kg')
  // One truth: no other average anywhere in the pane.
  await expect(pane).not.toContainText('observé')
  await expect(pane.getByText(/2,50\s€\s\/\skg\s\(6 achats\)/)).toHaveCount(2) // national and local
  await expect(pane.getByRole('region', { name: 'Comparaison des prix' })).toHaveCount(0)

  // Nobody bought butternut: too few purchases to show anything.
  pane = await openCell(page, 'Courge butternut')
  comparison = pane.getByRole('region', { name: 'Information prix' })
  await expect(comparison).toContainText(
    "Prix moyen payé sur Primeur : pas assez d'achats comparables pour afficher une moyenne",
  )
  await expect(comparison).not.toContainText('achats)')
  await expect(comparison).not.toContainText('département 74 :')
  // No average price is shown (the rule's explanation names its 10 € floor):
  // the only prices are the catalogue's, labelled so.
  await expect(comparison.getByText(/€\s\/\skg/)).toHaveText([
    /^Prix de référence producteur \(catalogue\) : /,
    /^Prix de vente magasin indicatif pour une marge de 30 % : /,
  ])

  // A new producer, in the proposal form of the shop's need.
  const farm = uniqueAccount('ferme')
  const farmContext = await browser.newContext({ baseURL })
  expect((await farmContext.request.post('/auth/register', { data: { ...farm, distributor: false } })).status()).toBe(
    201,
  )
  const farmPage = await farmContext.newPage()
  await farmPage.goto('/landing/login')
  await loginThroughForm(farmPage, farm)
  await expect(farmPage.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible()
  await farmPage.goto(`/prod/needs/${shopId}`)
  pane = await openCell(farmPage, 'Potiron')
  const form = pane.getByRole('form', { name: 'Proposer' })
  await expect(form).toContainText(
    'Prix moyen payé : 2,50 € / kg sur Primeur (6 achats) · 2,50 € / kg dans le département 74 (6 achats)',
  )
  // Shown once: the form's line, no second section in the pane.
  await expect(pane.getByRole('region', { name: 'Information prix' })).toHaveCount(0)
  await expect(pane).not.toContainText('observé')
  await farmContext.close()
})
