// Every screen with a detail, on a 390×844 phone (issue 19 "Phone
// layouts"): a tap on a row or a cell opens the detail in a sheet over the
// list, in view, with a way back; the tables wider than the screen keep
// their first column in place when they scroll sideways. A screenshot of
// each is kept as an artifact (test-results/…/phone-*.png, attached to the
// report). The farmer's view of a shop's needs is in phone.spec.ts.
//
// Each test makes its own accounts on the shared daemon and seeds them
// with tools/e2eseed's scenes (fixtures' seed); nothing here counts what
// other specs make.
import { type Browser, type BrowserContext, type Locator, type Page, type TestInfo, request } from '@playwright/test'
import { BLOCKING, axeScan, report } from './a11y'
import { expect, needCell, seed, test, uniqueAccount, watchProblems } from './fixtures'

const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'fr-FR',
  timezoneId: 'Europe/Paris',
} as const
test.use(PHONE)

/** Keeps a screenshot of the page as an artifact of the test: test-results/…/phone-{name}.png, attached to the report. */
async function keep(page: Page, info: TestInfo, name: string) {
  const path = info.outputPath(`phone-${name}.png`)
  await page.screenshot({ path })
  await info.attach(`phone-${name}`, { path, contentType: 'image/png' })
}

/**
 * Registers an account through the API in `context` (its pages then open
 * signed in: the session cookie, and the email the app reads at start).
 */
async function register(context: BrowserContext, prefix: string, distributor: boolean) {
  const account = uniqueAccount(prefix)
  const res = await context.request.post('/auth/register', { data: { ...account, distributor } })
  expect(res.status(), await res.text()).toBe(201)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  const { user } = (await (await context.request.get('/api/user')).json()) as { user: { _id: string } }
  return { ...account, id: user._id }
}

/** A second phone, for the other side of a scene. */
async function otherPhone(browser: Browser, baseURL: string | undefined, problems: string[]) {
  const context = await browser.newContext({ ...PHONE, baseURL })
  const page = await context.newPage()
  watchProblems(page, problems)
  return { context, page }
}

/** The first day of the month `offset` months from now in Paris: ["2026-12-01", "décembre 2026"]. */
function month(offset: number): [value: string, label: string] {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  const date = new Date(Date.UTC(year, m - 1 + offset, 1))
  return [
    date.toISOString().slice(0, 10),
    new Intl.DateTimeFormat('fr-FR', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(date),
  ]
}

/**
 * Scrolls the box `table` scrolls in sideways and checks that `sticky` (a
 * cell of its first column) stays where it was while `moving` (a cell
 * further right) goes left with the scroll.
 */
async function stickyWhenScrolled(
  page: Page,
  info: TestInfo,
  name: string,
  table: Locator,
  sticky: Locator,
  moving: Locator,
) {
  const scrollTo = (left: number) =>
    table.evaluate((el, to) => {
      let box = el.parentElement
      while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowX)) box = box.parentElement
      if (!box) return -1
      box.scrollLeft = to
      return box.scrollLeft
    }, left)
  await sticky.scrollIntoViewIfNeeded()
  expect(await scrollTo(0), `${name}: no box scrolls the table sideways`).toBe(0)
  const x = async (el: Locator) => (await el.boundingBox())?.x ?? Number.NaN
  const stickyBefore = await x(sticky)
  const movingBefore = await x(moving)
  expect(await scrollTo(300), `${name}: the table is not wider than the phone`).toBeGreaterThan(40)
  await expect
    .poll(async () => Math.abs((await x(sticky)) - stickyBefore), { message: `${name}: the first column moved` })
    .toBeLessThanOrEqual(1)
  await expect.poll(() => x(moving), { message: `${name}: the table did not scroll` }).toBeLessThan(movingBefore - 40)
  await keep(page, info, `${name}-scrolled`)
}

