// The supply screen (Réasso.) against the real daemon. Deliveries are
// written by tools/e2eseed's supply scene (fixtures' seed) into the
// daemon's database by trade's and delivery's own operations (tradetest),
// as a real negotiation and delivery leave them.
import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test'
import { expect, registerThroughForm, seed, test, uniqueAccount } from './fixtures'

/** Registers a producer through the API (no browser needed). */
async function registerProducer(baseURL: string, prefix: string) {
  const account = uniqueAccount(prefix)
  const api: APIRequestContext = await playwrightRequest.newContext({ baseURL })
  const res = await api.post('/auth/register', {
    data: { email: account.email, password: account.password, name: account.name, distributor: false },
  })
  expect(res.status()).toBe(201)
  await api.dispose()
  return account
}

/** A shop registered through the form, with tomatoes and leeks seeded around the current week. */
async function seededShop(page: Page, baseURL: string) {
  test.skip(
    !process.env.PRIMEUR_E2E_DATA_DIR,
    'PRIMEUR_E2E_DATA_DIR is not set: the daemon was not started by the global setup',
  )
  const shop = uniqueAccount('reasso')
  const saules = await registerProducer(baseURL, 'saules')
  const verger = await registerProducer(baseURL, 'verger')
  await page.goto('/landing/register')
  await registerThroughForm(page, shop, 'Distributeur')
  await expect(page.getByRole('button', { name: shop.email })).toBeVisible()
  seed('supply', ['--shop', shop.email, '--producer', saules.email, '--producer', verger.email])
  return { shop, saules, verger }
}

// A screen under 1280 CSS px is of normal density (5 days), whatever its
// pixel ratio (supply/window.ts).
test.use({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 2 })

