// The whole journey on a fresh database, as its users live it (issue 9): a
// shop registers, fills its profile and plans its needs (a bulk add, the
// keyboard in the grid, the example Excel file, the standard import); a
// producer registers, sets its delivery days, finds the shop on the map and
// proposes; the shop counter-proposes, the producer accepts (the answer
// brings the order, its deliveries and the event: the producer's page loads
// the user no more until it reloads); the deliveries come, the producer claims, the shop accepts the claim; the month ends and
// the invoice is issued with the claim's credit note; both download the documents; the shop reads its
// stock grid, and both their activity feeds.
//
// Real parts only: its own `primeur serve` on its own SQLite data directory
// (not the daemon of the global setup, which the other specs share), the
// real UI in Chromium, and time moved forward with `primeur jobs run … --at`
// on that data directory. The API is only read, for assertions.
import {
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type Request,
  type TestInfo,
  test,
} from '@playwright/test'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  confirmationLink,
  expect,
  needCell,
  readOnlyCell,
  registerThroughForm,
  uniqueAccount,
  watchProblems,
} from './fixtures'
import { freePort, stop, waitHealthy } from './global-setup'
import { everyScreen } from './reads'

// The pinned instant: Tuesday 15 June 2027, 09:00 in Paris.
// - Mid-month: the producer delivers on Tuesdays and Thursdays, so a
//   commitment taken this morning on June's need is delivered from tomorrow
//   on, on Thursday 17, Tuesday 22, Thursday 24 and Tuesday 29 June: the
//   whole negotiation, the deliveries, the claim (allowed during the
//   delivery's month) and its review fit in June, and the invoice of June's
//   order comes on Thursday 1 July at 06:00.
// - 09:00: three hours before the 12:00 lock of a delivery day, and far from
//   midnight, so neither the daemon's nor the browser's day changes during a
//   run.
// - The first delivery (Thursday 17) falls in the supply screen's window,
//   which starts on the Monday of the current week (14 June) and shows 5 days.
// - June has no daylight-saving change (CEST all month), and the year does
//   not roll over before the invoice: its number is FA-2027-000001.
// - The imports cover the twelve months after June (July 2027 – June 2028);
//   the need the producer answers is June's, typed in the grid.
const PINNED = '2027-06-15T09:00:00+02:00'
const FIRST_DELIVERY = '2027-06-17'
const DELIVERY_DAYS = ['2027-06-17', '2027-06-22', '2027-06-24', '2027-06-29']
const NEXT_MONTH_FIRST = '2027-07-01'

const JUNE = 'juin 2027'
const JULY = 'juillet 2027'
const AUGUST = 'août 2027'
const SEPTEMBER = 'septembre 2027'

const here = dirname(fileURLToPath(import.meta.url))
const bin = resolve(process.env.PRIMEUR_BIN ?? join(here, '..', '..', 'bin', 'primeur'))

let daemon: ChildProcess | undefined
let dataDir = ''
let baseURL = ''
/** Real time when the daemon started at PINNED: its clock runs forward from there. */
let startedAt = 0

test.beforeAll(async () => {
  test.setTimeout(60_000)
  if (!existsSync(bin))
    throw new Error(`${bin} not found: run "make build" at the repository root first (or set PRIMEUR_BIN)`)
  const port = await freePort()
  dataDir = mkdtempSync(join(tmpdir(), 'primeur-journey-'))
  baseURL = `http://127.0.0.1:${port}`
  startedAt = Date.now()
  daemon = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, '--now', PINNED], {
    env: { ...process.env, PRIMEUR_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await waitHealthy(baseURL, daemon)
})

test.afterAll(async () => {
  if (daemon) await stop(daemon)
  if (dataDir && !process.env.PRIMEUR_E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true })
})

/** The daemon's current time: PINNED plus the real time elapsed since it started. */
function daemonNow(): number {
  return Date.parse(PINNED) + (Date.now() - startedAt)
}

/** Runs a job of the daemon on the journey's data directory as if it were `at` (Paris time). */
function runJob(name: string, at: string): string {
  return execFileSync(bin, ['jobs', 'run', name, '--at', at, '--force', '--data-dir', dataDir, '--log-level', 'warn'], {
    encoding: 'utf8',
  })
}

/**
 * A browser of one user: its own context on the journey's daemon, French,
 * in Paris, its clock installed at the daemon's current time (it then runs
 * forward in real time, timers included), and the page guard.
 */
async function openBrowser(browser: Browser, problems: string[]): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1400, height: 1000 },
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
  })
  await context.clock.install({ time: daemonNow() })
  const page = await context.newPage()
  watchProblems(page, problems)
  return { context, page }
}

/** The toasts on screen (Mantine notifications). */
const toasts = (page: Page) => page.locator('.mantine-Notification-root')
/** A toast by its title. */
const toast = (page: Page, title: string) => toasts(page).getByText(title, { exact: true }).first()

/**
 * Waits until every toast has closed by itself (PRODUCT: after 4 seconds). This
 * also proves that the installed browser clock runs Mantine's timers.
 */
async function toastsClosed(page: Page) {
  // A toast under the pointer stays open: move it out of the way (the header's corner).
  await page.mouse.move(0, 0)
  await expect(toasts(page)).toHaveCount(0, { timeout: 20_000 })
}

/**
 * Numbered screenshots of what the user sees, once the toasts have closed
 * (they would cover the right-hand panes): kept in the test's output
 * directory (test-results/, git-ignored) and attached to the report.
 */