test('on a phone, the shop taps a need of its planner and reads it in the sheet', async ({ page }, info) => {
  const [value, label] = month(1)
  await register(page.context(), 'tel-planif', true)
  const created = await page.context().request.post('/api/needs', {
    data: { product: 'courgette', date: value, quantity: 100 },
  })
  expect(created.status(), await created.text()).toBe(201)

  await page.goto('/dis/needs')
  await needCell(page, 'Courgette', label).tap()
  const sheet = page.getByRole('dialog', { name: 'Détail du besoin' })
  await expect(sheet.getByRole('heading', { name: 'Courgette' })).toBeInViewport({ ratio: 1 })
  await keep(page, info, 'shop-need-sheet')
  // A phone has no key to start typing in the grid: the quantity is changed in the sheet.
  const quantity = sheet.getByLabel('Besoin (kg)')
  await expect(quantity).toHaveValue('100')
  await quantity.fill('120,5')
  await sheet.getByRole('button', { name: 'Enregistrer' }).tap()
  await expect(sheet.getByRole('status')).toHaveText('Quantité enregistrée.')
  await sheet.getByRole('button', { name: 'Fermer le détail' }).tap()
  await expect(sheet).toBeHidden()
  await page.reload()
  await expect(needCell(page, 'Courgette', label)).toContainText('120,5')
})

