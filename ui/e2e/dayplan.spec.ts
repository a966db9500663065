// The farmer's day on a phone (issue 40, PRODUCT §16 "The farmer's day"):
// a producer delivering two shops on one day opens its day from its
// deliveries screen, reads the pick sheet and the round, moves a stop by
// touch (taps, no mouse), finds the order after a reload, and the print
// link answers a PDF. Each run makes its own accounts and seeds them with
// tools/e2eseed's orders scene (one order per shop, a delivery every day).
import AxeBuilder from '@axe-core/playwright'
import type { BrowserContext } from '@playwright/test'
import { BLOCKING, WCAG_TAGS } from './a11y'
import { expect, seed, test, uniqueAccount } from './fixtures'

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true } as const

/**
 * The first day of the month after next in Paris, "2027-01-01": the other
 * specs on the shared daemon run the deliveries job in the current and
 * next months, which would lock this spec's deliveries (and count them).
 */
function monthAfterNext(): string {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  return new Date(Date.UTC(year, m + 1, 1)).toISOString().slice(0, 10)
}

/** Registers an account through the API in `context`, with an address. */
async function register(
  context: BrowserContext,
  prefix: string,
  distributor: boolean,
  name: string,
  address: string[],
) {
  const account = { ...uniqueAccount(prefix), name }
  const res = await context.request.post('/auth/register', { data: { ...account, distributor } })
  expect(res.status(), await res.text()).toBe(201)
  const profile = await context.request.put('/api/user', {
    data: { addressLine1: address[0], addressLine2: address[1] },
  })
  expect(profile.status(), await profile.text()).toBe(200)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  return account
}

test.use(PHONE)

test('a producer opens its day, moves a stop by touch, keeps the order after a reload and prints the sheets', async ({
  browser,
  page,
}) => {
  const month = monthAfterNext()
  const day = month.slice(0, 8) + '02' // both orders deliver it
  const shops = []
  for (const [prefix, name, address] of [
    ['journee-lac', 'Épicerie du Lac', ['3 quai de la Tournette', '74000 Annecy']],
    ['journee-thones', 'Biocoop Thônes', ['2 place Avet', '74230 Thônes']],
  ] as const) {
    const ctx = await browser.newContext()
    shops.push(await register(ctx, prefix, true, name, [...address]))
    await ctx.close()
  }
  const farm = await register(page.context(), 'journee-ferme', false, 'Ferme des Aravis', [
    '12 route des Aravis',
    '74220 La Clusaz',
  ])
  for (const shop of shops) seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', month])

  await page.goto(`/prod/deliveries/day/${day}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Ma journée de livraison' })).toBeVisible()
  // The pick sheet: tomatoes for both shops.
  const pick = page.getByRole('list', { name: 'Produits à cueillir' })
  await expect(pick.getByText('Tomate', { exact: true })).toBeVisible()
  await expect(pick.getByText('Épicerie du Lac')).toHaveCount(2)
  await expect(pick.getByText('Biocoop Thônes')).toHaveCount(2)

  await page.getByRole('tab', { name: 'Tournée' }).tap()
  const stops = page.getByRole('list', { name: 'Arrêts de la tournée' }).getByRole('listitem')
  await expect(stops).toHaveCount(2)
  // From La Clusaz, Thônes comes first.
  await expect(stops.nth(0)).toContainText('1. Biocoop Thônes')
  await expect(stops.nth(1)).toContainText('2. Épicerie du Lac')
  await expect(
    page.getByRole('link', { name: "Ouvrir dans l'application de cartes : Épicerie du Lac" }),
  ).toHaveAttribute('href', /^geo:[-0-9.]+,[-0-9.]+\?q=3\+quai\+de\+la\+Tournette/)
  await expect(page.getByRole('button', { name: 'Monter Biocoop Thônes' })).toBeDisabled()

  await page.getByRole('button', { name: 'Monter Épicerie du Lac' }).tap()
  await expect(stops.nth(0)).toContainText('1. Épicerie du Lac')
  await expect(page.getByText('Ordre choisi par vous')).toBeVisible()
  // Every control of the round fits the phone's width.
  for (const button of await page.getByRole('button', { name: /^(Monter|Descendre) / }).all()) {
    const box = await button.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true)
  }

  await page.reload()
  await page.getByRole('tab', { name: 'Tournée' }).tap()
  await expect(stops.nth(0)).toContainText('1. Épicerie du Lac')
  await expect(stops.nth(1)).toContainText('2. Biocoop Thônes')
  await expect(page.getByText('Ordre choisi par vous')).toBeVisible()

  // By keyboard: Enter on "Descendre" moves the stop back, the focus
  // following it to its other button once it is last.
  await page.getByRole('button', { name: 'Descendre Épicerie du Lac' }).focus()
  await page.keyboard.press('Enter')
  await expect(stops.nth(0)).toContainText('1. Biocoop Thônes')
  await expect(page.getByRole('button', { name: 'Monter Épicerie du Lac' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(stops.nth(0)).toContainText('1. Épicerie du Lac')
  await expect(page.getByRole('button', { name: 'Descendre Épicerie du Lac' })).toBeFocused()

  const axe = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()
  expect(axe.violations.filter((v) => BLOCKING.has(v.impact ?? '')).map((v) => `${v.id}: ${v.help}`)).toEqual([])

  const print = page.getByRole('link', { name: 'Imprimer (PDF)' })
  await expect(print).toHaveAttribute('href', `/print/day/${day}`)
  const pdf = await page.request.get(`/print/day/${day}`)
  expect(pdf.status()).toBe(200)
  expect(pdf.headers()['content-type']).toBe('application/pdf')
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-')

  // The deliveries screen links to a day of deliveries.
  await page.goto('/prod/deliveries')
  await expect(page.getByRole('link', { name: /^Ma journée de livraison du / })).toBeVisible()
})
