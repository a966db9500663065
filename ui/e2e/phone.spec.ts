// The interface on a 390×844 phone (issue 19 "Phone layouts"): what a
// buyer and a farmer see first, with a screenshot of each screen kept as
// an artifact (test-results/…/phone-*.png).
import type { Page, TestInfo } from '@playwright/test'
import { expect, needCell, registerThroughForm, test, uniqueAccount } from './fixtures'

test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })

/** Every item of the bottom navigation shows its whole label, inside the screen. */
async function navigationFits(page: Page, labels: string[], info: TestInfo, name: string) {
  const nav = page.getByRole('navigation', { name: 'Navigation principale' })
  await expect(nav).toBeVisible()
  for (const label of labels) {
    const item = nav.getByText(label, { exact: true })
    await expect(item).toBeVisible()
    const fits = await item.evaluate((el) => {
      const box = el.getBoundingClientRect()
      return el.scrollWidth <= el.clientWidth + 1 && box.left >= 0 && box.right <= window.innerWidth
    })
    expect(fits, `« ${label} » is cut or off screen`).toBe(true)
  }
  await page.screenshot({ path: info.outputPath(`phone-${name}.png`) })
}

test('the shop’s bottom navigation shows every label on a phone', async ({ page }, info) => {
  await page.goto('/landing/register')
  await registerThroughForm(page, uniqueAccount('tel-magasin'), 'Distributeur')
  await navigationFits(
    page,
    ['Accueil', 'Planifier', 'Réasso.', 'Récep.', 'Payer', 'Activités'],
    info,
    'shop-dashboard',
  )
})

test('the farmer’s bottom navigation shows every label on a phone', async ({ page }, info) => {
  await page.goto('/landing/register')
  await registerThroughForm(page, uniqueAccount('tel-ferme'), 'Producteur')
  await navigationFits(page, ['Vendre', 'Livrer', 'Encaisser', 'Activités'], info, 'farm-dashboard')
})

/** The month after this one in Paris: ["décembre 2026", "2026-12-01"]. */
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

/** The element is inside the screen (not below the grid, as the pane was). */
async function inView(page: Page, name: string, el: import('@playwright/test').Locator) {
  // Retried, not measured once: the sheet rises for a moment after the tap.
  await expect(el, `${name} is out of the screen (${page.viewportSize()?.height} px high)`).toBeInViewport({ ratio: 1 })
}

test('on a phone, a farmer taps a shop’s need and proposes in the sheet that rises', async ({
  page,
  browser,
  baseURL,
}, info) => {
  const [label, value] = nextMonth()
  const shop = uniqueAccount('tel-epicerie')
  const shopContext = await browser.newContext({ baseURL })
  expect((await shopContext.request.post('/auth/register', { data: { ...shop, distributor: true } })).status()).toBe(
    201,
  )
  expect(
    (
      await shopContext.request.post('/api/needs', { data: { product: 'courgette', date: value, quantity: 100 } })
    ).status(),
  ).toBe(201)
  const shopId: string = (await (await shopContext.request.get('/api/user')).json()).user._id

  await page.goto('/landing/register')
  await registerThroughForm(page, uniqueAccount('tel-ferme'), 'Producteur')
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible()
  await page.goto(`/prod/needs/${shopId}`)
  await needCell(page, 'Courgette', label).tap()
  const sheet = page.getByRole('dialog', { name: 'Détail du besoin' })
  await inView(page, 'the need’s heading', sheet.getByRole('heading', { name: 'Courgette' }))
  // The proposal form is in the sheet, a scroll of the sheet away.
  const quantity = sheet.getByRole('form', { name: 'Proposer' }).getByLabel('Quantité (kg)')
  await quantity.scrollIntoViewIfNeeded()
  await inView(page, 'the quantity field', quantity)
  await page.screenshot({ path: info.outputPath('phone-farm-need-sheet.png') })

  // A way back: the grid again, the cell still selected.
  await sheet.getByRole('button', { name: 'Fermer le détail' }).tap()
  await expect(sheet).toBeHidden()
  await inView(page, 'the cell', needCell(page, 'Courgette', label))
  // The same cell tapped again opens it again.
  await needCell(page, 'Courgette', label).tap()
  await expect(sheet).toBeVisible()
  await sheet.getByRole('button', { name: 'Fermer le détail' }).tap()

  // Turned to landscape (a small phone) the planner shows 8 months, wider than the
  // screen: scrolled sideways, the grid keeps its products' column in place.
  await page.setViewportSize({ width: 667, height: 375 })
  const grid = page.getByRole('grid', { name: 'Besoins par produit et par mois' })
  const product = grid.getByRole('rowheader', { name: /Courgette/ })
  await expect(grid.getByRole('columnheader')).toHaveCount(9) // Produit and 8 months
  const before = await product.boundingBox()
  const scrolled = await grid.evaluate((el) => {
    let box = el.parentElement
    while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowX)) box = box.parentElement
    if (!box) return 0
    box.scrollLeft = 400
    return box.scrollLeft
  })
  expect(scrolled, 'the grid does not scroll sideways on a phone').toBeGreaterThan(40)
  await expect
    .poll(async () => Math.abs(((await product.boundingBox())?.x ?? 1e9) - (before?.x ?? 0)), {
      message: 'the products’ column moved with the months',
    })
    .toBeLessThanOrEqual(1)
  await page.screenshot({ path: info.outputPath('phone-farm-grid-scrolled.png') })
})