test('on a phone, the shop taps a day or a product of its supply grid and reads the advice in the sheet', async ({
  page,
  baseURL,
}, info) => {
  const shop = await register(page.context(), 'tel-reasso', true)
  const producers: string[] = []
  for (const prefix of ['tel-saules', 'tel-verger']) {
    const account = uniqueAccount(prefix)
    const api = await request.newContext({ baseURL })
    const res = await api.post('/auth/register', { data: { ...account, distributor: false } })
    expect(res.status(), await res.text()).toBe(201)
    await api.dispose()
    producers.push(account.email)
  }
  seed('supply', ['--shop', shop.email, '--producer', producers[0], '--producer', producers[1]])

  await page.goto('/dis/supply')
  const grid = page.getByRole('table', { name: 'Grille des stocks' })
  // The width decides the density: 5 days on a phone, whatever its pixel ratio.
  await expect(grid.getByRole('columnheader')).toHaveCount(3 + 5)
  await expect(page.getByTestId('supply-prompt')).toHaveCount(0)

  // A day: its advice in the sheet, in view.
  const tuesday = grid.getByRole('button', { name: /^Tomate, mardi / })
  await tuesday.tap()
  const sheet = page.getByRole('dialog', { name: 'Détail du produit' })
  const detail = sheet.getByRole('region', { name: 'Détail de la case sélectionnée' })
  await expect(detail.getByRole('heading', { name: /^mardi \d+ \S+ \d{4}$/ })).toBeInViewport({ ratio: 1 })
  await expect(detail.getByText(/^Commande plateforme proposée pour le lendemain \(mercredi /)).toBeInViewport()
  await expect(detail.getByTestId('proposed-order')).toBeInViewport()
  await expect(sheet.getByRole('img', { name: /^Stock du matin de Tomate : / })).toBeVisible()
  await keep(page, info, 'supply-sheet')
  // The sheet passes the accessibility gate (a11y.spec.ts scans the screens; this one needs the supply scene).
  const blocking = (await axeScan(page, 'réassort, détail (téléphone)')).filter((f) => BLOCKING.has(f.impact))
  expect(blocking, `serious or critical violations:\n${report(blocking)}`).toEqual([])
  // The next day without leaving the sheet.
  await sheet.getByRole('button', { name: 'Jour suivant' }).tap()
  await expect(detail.getByRole('heading', { name: /^mercredi \d+ \S+ \d{4}$/ })).toBeInViewport({ ratio: 1 })
  await expect(grid.getByRole('button', { name: /^Tomate, mercredi / })).toHaveAttribute('aria-pressed', 'true')

  // A way back: the grid again.
  await sheet.getByRole('button', { name: 'Fermer le détail' }).tap()
  await expect(sheet).toBeHidden()

  // A product's name opens its detail too, on the day selected for it.
  await grid.getByRole('button', { name: 'Poireau (kg)' }).tap()
  await expect(sheet.getByText('Poireau (kg)')).toBeInViewport()
  await expect(detail.getByRole('heading')).toBeInViewport({ ratio: 1 })
  await keep(page, info, 'supply-product-sheet')
  await page.keyboard.press('Escape')
  await expect(sheet).toBeHidden()

  // Scrolled sideways, the grid keeps its products in place.
  const days = grid.getByRole('columnheader')
  await stickyWhenScrolled(
    page,
    info,
    'supply',
    grid,
    grid.locator('tr[data-product="tomate"] td').first(),
    days.nth(5),
  )
})

test('on a phone, the shop and the farmer tap a delivery and work on it in the sheet', async ({
  page,
  browser,
  baseURL,
}, info) => {
  test.setTimeout(90_000)
  const [next] = month(1)
  const shop = await register(page.context(), 'tel-recep', true)
  const problems: string[] = []
  const farmPhone = await otherPhone(browser, baseURL, problems)
  const farm = await register(farmPhone.context, 'tel-livrer', false)
  seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', next])

  // The shop: the delivery's note and its form in the sheet.
  await page.goto('/dis/deliveries')
  await page.getByRole('tab', { name: 'À venir', exact: true }).tap()
  const table = page.getByRole('table', { name: 'Livraisons' })
  const row = table.getByRole('row').nth(1)
  await row.tap()
  const sheet = page.getByRole('dialog', { name: 'Détail de la livraison' })
  const note = sheet.getByRole('region', { name: 'Bon de livraison' })
  await expect(note.getByRole('heading', { name: 'Bon de livraison' })).toBeInViewport({ ratio: 1 })
  await keep(page, info, 'shop-delivery-sheet')
  const tomatoes = note.getByLabel('Quantité livrée — Tomate (kg)')
  await tomatoes.scrollIntoViewIfNeeded()
  await expect(tomatoes).toBeInViewport({ ratio: 1 })
  await tomatoes.fill('1')
  await note.getByRole('button', { name: 'Enregistrer' }).tap()
  await expect(page.getByText('Modification effectuée').first()).toBeVisible()
  // The cancellation asks first, over the sheet; keeping the delivery goes back to it.
  await note.getByRole('button', { name: 'Annuler la livraison' }).tap()
  const confirm = page.getByRole('dialog', { name: 'Annuler cette livraison ?' })
  await expect(confirm.getByRole('button', { name: 'Garder la livraison' })).toBeInViewport({ ratio: 1 })
  await expect(confirm).toHaveCSS('opacity', '1') // its fade-in over, for the screenshot
  await keep(page, info, 'shop-delivery-cancel')
  await confirm.getByRole('button', { name: 'Garder la livraison' }).tap()
  await expect(confirm).toBeHidden()
  await expect(sheet).toBeVisible()
  // A way back: the table, the focus on the row.
  await sheet.getByRole('button', { name: 'Fermer le détail' }).tap()
  await expect(sheet).toBeHidden()
  await expect(row).toBeFocused()
  await expect(row).toHaveAttribute('aria-selected', 'true')
  await stickyWhenScrolled(
    page,
    info,
    'shop-deliveries',
    table,
    row.getByRole('cell').first(),
    table.getByRole('columnheader').nth(3),
  )

  // The farmer: the same delivery's note in its sheet.
  const farmPage = farmPhone.page
  await farmPage.goto('/prod/deliveries')
  await farmPage.getByRole('tab', { name: 'À venir', exact: true }).tap()
  await farmPage.getByRole('table', { name: 'Livraisons' }).getByRole('row').nth(1).tap()
  const farmSheet = farmPage.getByRole('dialog', { name: 'Détail de la livraison' })
  const farmNote = farmSheet.getByRole('region', { name: 'Bon de livraison' })
  await expect(farmNote.getByRole('heading', { name: 'Bon de livraison' })).toBeInViewport({ ratio: 1 })
  await expect(farmNote.getByText(`Magasin : ${shop.name}`)).toBeInViewport()
  await keep(farmPage, info, 'farm-delivery-sheet')
  await farmPage.keyboard.press('Escape')
  await expect(farmSheet).toBeHidden()
  await farmPhone.context.close()
  expect(problems, 'errors in the farmer’s page').toEqual([])
})

test('on a phone, the progression table keeps its products in place when it scrolls sideways', async ({
  page,
  browser,
  baseURL,
}, info) => {
  const shop = await register(page.context(), 'tel-progression', true)
  const problems: string[] = []
  const farmPhone = await otherPhone(browser, baseURL, problems)
  const farm = await register(farmPhone.context, 'tel-progression-ferme', false)
  seed('progression', ['--shop', shop.email, '--producer', farm.email])

  for (const [p, name, who] of [
    [page, 'Progression de vos achats', 'shop'],
    [farmPhone.page, 'Progression de vos ventes', 'farm'],
  ] as const) {
    await p.goto('/')
    const section = p.getByRole('region', { name })
    const table = section.getByTestId('progression-table')
    const tomato = table.getByRole('rowheader', { name: 'Tomate' })
    await expect(tomato).toBeVisible()
    await stickyWhenScrolled(p, info, `${who}-progression`, table, tomato, table.getByRole('columnheader').nth(5))
  }
  await farmPhone.context.close()
  expect(problems, 'errors in the farmer’s page').toEqual([])
})

/** Whether two boxes of the page overlap. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

test('on a phone, a toast leaves the open dialog’s title and close button in view', async ({ page }, info) => {
  await register(page.context(), 'tel-toast', true)
  await page.goto('/dis/needs')
  await page.getByRole('button', { name: 'Import Excel' }).tap()
  const dialog = page.getByRole('dialog', { name: 'Importer un fichier Excel' })
  const form = dialog.getByRole('form', { name: "Import d'un fichier Excel" })
  // A file that is no workbook: the daemon refuses it, and a toast says so while the dialog stays open.
  await form.locator('input[type="file"]').setInputFiles({
    name: 'besoins.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from('Produit;2027-01\nTomate;12\n'),
  })
  await form.getByRole('button', { name: 'Importer' }).tap()
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: "Échec de l'importation" })
  await expect(toast).toBeVisible()
  // Hovered, the toast holds (Mantine pauses its closing) and has finished coming in.
  await toast.hover()
  await expect(toast).toBeInViewport({ ratio: 1 })
  await expect(dialog).toHaveCSS('opacity', '1')
  await keep(page, info, 'toast-over-dialog')

  const title = dialog.getByRole('heading', { name: 'Importer un fichier Excel' })
  const close = dialog.getByRole('button', { name: 'Fermer', exact: true })
  const toastBox = (await toast.boundingBox())!
  // Nor the bottom navigation, under the dialog now, over which the toasts of a screen stand.
  const nav = page.locator('nav[aria-label="Navigation principale"]')
  for (const [name, part] of [
    ['title', title],
    ['close button', close],
    ['bottom navigation', nav],
  ] as const) {
    await expect(part).toBeInViewport({ ratio: 1 })
    const box = (await part.boundingBox())!
    expect(
      overlap(toastBox, box),
      `the toast (${JSON.stringify(toastBox)}) covers the ${name} (${JSON.stringify(box)})`,
    ).toBe(false)
  }
  // Still said at once (an alert, in the toasts' polite live region).
  await expect(page.getByRole('alert').filter({ hasText: "Échec de l'importation" })).toHaveCount(1)
  // The close button takes the tap, the toast still shown.
  await close.tap()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('button', { name: 'Import Excel' })).toBeFocused()
})