function screenshots(info: TestInfo) {
  let n = 0
  return async (page: Page, name: string) => {
    await toastsClosed(page)
    n++
    const file = `${String(n).padStart(2, '0')}-${name}.png`
    const path = info.outputPath(file)
    await page.screenshot({ path })
    await info.attach(file, { path, contentType: 'image/png' })
  }
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Navigation principale' })
const cell = needCell
const pane = (page: Page) => page.getByRole('complementary', { name: 'Détail du besoin' })

/** Picks an option of a Mantine Select or MultiSelect found by its label. */
async function choose(page: Page, scope: Locator, label: string, option: string, search: string) {
  const input = scope.getByRole('combobox', { name: label, exact: true })
  await input.click()
  await input.fill(search)
  await page.getByRole('option', { name: option, exact: true }).click()
}

/** Selects a cell of the planner and waits for the right pane to show its product. */
async function openCell(page: Page, product: string, month: string) {
  await needCell(page, product, month).click()
  await expect(pane(page).getByRole('heading', { name: product })).toBeVisible()
  return pane(page)
}

/** "2027-06-17" → "17/06/2027", as the deliveries table shows dates. */
const shown = (day: string) => day.split('-').reverse().join('/')

/** Checks a document link: the daemon answers a PDF, and the browser downloads it. Returns the bytes. */
async function downloadPDF(
  page: Page,
  link: Locator,
  fileName: RegExp,
  info: TestInfo,
  keepAs: string,
): Promise<Buffer> {
  const href = await link.getAttribute('href')
  expect(href).toBeTruthy()
  const res = await page.request.get(href!)
  expect(res.status()).toBe(200)
  expect(res.headers()['content-type']).toBe('application/pdf')
  expect((await res.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-')
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
  expect(download.suggestedFilename()).toMatch(fileName)
  const path = info.outputPath(keepAs)
  await download.saveAs(path)
  const bytes = readFileSync(path)
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
  return bytes
}

/**
 * The text of a PDF through pdftotext (poppler-utils), or null when it is
 * not installed: as in the Go tests, those checks are then skipped, and the
 * report says so.
 */
function pdfText(path: string): string | null {
  try {
    return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    test.info().annotations.push({
      type: 'skipped check',
      description: 'pdftotext is not installed (apt-get install poppler-utils)',
    })
    return null
  }
}

interface Load {
  user: { _id: string; siret?: string; iban?: string; defaultDeliveryDays?: boolean[] }
  needs: { product: string; date: string; quantity: number; quantityAccepted: number }[]
  orders: {
    _id: string
    date: string
    producer?: string
    distributor?: string
    invoice?: { number: string }
    deliveries: { _id: string; status: string; date: string; chrono: number; claimStatus: string }[]
  }[]
}

test('the whole journey: plan, negotiate, deliver, claim, invoice, on a fresh database', async ({ browser }, info) => {
  // Some 150 requests, two browsers, five CLI runs and a dozen PDFs on a
  // two-core machine: a long test.
  test.setTimeout(600_000)
  const shot = screenshots(info)
  const problems: string[] = []
  const shop = uniqueAccount('epicerie')
  const farm = uniqueAccount('ferme')

  const { context: shopContext, page: shopPage } = await openBrowser(browser, problems)

  await test.step('the clocks: daemon and browser are on Tuesday 15 June 2027', async () => {
    await shopPage.goto('/landing/register')
    const browserDay = await shopPage.evaluate(() =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date()),
    )
    expect(browserDay).toBe('2027-06-15')
    // The browser's clock keeps running (Mantine's timers need it).
    const t0 = await shopPage.evaluate(() => Date.now())
    await expect.poll(() => shopPage.evaluate(() => Date.now())).toBeGreaterThan(t0)
  })

  let shopId = ''
  await test.step('the shop registers and fills its profile', async () => {
    await expect(shopPage.getByRole('radio', { name: 'Distributeur' })).toBeChecked()
    await registerThroughForm(shopPage, shop, 'Distributeur')
    await expect(shopPage.getByRole('button', { name: shop.email })).toBeVisible()
    // Its address is confirmed with the link it was emailed (documents go to confirmed addresses only).
    const banner = shopPage.getByRole('region', { name: 'Confirmez votre adresse email' })
    await expect(banner).toBeVisible()
    await shopPage.goto(await confirmationLink(shop.email, dataDir))
    await expect(shopPage.getByText('Votre adresse email est confirmée. Merci !')).toBeVisible()
    await shopPage.getByRole('link', { name: "Aller à l'accueil" }).click()
    await expect(shopPage.getByRole('button', { name: shop.email })).toBeVisible()
    await expect(banner).toHaveCount(0)
    await expect(nav(shopPage).getByRole('link')).toHaveText(['Accueil', 'Planifier', 'Réasso.', 'Récep.', 'Payer'])
    await shot(shopPage, 'shop-registered')

    await shopPage.getByRole('button', { name: shop.email }).click()
    const form = shopPage.getByRole('form', { name: 'Informations de profil' })
    await expect(form).toBeVisible()
    const save = form.getByRole('button', { name: 'Enregistrer' })
    await expect(save).toBeDisabled()
    await form.getByLabel('Téléphone').fill('04 50 12 34 56')
    await form.getByLabel('Adresse', { exact: true }).fill('12 rue Royale')
    await form.getByLabel('Code postal', { exact: true }).fill('74000')
    await form.getByRole('combobox', { name: 'Ville' }).fill('Annecy')
    await form.getByLabel('Latitude').fill('45.8992')
    await form.getByLabel('Longitude').fill('6.1294')
    // The accountant is a member of the team, not an address of the profile (issue 41).
    await expect(form.getByLabel('Email de la comptabilité')).toHaveCount(0)
    await form.getByLabel('Adresse de facturation', { exact: true }).fill('3 avenue de Genève')
    await form.getByLabel('Code postal et ville de facturation').fill('74000 Annecy')
    await form.getByLabel('Forme juridique').fill('SARL')
    await form.getByLabel('Capital social (€)').fill('15000')
    // A wrong SIRET is refused with the PRODUCT message, then corrected.
    const siret = form.getByLabel('SIRET')
    await siret.fill('7328293200007')
    await siret.blur()
    await expect(form.getByText('Veuillez saisir un code SIRET valide.')).toBeVisible()
    await expect(save).toBeDisabled()
    await siret.fill('732 829 320 00074')
    await expect(form.getByText('Veuillez saisir un code SIRET valide.')).toBeHidden()
    await form.getByLabel('Code APE').fill('4721Z')
    await form.getByLabel('IBAN').fill('FR76 3000 6000 0112 3456 7890 189')
    await form.getByLabel('BIC').fill('AGRIFRPP881')
    // Bank details need the current password (PRODUCT §13 "Changing the bank details").
    await expect(save).toBeDisabled()
    await form
      .getByRole('group', { name: 'Coordonnées bancaires' })
      .getByLabel('Mot de passe actuel')
      .fill(shop.password)
    await expect(save).toBeEnabled()
    await shot(shopPage, 'shop-profile-filled')
    await save.click()
    await expect(toasts(shopPage).filter({ hasText: 'Modification effectuée' })).toBeVisible()
    // Toasts close after 4 seconds: the browser's installed clock runs Mantine's timers.
    await toastsClosed(shopPage)

    const load: Load = await (await shopPage.request.get('/api/user')).json()
    shopId = load.user._id
    expect(load.user.siret).toBe('73282932000074')
    expect(load.user.iban).toBe('FR7630006000011234567890189')
    // The saved values come back after a reload.
    await shopPage.reload()
    await shopPage.getByRole('button', { name: shop.email }).click()
    await expect(form.getByLabel('Latitude')).toHaveValue('45.8992')
    await expect(form.getByLabel('BIC')).toHaveValue('AGRIFRPP881')
    await expect(form.getByLabel('Code postal et ville de facturation')).toHaveValue('74000 Annecy')
    // Invoices go to the team's owners and accountants; the owner is shown the way to invite theirs (issue 41).
    await expect(form.getByRole('link', { name: 'Inviter votre comptable' })).toBeVisible()
    await form.getByRole('button', { name: 'Fermer' }).first().click()
    await expect(form).toBeHidden()
  })

  await test.step('the shop plans: a bulk add, then the keyboard in the grid', async () => {
    await nav(shopPage).getByRole('link', { name: 'Planifier' }).click()
    await expect(shopPage).toHaveURL(/\/dis\/needs$/)
    await expect(shopPage.getByText('Macache')).toBeVisible()
    const monthHeaders = shopPage
      .getByRole('grid', { name: 'Besoins par produit et par mois' })
      .getByRole('columnheader')
      .filter({ hasNotText: 'Produit' })

    // A new shop's grid has no row to type in (rows are products with a need
    // in the period): the bulk add comes first. Courgettes for the summer,
    // three months at once.
    await shopPage.getByRole('button', { name: 'Ajout groupé' }).click()
    const bulk = shopPage.getByRole('form', { name: 'Ajout groupé de besoins' })
    await choose(shopPage, bulk, 'Produit', 'Courgette', 'courg')
    for (const month of [JULY, AUGUST, SEPTEMBER]) await choose(shopPage, bulk, 'Mois', month, month)
    await bulk.getByLabel(`Quantité pour ${JULY}`).fill('100')
    await bulk.getByLabel(`Quantité pour ${AUGUST}`).fill('110')
    await bulk.getByLabel(`Quantité pour ${SEPTEMBER}`).fill('90')
    await shot(shopPage, 'shop-bulk-add')
    await bulk.getByRole('button', { name: 'Ajouter' }).click()
    await expect(bulk).toBeHidden()
    await expect(monthHeaders.first()).toHaveText(JUNE)
    await expect(cell(shopPage, 'Courgette', JULY)).toHaveText('100')
    await expect(cell(shopPage, 'Courgette', SEPTEMBER)).toHaveText('90')
    await expect(shopPage.getByRole('tab', { name: /^TOUS/ })).toHaveText('TOUS (1)')
    await toastsClosed(shopPage)

    // This month's courgettes, typed like in a spreadsheet: a digit edits, an arrow commits and moves right.
    await cell(shopPage, 'Courgette', JUNE).click()
    await expect(pane(shopPage).getByText('Pas de besoins à cette date pour le produit sélectionné')).toBeVisible()
    await shopPage.keyboard.type('80')
    await shopPage.keyboard.press('ArrowRight')
    await expect(cell(shopPage, 'Courgette', JULY)).toBeFocused()
    await expect(toast(shopPage, 'Création effectuée')).toBeVisible()
    // Typing replaces the value.
    await shopPage.keyboard.type('105')
    await shopPage.keyboard.press('ArrowRight')
    await expect(cell(shopPage, 'Courgette', AUGUST)).toBeFocused()
    await expect(toast(shopPage, 'Modification effectuée')).toBeVisible()
    // The pane reads the need from the store, as the daemon answered it.
    const figures = await openCell(shopPage, 'Courgette', JUNE)
    await expect(figures.getByText('80 kg').first()).toBeVisible()
    await shot(shopPage, 'shop-keyboard')
    // Saved: a reload shows the same grid.
    await shopPage.reload()
    await expect(cell(shopPage, 'Courgette', JUNE)).toHaveText('80')
    await expect(cell(shopPage, 'Courgette', JULY)).toHaveText('105')
    await expect(cell(shopPage, 'Courgette', AUGUST)).toHaveText('110')
  })

  await test.step('the shop imports the example Excel file', async () => {
    await shopPage.getByRole('button', { name: 'Import Excel' }).click()
    const dialog = shopPage.getByRole('dialog', { name: 'Importer un fichier Excel' })
    const form = dialog.getByRole('form', { name: "Import d'un fichier Excel" })
    const downloading = shopPage.waitForEvent('download')
    await form.getByRole('link', { name: "Télécharger le fichier d'exemple" }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe('exemple_import.xlsx')
    const path = info.outputPath(download.suggestedFilename())
    await download.saveAs(path)
    // An .xlsx is a zip archive.
    expect(readFileSync(path).subarray(0, 2).toString('latin1')).toBe('PK')

    await form.locator('input[type="file"]').setInputFiles(path)
    await form.getByRole('button', { name: 'Importer' }).click()
    // What it would write first; the shop confirms.
    await dialog.getByLabel("Aperçu de l'import").getByRole('button', { name: "Confirmer l'import" }).click()
    const result = dialog.getByText(/^Import réussi de \d+ besoins$/)
    await expect(result).toBeVisible({ timeout: 30_000 })
    const imported = Number((await result.textContent())!.match(/\d+/)![0])
    await expect(toast(shopPage, 'Importation effectuée')).toBeVisible()
    await expect(dialog.getByRole('alert')).toHaveCount(0)
    await shot(shopPage, 'shop-excel-import')
    await dialog.getByRole('button', { name: 'Fermer' }).first().click()
    await expect(dialog).toBeHidden()

    // The example's year, from July: 90 000 € a year of potatoes and carrots,
    // flat (962 kg and 463 kg a month); June was not touched.
    await expect(cell(shopPage, 'Pomme de terre', JULY)).toHaveText('962')
    await expect(cell(shopPage, 'Carotte', AUGUST)).toHaveText('463')
    await expect(cell(shopPage, 'Carotte', JUNE)).toHaveText('')
    await expect(cell(shopPage, 'Courgette', JUNE)).toHaveText('80')
    // As many needs as announced, from July on, of the example's ten products
    // (the bulk add's courgettes are among them, overwritten).
    const load: Load = await everyScreen(shopPage.request)
    const fromJuly = load.needs.filter((n) => n.date >= NEXT_MONTH_FIRST)
    expect(fromJuly.length).toBe(imported)
    expect(new Set(fromJuly.map((n) => n.product)).size).toBe(10)
    expect(fromJuly.every((n) => n.date < '2028-07-01')).toBe(true)
  })

  await test.step('the shop simulates a standard import, then imports it', async () => {
    await shopPage.getByRole('button', { name: 'Import standard' }).click()
    const dialog = shopPage.getByRole('dialog', { name: 'Import standard' })
    const form = dialog.getByRole('form', { name: 'Import standard' })
    // From next month, for a year.
    await expect(form.getByRole('combobox', { name: 'Premier mois' })).toHaveValue(JULY)
    await expect(form.getByRole('combobox', { name: 'Dernier mois' })).toHaveValue('juin 2028')
    await form.getByLabel('CA fruits et légumes annuel').fill('120 000')
    await expect(form.getByLabel('Coefficient de correction')).toHaveValue('90')
    // 120 000 € × 90 % = 108 000 €.
    await expect(
      form.getByText(/CA fruits et légumes annuel retenu : 108\s000,00\s€, soit 9\s000,00\s€ par mois en moyenne/),
    ).toBeVisible()
    await form.getByRole('button', { name: 'Simuler' }).click()
    const preview = dialog.getByRole('table', { name: "Aperçu de l'import standard" })
    await expect(preview.getByRole('columnheader')).toHaveText(['Produit', JULY, AUGUST, SEPTEMBER])
    // Carrots are flat: 108 000 / 12 × 5.3 % / (0.66 € × 1.3) = 555.94 kg a month.
    await expect(preview.getByRole('row', { name: /^Carotte/ })).toHaveText(/Carotte(555,94\skg){3}/)
    await shot(shopPage, 'shop-standard-preview')

    await dialog.getByRole('button', { name: 'Importer' }).click()
    await expect(dialog.getByText(/^Import réussi de \d+ besoins$/)).toBeVisible({ timeout: 30_000 })
    await expect(toast(shopPage, 'Importation effectuée')).toBeVisible()
    await expect(preview).toBeHidden()
    await shot(shopPage, 'shop-standard-imported')
    await dialog.getByRole('button', { name: 'Fermer' }).first().click()
    await expect(dialog).toBeHidden()
    await expect(cell(shopPage, 'Carotte', JULY)).toHaveText('555,94')
    await expect(cell(shopPage, 'Courgette', JUNE)).toHaveText('80')
  })

  // The producer, in its own browser.
  const { context: farmContext, page: farmPage } = await openBrowser(browser, problems)

  let farmId = ''
  await test.step('a producer registers and sets its delivery days', async () => {
    await farmPage.goto('/landing/producer')
    await expect(farmPage.getByRole('radio', { name: 'Producteur' })).toBeChecked()
    await registerThroughForm(farmPage, farm, 'Producteur')
    await expect(nav(farmPage).getByRole('link')).toHaveText(['Vendre', 'Livrer', 'Encaisser'])
    await farmPage.goto(await confirmationLink(farm.email, dataDir))
    await expect(farmPage.getByText('Votre adresse email est confirmée. Merci !')).toBeVisible()
    await farmPage.getByRole('link', { name: "Aller à l'accueil" }).click()
    await expect(nav(farmPage).getByRole('link')).toHaveText(['Vendre', 'Livrer', 'Encaisser'])

    await farmPage.getByRole('button', { name: farm.email }).click()
    const form = farmPage.getByRole('form', { name: 'Informations de profil' })
    await expect(form.getByText('Vous devez choisir au moins un jour de livraison')).toBeVisible()
    await form.getByPlaceholder('Choisir au moins un jour...').click()
    await farmPage.getByRole('option', { name: 'Mardi' }).click()
    await farmPage.getByRole('option', { name: 'Jeudi' }).click()
    await farmPage.keyboard.press('Escape')
    await form.getByLabel('Code postal', { exact: true }).fill('74370')
    await form.getByRole('combobox', { name: 'Ville' }).fill('Argonay')
    await form.getByLabel('SIRET').fill('41234567000019')
    await expect(form.getByText('Vous devez choisir au moins un jour de livraison')).toBeHidden()
    await shot(farmPage, 'farm-delivery-days')
    await form.getByRole('button', { name: 'Enregistrer' }).click()
    // PRODUCT §4: the notice says upcoming deliveries follow the new days.
    const notice = toasts(farmPage).filter({ hasText: 'Modification effectuée' })
    await expect(notice).toContainText('Vos livraisons à venir ont été mises à jour selon vos choix.')
    const load: Load = await (await farmPage.request.get('/api/user')).json()
    farmId = load.user._id
    expect(load.user.defaultDeliveryDays).toEqual([false, true, false, true, false, false, false])
  })

  await test.step('the producer finds the shop on the map and opens its needs', async () => {
    await farmPage.reload()
    await expect(farmPage.getByRole('heading', { name: 'Planifier mes ventes' })).toBeVisible()
    const map = farmPage.getByTestId('shop-map')
    // (Annecy's own name gives way to the farm's, placed there from its postal code 74370.)
    await expect(map.getByText('Chambéry', { exact: true })).toBeVisible()
    const pin = farmPage.getByRole('link', { name: shop.name })
    await expect(pin).toBeVisible()
    await expect(pin).toHaveAttribute('data-shop-id', shopId)
    await shot(farmPage, 'farm-map')
    await pin.click()
    await expect(farmPage).toHaveURL(new RegExp(`/prod/needs/${shopId}$`))
    await expect(farmPage.getByRole('heading', { name: shop.name })).toBeVisible()
    await expect(readOnlyCell(farmPage, 'Courgette', JUNE)).toHaveText('80')
    await expect(readOnlyCell(farmPage, 'Courgette', JUNE)).toHaveAttribute('aria-readonly', 'true')
    // Sixty products: the producer looks for its courgettes.
    await farmPage.getByRole('searchbox', { name: 'Rechercher un produit' }).fill('courgette')
    await expect(readOnlyCell(farmPage, 'Tomate', JUNE)).toHaveCount(0)
    await expect(readOnlyCell(farmPage, 'Courgette', JUNE)).toBeVisible()
  })

  await test.step('the producer proposes on June courgettes', async () => {
    const p = await openCell(farmPage, 'Courgette', JUNE)
    const form = p.getByRole('form', { name: 'Proposer' })
    await form.getByLabel('Quantité (kg)').pressSequentially('60')
    await form.getByLabel('Prix unitaire HT (€/kg)').pressSequentially('2.40')
    await expect(form.getByLabel('Prix unitaire HT (€/kg)')).toHaveValue('2,40')
    await form.getByRole('button', { name: 'Proposer' }).click()
    await expect(toast(farmPage, 'Création effectuée')).toBeVisible()
    const card = p.getByRole('article', { name: 'Proposition' })
    await expect(card).toHaveAttribute('data-status', 'proposed')
    await expect(card).toContainText('60 kg à 2,40 €/kg')
    await expect(card.getByRole('button')).toHaveText(['Modifier', 'Supprimer'])
    await expect(p.getByRole('article', { name: 'Autres producteurs' })).toContainText(
      'Besoin restant non couvert : 20 kg',
    )
    await shot(farmPage, 'farm-proposal')
  })

  await test.step('the shop sees the proposal and counter-proposes', async () => {
    await shopPage.reload()
    await expect(shopPage.getByRole('tab', { name: /^À VALIDER/ })).toHaveText('À VALIDER (1)')
    await shopPage.getByRole('tab', { name: /^À VALIDER/ }).click()
    await expect(cell(shopPage, 'Tomate', JUNE)).toHaveCount(0)
    const p = await openCell(shopPage, 'Courgette', JUNE)
    const proposal = p.getByRole('article', { name: `Proposition de ${farm.name}` })
    await expect(proposal).toContainText('60 kg à 2,40 €/kg')
    await expect(proposal.getByRole('button')).toHaveText(['Accepter', 'Modifier', 'Refuser'])
    await shot(shopPage, 'shop-sees-proposal')
    await proposal.getByRole('button', { name: 'Modifier' }).click()
    const counter = p.getByRole('form', { name: 'Contre-proposer' })
    await expect(counter.getByLabel('Prix unitaire HT (€/kg)')).toHaveValue('2,4')
    await counter.getByLabel('Prix unitaire HT (€/kg)').fill('2,2')
    await counter.getByRole('button', { name: 'Envoyer' }).click()
    await expect(toast(shopPage, 'Modification effectuée')).toBeVisible()
    // A counter-proposal, named so, with what it answers (issue 37).
    const countered = p.getByRole('article', { name: `Contre-proposition de ${farm.name}` })
    await expect(countered).toHaveAttribute('data-own', 'true')
    await expect(countered).toContainText('60 kg à 2,20 €/kg')
    await expect(countered).toContainText('Au lieu de 60 kg à 2,40 €/kg proposés par le producteur')
    await expect(countered.getByRole('button')).toHaveText(['Modifier', 'Supprimer'])
    await shot(shopPage, 'shop-counter-proposal')
  })

  // The API calls of the producer's page from its acceptance on, until it
  // reloads: the acceptance, and no user load — its answer carries the
  // order, its deliveries and the event (issue 14).
  const farmCalls: string[] = []
  const recordCall = (request: Request) => {
    const path = new URL(request.url()).pathname
    if (path.startsWith('/api/')) farmCalls.push(`${request.method()} ${path}`)
  }
  await test.step('the producer accepts; both see the commitment', async () => {
    await farmPage.reload()
    await expect(farmPage.getByRole('tab', { name: /^À VALIDER/ })).toHaveText('À VALIDER (1)')
    await farmPage.getByRole('tab', { name: /^À VALIDER/ }).click()
    const p = await openCell(farmPage, 'Courgette', JUNE)
    const card = p.getByRole('article', { name: 'Contre-proposition' })
    await expect(card).toContainText('60 kg à 2,20 €/kg')
    await expect(card).toContainText('par le magasin')
    farmPage.on('request', recordCall)
    await card.getByRole('button', { name: 'Accepter' }).click()
    await expect(toast(farmPage, 'Votre réponse a été correctement enregistrée')).toBeVisible()
    const commitment = p.getByRole('article', { name: 'Engagement' })
    await expect(commitment).toHaveAttribute('data-status', 'accepted')
    await expect(commitment).toContainText('60 kg à 2,20 €/kg')
    await expect(commitment.getByRole('button')).toHaveText(['Corriger'])
    // Nothing left to answer; the need is now among the commitments.
    await expect(farmPage.getByRole('tab', { name: /^À VALIDER/ })).toHaveText('À VALIDER (0)')
    await farmPage.getByRole('tab', { name: /^ENGAGÉS/ }).click()
    await expect(farmPage.getByRole('tab', { name: /^ENGAGÉS/ })).toHaveText('ENGAGÉS (1)')
    await expect(readOnlyCell(farmPage, 'Courgette', JUNE)).toHaveText('80')
    await shot(farmPage, 'farm-commitment')

    await shopPage.reload()
    await expect(shopPage.getByRole('tab', { name: /^ENGAGÉS/ })).toHaveText('ENGAGÉS (1)')
    await expect(shopPage.getByRole('tab', { name: /^À VALIDER/ })).toHaveText('À VALIDER (0)')
    await shopPage.getByRole('tab', { name: /^ENGAGÉS/ }).click()
    const shopPane = await openCell(shopPage, 'Courgette', JUNE)
    await expect(shopPane.getByRole('article', { name: `Engagement de ${farm.name}` })).toContainText(
      '60 kg à 2,20 €/kg',
    )
    await shot(shopPage, 'shop-commitment')
  })

  let orderId = ''
  await test.step('the deliveries are planned: Récep. for the shop, Livrer for the producer', async () => {
    await nav(shopPage).getByRole('link', { name: 'Récep.' }).click()
    await expect(shopPage.getByRole('heading', { name: 'Livraisons passées et futures' })).toBeVisible()
    const table = shopPage.getByRole('table', { name: 'Livraisons' })
    await expect(table.getByRole('columnheader').first()).toContainText('Producteur')
    // Tuesdays and Thursdays from tomorrow to the end of June, 15 kg each.
    for (const [i, day] of DELIVERY_DAYS.entries()) {
      await expect(table.getByRole('row', { name: `${farm.name} ${i + 1} Prévue ${shown(day)}` })).toBeVisible()
    }
    await expect(table.getByRole('row')).toHaveCount(1 + DELIVERY_DAYS.length)
    await table.getByRole('row', { name: new RegExp(`1 Prévue ${shown(FIRST_DELIVERY)}`) }).click()
    const editor = shopPage.getByRole('region', { name: 'Bon de livraison' })
    await expect(editor.getByRole('row', { name: 'Courgette 15 kg 15 kg' })).toBeVisible()
    await shot(shopPage, 'shop-deliveries-planned')

    await nav(farmPage).getByRole('link', { name: 'Livrer' }).click()
    const farmTable = farmPage.getByRole('table', { name: 'Livraisons' })
    await expect(farmTable.getByRole('columnheader').first()).toContainText('Magasin')
    for (const [i, day] of DELIVERY_DAYS.entries()) {
      await expect(farmTable.getByRole('row', { name: `${shop.name} ${i + 1} Prévue ${shown(day)}` })).toBeVisible()
    }
    await shot(farmPage, 'farm-deliveries-planned')
    // The acceptance's event is in the producer's feed as well, and no
    // user load followed the acceptance: its answer was enough.
    await nav(farmPage).getByRole('button', { name: 'Activités' }).click()
    const feed = farmPage.getByRole('dialog', { name: 'Activités' })
    await expect(
      feed.getByText(`Vous avez accepté la proposition d'${shop.name} : 60 kg de Courgette pour ${JUNE}.`),
    ).toBeVisible()
    await farmPage.keyboard.press('Escape')
    await expect(feed).toBeHidden()
    farmPage.off('request', recordCall)
    expect(
      farmCalls.filter((c) => c.startsWith('PUT /api/proposalreview/')),
      'the acceptance',
    ).toHaveLength(1)
    expect(
      farmCalls.filter((c) => c.endsWith(' /api/user')),
      'user loads after the acceptance',
    ).toEqual([])

    const load: Load = await everyScreen(shopPage.request)
    expect(load.orders).toHaveLength(1)
    orderId = load.orders[0]._id
    expect(load.orders[0].producer).toBe(farmId)
    expect(load.orders[0].date.slice(0, 10)).toBe('2027-06-01')
    expect(load.orders[0].deliveries.map((d) => d.date).sort()).toEqual(DELIVERY_DAYS)
  })

  await test.step('Thursday 17 June, 12:30: the first delivery locks; the producer claims, the shop accepts', async () => {
    expect(runJob('deliveries', `${FIRST_DELIVERY}T12:30`)).toMatch(
      /^deliveries \(2027-06-17 12:30 CEST\) : livraisons verrouillées : 1, bons de livraison envoyés : 1, factures envoyées : 0\n$/,
    )

    await farmPage.reload()
    await farmPage.getByRole('tab', { name: 'Passées', exact: true }).click()
    const farmTable = farmPage.getByRole('table', { name: 'Livraisons' })
    await farmTable.getByRole('row', { name: `${shop.name} 1 Livrée ${shown(FIRST_DELIVERY)}` }).click()
    const claim = farmPage.getByRole('form', { name: "Demande d'avoir" })
    await expect(
      claim.getByText('Le magasin sera facturé de la quantité livrée augmentée de la quantité réclamée'),
    ).toBeVisible()
    await claim.getByLabel('Quantité réclamée — Courgette (kg)').fill('-2')
    await claim.getByRole('radiogroup', { name: 'Type — Courgette' }).getByRole('radio', { name: 'Qualité' }).check()
    await claim.getByLabel('Commentaire — Courgette').fill('Deux kilos abîmés par la grêle')
    await shot(farmPage, 'farm-claim')
    await claim.getByRole('button', { name: "Envoyer la demande d'avoir" }).click()
    await expect(toast(farmPage, "Demande d'avoir envoyée")).toBeVisible()
    const farmEditor = farmPage.getByRole('region', { name: 'Bon de livraison' })
    await expect(farmEditor.getByText("Demande d'avoir envoyée, en attente de réponse")).toBeVisible()

    await shopPage.reload()
    await shopPage.getByRole('tab', { name: 'Passées', exact: true }).click()
    const table = shopPage.getByRole('table', { name: 'Livraisons' })
    // The claim to answer is flagged in the shop's table (issue 37).
    await table.getByRole('row', { name: `${farm.name} 1 Livrée Avoir à traiter ${shown(FIRST_DELIVERY)}` }).click()
    const editor = shopPage.getByRole('region', { name: 'Bon de livraison' })
    await expect(editor.getByText("Demande d'avoir reçue, en attente de réponse")).toBeVisible()
    await expect(editor.getByText('Courgette : -2 kg (Qualité) — Deux kilos abîmés par la grêle')).toBeVisible()
    await shot(shopPage, 'shop-claim-received')
    await editor.getByRole('button', { name: "Accepter l'avoir" }).click()
    await expect(toast(shopPage, 'Votre réponse a été correctement enregistrée')).toBeVisible()
    await expect(editor.getByText("Demande d'avoir reçue, acceptée")).toBeVisible()
    await shot(shopPage, 'shop-claim-accepted')
  })

  await test.step('1 July: the other deliveries lock, the invoice is issued; both download the documents', async () => {
    expect(runJob('deliveries', `${NEXT_MONTH_FIRST}T05:00`)).toMatch(
      /^deliveries \(2027-07-01 05:00 CEST\) : livraisons verrouillées : 3, bons de livraison envoyés : 3, factures envoyées : 0\n$/,
    )
    expect(runJob('invoices', `${NEXT_MONTH_FIRST}T06:00`)).toMatch(
      /^invoices \(2027-07-01 06:00 CEST\) : factures émises : 1, factures envoyées : 1, avoirs et factures complémentaires émis : 0, avoirs et factures complémentaires envoyés : 1\ndocuments émis :\n {2}facture FA-2027-000001 : ferme \S+ → epicerie \S+, 132,00\u00a0€ TTC\n$/,
    )
    const load: Load = await everyScreen(shopPage.request)
    expect(load.orders[0].invoice?.number).toBe('FA-2027-000001')
    expect(load.orders[0].deliveries.every((d) => d.status === 'done')).toBe(true)

    for (const [who, page, partner] of [
      ['shop', shopPage, farm.name],
      ['farm', farmPage, shop.name],
    ] as const) {
      await page.reload()
      await page.getByRole('tab', { name: 'Passées', exact: true }).click()
      const table = page.getByRole('table', { name: 'Livraisons' })
      await expect(table.getByRole('row').filter({ hasText: 'Livrée' })).toHaveCount(4)
      await table.getByRole('row', { name: `${partner} 1 Livrée ${shown(FIRST_DELIVERY)}` }).click()
      const region = page.getByRole('region', { name: 'Bon de livraison' })
      // Invoiced: no more claim form nor review.
      await expect(region.getByRole('form', { name: "Demande d'avoir" })).toHaveCount(0)
      await expect(region.getByRole('button', { name: "Accepter l'avoir" })).toHaveCount(0)
      await shot(page, `${who}-documents`)
      await expect(region.getByRole('link', { name: 'Télécharger la facture FA-2027-000001' })).toHaveAttribute(
        'href',
        `/print/invoice/${orderId}`,
      )
      const note = await downloadPDF(
        page,
        region.getByRole('link', { name: 'Télécharger le bon de livraison' }),
        /^BL-000001\.pdf$/,
        info,
        `${who}-BL-000001.pdf`,
      )
      const invoice = await downloadPDF(
        page,
        region.getByRole('link', { name: 'Télécharger la facture FA-2027-000001' }),
        /^FA-2027-000001\.pdf$/,
        info,
        `${who}-FA-2027-000001.pdf`,
      )
      // The accepted claim is settled by a credit note beside the invoice.
      const credit = await downloadPDF(
        page,
        region.getByRole('link', { name: "Télécharger l'avoir AV-2027-000001" }),
        /^AV-2027-000001\.pdf$/,
        info,
        `${who}-AV-2027-000001.pdf`,
      )
      expect(note.length).toBeGreaterThan(1000)
      expect(invoice.length).toBeGreaterThan(1000)
      expect(credit.length).toBeGreaterThan(1000)
    }

    const text = pdfText(info.outputPath('shop-FA-2027-000001.pdf'))
    if (text !== null) {
      writeFileSync(info.outputPath('FA-2027-000001.txt'), text)
      expect(text).toContain('FA-2027-000001')
      expect(text).toContain(shop.name)
      expect(text).toContain(farm.name)
      // Both parties with their legal details from the profiles.
      expect(text).toContain('SIRET : 73282932000074')
      expect(text).toContain('SIRET : 41234567000019')
      expect(text).toContain('Code APE : 4721Z')
      expect(text).toContain('3 avenue de Genève')
      expect(text).toContain('Période facturée : juin 2027')
      // 60 kg delivered, billed as sent: 4 × 15 kg at 2,20 € = 132,00 € HT; the 2 kg claimed on the
      // first delivery are credited by the credit note.
      expect(text).toMatch(/BL-000001\s+17\/06\s+Courgette\s+15,00\s+kg\s+2,20\s€\s+(5,5\s%|—)\s+33,00\s€/)
      expect(text).toMatch(/Total HT\s+132,00\s€/)
    }
    const creditText = pdfText(info.outputPath('shop-AV-2027-000001.pdf'))
    if (creditText !== null) {
      expect(creditText).toContain('Facture corrigée : FA-2027-000001')
      expect(creditText).toMatch(/BL-000001\s+17\/06\s+Courgette\s+2,00\s+kg\s+2,20\s€\s+(5,5\s%|—)\s+4,40\s€/)
    }
    const noteText = pdfText(info.outputPath('farm-BL-000001.pdf'))
    if (noteText !== null) {
      expect(noteText).toContain('BL-000001')
      expect(noteText).toContain(shop.name)
      expect(noteText).toContain(farm.name)
    }
  })

  await test.step("the shop reads its stock grid: Thursday's delivery from the producer", async () => {
    await nav(shopPage).getByRole('link', { name: 'Réasso.' }).click()
    await expect(shopPage).toHaveURL(/\/dis\/supply$/)
    await expect(
      shopPage.getByRole('heading', { name: "Évolution des stocks et conseils d'approvisionnement" }),
    ).toBeVisible()
    // 1400 px wide: a high-density screen, 8 days (supply/window.ts).
    await expect(shopPage.getByTestId('supply-period')).toHaveText(/^Du lundi 14 juin 2027 au lundi 21 juin 2027/)
    const grid = shopPage.getByRole('table', { name: 'Grille des stocks' })
    // June's only need is the courgettes': one product line.
    await expect(grid.getByRole('row')).toHaveCount(2)
    await expect(grid.getByRole('row').nth(1)).toContainText('Courgette')
    const thursday = grid.getByRole('button', { name: /^Courgette, jeudi 17 juin 2027 : / })
    await expect(thursday).toHaveText('+15')
    await expect(thursday).toHaveAttribute('data-risk', '0')
    await thursday.click()
    const detail = shopPage.getByRole('region', { name: 'Détail de la case sélectionnée' })
    await expect(detail.getByRole('heading', { name: 'jeudi 17 juin 2027' })).toBeVisible()
    await expect(detail.getByTestId('deliveries')).toHaveText(/Livraisons du jour\s*15 kg/)
    await expect(detail.getByRole('row', { name: `${farm.name} 15 kg` })).toBeVisible()
    // 80 kg over June's 26 days without Sunday.
    await expect(detail.getByTestId('need')).toHaveText(/Besoin du jour\s*3,08 kg/)
    await shot(shopPage, 'shop-supply')
  })

  await test.step('the shop reads its activity feed, worded for it', async () => {
    await shopPage.reload()
    await nav(shopPage).getByRole('button', { name: 'Activités' }).click()
    const dialog = shopPage.getByRole('dialog', { name: 'Activités' })
    // One day of events, headed as French writes it (innerText: as rendered, CSS included).
    const day = dialog.getByRole('heading', { name: /15 juin 2027/ })
    await expect(day).toHaveText('Mardi 15 juin 2027', { useInnerText: true })
    const entries = dialog.getByTestId('activity-entry')
    await expect(dialog.getByText(`${farm.name} vous a proposé 60 kg de Courgette pour ${JUNE}.`)).toBeVisible()
    await expect(dialog.getByText(`Vous avez proposé 60 kg de Courgette pour ${JUNE} à ${farm.name}.`)).toBeVisible()
    await expect(
      dialog.getByText(`${farm.name} a accepté votre proposition : 60 kg de Courgette pour ${JUNE}.`),
    ).toBeVisible()
    await expect(
      dialog.getByText(new RegExp(`^${farm.name} vous a envoyé une demande d'avoir pour la livraison du 17 juin 2027`)),
    ).toBeVisible()
    await expect(
      dialog.getByText(`Vous avez accepté la demande d'avoir de ${farm.name} pour la livraison du 17 juin 2027.`),
    ).toBeVisible()
    await expect(dialog.getByText(`Vous avez créé un besoin de 80 kg de Courgette pour ${JUNE}.`)).toBeVisible()
    await expect(
      dialog.getByText(/^Vous avez ajouté 3 besoins de Courgette de juillet 2027 à septembre 2027/),
    ).toBeVisible()
    await expect(dialog.getByText(/^Vous avez importé \d+ besoins/).first()).toBeVisible()
    // The shop's own actions are emitted by "vous", the producer's by its name.
    await expect(
      entries.filter({ hasText: 'Vous avez accepté la demande' }).getByText('vous', { exact: true }),
    ).toBeVisible()
    await expect(
      entries.filter({ hasText: `${farm.name} vous a proposé` }).getByText(farm.name, { exact: true }),
    ).toBeVisible()
    await shot(shopPage, 'shop-activities')
    await shopPage.keyboard.press('Escape')
  })

  await test.step("the producer's feed is worded for it", async () => {
    await farmPage.reload()
    await nav(farmPage).getByRole('button', { name: 'Activités' }).click()
    const dialog = farmPage.getByRole('dialog', { name: 'Activités' })
    await expect(dialog.getByText(`Vous avez proposé 60 kg de Courgette pour ${JUNE} à ${shop.name}.`)).toBeVisible()
    await expect(dialog.getByText(`${shop.name} vous a proposé 60 kg de Courgette pour ${JUNE}.`)).toBeVisible()
    // "epicerie …" starts with a vowel: "d'epicerie".
    await expect(
      dialog.getByText(`Vous avez accepté la proposition d'${shop.name} : 60 kg de Courgette pour ${JUNE}.`),
    ).toBeVisible()
    await expect(
      dialog.getByText(
        `Vous avez envoyé une demande d'avoir à ${shop.name} pour la livraison du 17 juin 2027 (Courgette : -2 kg).`,
      ),
    ).toBeVisible()
    await expect(
      dialog.getByText(`${shop.name} a accepté votre demande d'avoir pour la livraison du 17 juin 2027.`),
    ).toBeVisible()
    // The shop's planning is its own business: none of its needs or imports show here.
    await expect(dialog.getByText(/besoin/)).toHaveCount(0)
    await shot(farmPage, 'farm-activities')
    await farmPage.keyboard.press('Escape')
  })

  expect(problems, 'errors in the pages').toEqual([])
  await shopContext.close()
  await farmContext.close()
})