test('the shop reads its stock grid, steps the window and reads the advice of a cell', async ({ page, baseURL }) => {
  const requested: string[] = []
  const fromLanding: string[] = []
  page.on('request', (r) => {
    requested.push(r.url())
    if (new URL(page.url() || 'about:blank').pathname.startsWith('/landing')) fromLanding.push(r.url())
  })
  const { saules, verger } = await seededShop(page, baseURL!)
  // The landing page does not pay for the chart library (the dashboard's chart, issue 8, and this screen do).
  expect(fromLanding.filter((u) => u.includes('/uplot-'))).toEqual([])

  // A reload makes the user load see the producers registered meanwhile.
  await page.reload()
  await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Réasso.' }).click()
  await expect(page).toHaveURL(/\/dis\/supply$/)
  await expect(
    page.getByRole('heading', { name: "Évolution des stocks et conseils d'approvisionnement" }),
  ).toBeVisible()
  const grid = page.getByRole('table', { name: 'Grille des stocks' })
  await expect(grid.getByRole('columnheader')).toHaveCount(3 + 5)
  await expect(grid.getByRole('columnheader').nth(3)).toHaveText(/^lun\. /)
  await expect(page.getByTestId('supply-period')).toHaveText(/^Du lundi .* au vendredi /)
  await expect(page.getByTestId('supply-prompt')).toBeVisible()
  await expect(page.getByTestId('no-deliveries')).toBeHidden()

  // Leeks: 12 kg delivered last Friday and no need, so 12 every morning.
  await expect(grid.getByRole('button', { name: /^Poireau, lundi .*stock du matin 12 kg$/ })).toBeVisible()
  // Tomatoes: 30 + 10 kg come on Tuesday; the stock chart is drawn by the chart library.
  const tuesday = grid.getByRole('button', { name: /^Tomate, mardi / })
  await expect(tuesday).toHaveText('+40')
  await expect(tuesday).toHaveAttribute('data-risk', '0')
  await expect(grid.getByRole('button', { name: /^Tomate, lundi / })).toHaveAttribute('data-risk', '2')
  await expect(page.getByTestId('stock-chart').first().locator('[data-drawn="true"] canvas').first()).toBeVisible()
  expect(requested.some((u) => u.includes('/uplot-'))).toBe(true)

  // The detail of Tuesday: the date, the order for Wednesday, the assumptions.
  await tuesday.click()
  await expect(tuesday).toHaveAttribute('aria-pressed', 'true')
  const detail = page.getByRole('region', { name: 'Détail de la case sélectionnée' })
  await expect(detail.getByRole('heading', { name: /^mardi \d+ \S+ \d{4}$/ })).toBeVisible()
  await expect(detail.getByText(/^Commande plateforme proposée pour le lendemain \(mercredi /)).toBeVisible()
  await expect(detail.getByTestId('proposed-order')).toHaveText(/^\d+(,\d{1,2})? kg$/)
  await expect(detail.getByTestId('morning-stock')).toHaveText(/Stock local restant le matin\s*0 kg/)
  await expect(detail.getByTestId('deliveries')).toHaveText(/Livraisons du jour\s*40 kg/)
  await expect(detail.getByRole('row', { name: `${saules.name} 30 kg` })).toBeVisible()
  await expect(detail.getByRole('row', { name: `${verger.name} 10 kg` })).toBeVisible()
  await expect(detail.getByTestId('next-deliveries')).toHaveText(/Livraisons du lendemain\s*aucune/)
  await expect(detail.getByTestId('need')).toHaveText(/Besoin du jour\s*\d+(,\d{1,2})? kg/)
  await expect(detail.getByTestId('next-need')).toHaveText(/Besoin du lendemain\s*\d+(,\d{1,2})? kg/)
  await expect(detail.getByText('Besoin couvert')).toBeVisible()

  // One day later: Tuesday is still in the window and still selected.
  await page.getByRole('button', { name: 'Avancer de 1 jour' }).click()
  await expect(page.getByTestId('supply-period')).toHaveText(/^Du mardi .* au samedi /)
  await expect(grid.getByRole('columnheader').nth(3)).toHaveText(/^mar\. /)
  await expect(detail.getByTestId('deliveries')).toHaveText(/40 kg/)
  // Two more: nothing comes between Thursday and Monday.
  await page.getByRole('button', { name: 'Avancer de 1 jour' }).click()
  await page.getByRole('button', { name: 'Avancer de 1 jour' }).click()
  await expect(page.getByTestId('supply-period')).toHaveText(/^Du jeudi .* au lundi /)
  await expect(page.getByTestId('no-deliveries')).toHaveText(
    /^Aucune livraison n'est prévue entre le \d\d\/\d\d\/\d{4} et le \d\d\/\d\d\/\d{4}\. Utilisez les flèches pour consulter d'autres dates\.$/,
  )
  await expect(page.getByTestId('supply-prompt')).toBeVisible()

  // Back to the current week.
  await page.getByRole('button', { name: 'Semaine en cours' }).click()
  await expect(page.getByTestId('supply-period')).toHaveText(/^Du lundi .* au vendredi /)
  await expect(page.getByTestId('no-deliveries')).toBeHidden()
  await expect(grid.getByRole('button', { name: /^Tomate, mardi / })).toHaveText('+40')

  // The products at risk come first; "À risque seulement" keeps only them.
  const rows = grid.locator('tbody tr')
  const total = await rows.count()
  const flagged = await rows.filter({ hasText: 'à risque' }).count()
  await expect(
    page.getByText(new RegExp(`^(${flagged} produits? |Aucun produit )à risque sur ${total}$`)),
  ).toBeVisible()
  for (let i = 0; i < total; i++) {
    if (i < flagged) await expect(rows.nth(i)).toContainText('à risque')
    else await expect(rows.nth(i)).not.toContainText('à risque')
  }
  const only = page.getByRole('switch', { name: 'À risque seulement' })
  await only.check()
  if (flagged > 0) await expect(rows).toHaveCount(flagged)
  else await expect(page.getByText('Aucun produit à risque sur cette période.')).toBeVisible()
  await only.uncheck()
  await expect(rows).toHaveCount(total)
})

test.describe('on a high-density screen', () => {
  test.use({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 })

  test('the window shows 8 days and the arrows move it by 3', async ({ page, baseURL }) => {
    await seededShop(page, baseURL!)
    await page.goto('/dis/supply')
    const grid = page.getByRole('table', { name: 'Grille des stocks' })
    await expect(grid.getByRole('columnheader')).toHaveCount(3 + 8)
    await expect(page.getByTestId('supply-period')).toHaveText(/^Du lundi .* au lundi /)
    await page.getByRole('button', { name: 'Avancer de 3 jours' }).click()
    await expect(page.getByTestId('supply-period')).toHaveText(/^Du jeudi .* au jeudi /)
    await page.getByRole('button', { name: 'Reculer de 3 jours' }).click()
    await page.getByRole('button', { name: 'Reculer de 3 jours' }).click()
    await expect(page.getByTestId('supply-period')).toHaveText(/^Du vendredi .* au vendredi /)
  })
})

// Issue 37, finding 6: at 1440 px only 5 of the 8 day columns fitted;
// the grid scrolled sideways beside the detail. From the narrowest
// high-density screen (1280 px) up.
for (const width of [1280, 1440]) {
  test.describe(`at ${width} × 900`, () => {
    test.use({ viewport: { width, height: 900 }, deviceScaleFactor: 1 })
    test('the 8 day columns fit beside the detail, without scrolling sideways', async ({ page, baseURL }) => {
      await seededShop(page, baseURL!)
      await page.goto('/dis/supply')
      const grid = page.getByRole('table', { name: 'Grille des stocks' })
      const days = grid.getByRole('columnheader').filter({ hasText: /\d\d\/\d\d$/ })
      await expect(days).toHaveCount(8)
      // Each day's heading names its full date.
      await expect(days.first()).toHaveAttribute('title', /^lundi \d+ \S+ \d{4}$/)
      const viewport = page.viewportSize()!
      // The grid's own box scrolls no more sideways than the page does.
      const box = grid.locator('xpath=..')
      expect(await box.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
      const frame = (await box.boundingBox())!
      for (let i = 0; i < 8; i++) {
        const day = (await days.nth(i).boundingBox())!
        expect(day.x, `day ${i + 1} starts in the view`).toBeGreaterThanOrEqual(0)
        expect(day.x + day.width, `day ${i + 1} ends in the view`).toBeLessThanOrEqual(viewport.width)
        expect(day.x + day.width, `day ${i + 1} ends in the grid's box`).toBeLessThanOrEqual(
          frame.x + frame.width + 0.5,
        )
        // A day's button too: a whole column's cells, not only its heading.
        const cell = (await grid
          .locator('tbody tr')
          .first()
          .locator('td')
          .nth(3 + i)
          .boundingBox())!
        expect(cell.x + cell.width, `day ${i + 1}'s cell ends in the grid's box`).toBeLessThanOrEqual(
          frame.x + frame.width + 0.5,
        )
      }
      // The detail stays beside the grid, in the view too.
      const prompt = (await page.getByTestId('supply-prompt').boundingBox())!
      expect(prompt.x).toBeGreaterThan(frame.x + frame.width - 1)
      expect(prompt.x + prompt.width).toBeLessThanOrEqual(viewport.width)
    })
  })
}

test.describe('on a small phone', () => {
  test.use({ viewport: { width: 360, height: 640 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true })

  // The narrower day columns of issue 37 keep the small phone's grid usable:
  // it scrolls sideways in its own box only, its days still tapped.
  test('the grid scrolls in its own box, a tapped day opens its advice', async ({ page, baseURL }) => {
    await seededShop(page, baseURL!)
    await page.goto('/dis/supply')
    const grid = page.getByRole('table', { name: 'Grille des stocks' })
    await expect(grid.getByRole('columnheader')).toHaveCount(3 + 5)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    const tuesday = grid.getByRole('button', { name: /^Tomate, mardi / })
    await tuesday.scrollIntoViewIfNeeded()
    await expect(tuesday).toBeInViewport({ ratio: 1 })
    await tuesday.tap()
    const detail = page
      .getByRole('dialog', { name: 'Détail du produit' })
      .getByRole('region', { name: 'Détail de la case sélectionnée' })
    await expect(detail.getByRole('heading', { name: /^mardi \d+ \S+ \d{4}$/ })).toBeInViewport({ ratio: 1 })
    await expect(detail.getByTestId('proposed-order')).toBeInViewport()
  })
})
