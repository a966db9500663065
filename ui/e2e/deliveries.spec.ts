// Deliveries in real browsers against the real daemon (PRODUCT §2 "Deliveries
// page"): the shop edits and cancels planned deliveries, the producer claims
// on a done one, the shop answers, and both download the delivery note and
// the invoice. The order is made by tools/e2eseed's orders scene (fixtures'
// seed) on the daemon's database through core/trade's operations (the producer delivers every day, proposes, the shop accepts);
// time moves forward with the same jobs the daemon schedules, run as
// `primeur jobs run … --at` on the daemon's database.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext, Page } from '@playwright/test'
import { confirmEmail, dataDir, expect, seed, test, uniqueAccount } from './fixtures'
import { everyScreen } from './reads'

/** The first day of the month `offset` months from now in Paris, "2026-12-01". */
function monthStart(offset: number): string {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  return new Date(Date.UTC(year, m - 1 + offset, 1)).toISOString().slice(0, 10)
}

/** "2026-12-03" → "03/12/2026", as the table shows dates. */
const shown = (day: string) => day.split('-').reverse().join('/')

const here = dirname(fileURLToPath(import.meta.url))
const bin = resolve(process.env.PRIMEUR_BIN ?? join(here, '..', '..', 'bin', 'primeur'))

/** Runs a job on the daemon's database as if it were `at` (Paris time). */
function runJob(name: string, at: string) {
  return execFileSync(
    bin,
    ['jobs', 'run', name, '--at', at, '--force', '--data-dir', dataDir(), '--log-level', 'warn'],
    {
      encoding: 'utf8',
    },
  )
}

interface Load {
  user: { _id: string }
  orders: {
    _id: string
    deliveries: { _id: string; status: string; date: string; chrono: number }[]
    invoice?: { number: string }
  }[]
}

/**
 * Registers through the API in a browser context, confirms the login email
 * (documents are emailed to confirmed addresses only) and keeps the email
 * the app stores at login, so its pages open signed in.
 */
async function register(context: BrowserContext, prefix: string, distributor: boolean) {
  const account = uniqueAccount(prefix)
  expect((await context.request.post('/auth/register', { data: { ...account, distributor } })).status()).toBe(201)
  await confirmEmail(context.request, account.email)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  const load: Load = await (await context.request.get('/api/user')).json()
  return { ...account, id: load.user._id }
}

/** Checks a download link: a PDF with the right type, downloaded by the browser. */
async function expectPDF(page: Page, link: ReturnType<Page['getByRole']>, fileName: RegExp) {
  const href = await link.getAttribute('href')
  const res = await page.request.get(href!)
  expect(res.status()).toBe(200)
  expect(res.headers()['content-type']).toBe('application/pdf')
  expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-')
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
  expect(download.suggestedFilename()).toMatch(fileName)
  expect(
    readFileSync((await download.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-')
}

test.use({ viewport: { width: 1400, height: 1000 } })

test('the shop edits and cancels deliveries, the producer claims, the shop answers, both get the documents', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const month = monthStart(1)
  // The month's last day, when its invoices are issued (at 21:00).
  const lastDay = new Date(Date.parse(`${monthStart(2)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)

  // A producer committed to a shop's tomatoes and lettuces for next month,
  // delivered every day.
  const shopContext = await browser.newContext({ baseURL })
  const farmContext = await browser.newContext({ baseURL })
  const shop = await register(shopContext, 'epicerie', true)
  const farm = await register(farmContext, 'ferme', false)
  seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', month])
  const load: Load = await everyScreen(shopContext.request)
  const deliveries = [...load.orders[0].deliveries].sort((a, b) => a.date.localeCompare(b.date))
  expect(deliveries.length).toBeGreaterThanOrEqual(28)
  const [first, second, third] = deliveries

  // The shop's screen: upcoming deliveries, soonest first.
  const shopPage = await shopContext.newPage()
  await shopPage.goto('/dis/deliveries')
  await expect(shopPage.getByRole('heading', { name: 'Livraisons passées et futures' })).toBeVisible()
  await shopPage.getByRole('tab', { name: 'À venir', exact: true }).click()
  const table = shopPage.getByRole('table', { name: 'Livraisons' })
  await expect(table.getByRole('row')).toHaveCount(6) // header + 5
  await expect(table.getByRole('columnheader').first()).toContainText('Producteur')

  // The first delivery: 1 kg of tomatoes less.
  await table.getByRole('row', { name: new RegExp(`${first.chrono} Prévue ${shown(first.date)}`) }).click()
  let editor = shopPage.getByRole('region', { name: 'Bon de livraison' })
  // The real lock, from the daemon's setting (the landing page's 7h is marketing text).
  await expect(editor).toContainText("Bon de livraison modifiable jusqu'à 12h le jour de la livraison")
  await expect(editor.getByRole('button', { name: 'Date de livraison' })).toHaveAccessibleDescription(
    /une livraison reste dans le mois de sa commande/,
  )
  const tomatoes = editor.getByLabel('Quantité livrée — Tomate (kg)')
  await tomatoes.fill('-1')
  await tomatoes.blur()
  await expect(editor.getByText('Veuillez saisir une quantité positive')).toBeVisible()
  await tomatoes.fill('1,005')
  await expect(editor.getByText('Veuillez saisir un poids correct')).toBeVisible()
  await expect(editor.getByRole('button', { name: 'Enregistrer' })).toBeDisabled()
  await tomatoes.fill('1')
  await editor.getByRole('button', { name: 'Enregistrer' }).click()
  await expect(shopPage.getByText('Modification effectuée').first()).toBeVisible()

  // The second one moves to the last day of the month.
  const last = deliveries[deliveries.length - 1].date
  await table.getByRole('row', { name: new RegExp(`${second.chrono} Prévue`) }).click()
  editor = shopPage.getByRole('region', { name: 'Bon de livraison' })
  await editor.getByRole('button', { name: 'Date de livraison' }).click()
  const day = Number(last.slice(8, 10))
  const [y, m] = last.split('-').map(Number)
  const label = new Intl.DateTimeFormat('fr-FR', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, day)))
  // The picker may open on the current month: go forward to the delivery's.
  for (let i = 0; i < 3 && !(await shopPage.getByRole('button', { name: label, exact: true }).isVisible()); i++) {
    await shopPage.locator('[data-direction="next"]').first().click()
  }
  await shopPage.getByRole('button', { name: label, exact: true }).click()
  await editor.getByRole('button', { name: 'Enregistrer' }).click()
  await expect(shopPage.getByText('Modification effectuée').first()).toBeVisible()
  await shopPage
    .getByRole('button', { name: /Date de livraison/ })
    .first()
    .click() // sort by date: it is now last
  await expect(table.getByRole('row').nth(1)).not.toContainText(`${second.chrono} Prévue`)

  // The third one is cancelled, once the dialog confirms it.
  await shopPage.getByRole('tab', { name: 'À venir', exact: true }).click()
  await table.getByRole('row', { name: new RegExp(`${third.chrono} Prévue`) }).click()
  await shopPage
    .getByRole('region', { name: 'Bon de livraison' })
    .getByRole('button', { name: 'Annuler la livraison' })
    .click()
  const confirm = shopPage.getByRole('dialog', { name: 'Annuler cette livraison ?' })
  await expect(confirm.getByRole('button', { name: 'Garder la livraison' })).toBeFocused()
  await confirm.getByRole('button', { name: "Confirmer l'annulation" }).click()
  await expect(shopPage.getByText('Annulation effectuée').first()).toBeVisible()
  await expect(table.getByRole('row', { name: new RegExp(`${third.chrono} Annulée`) })).toBeVisible()
  await expect(
    shopPage
      .getByRole('region', { name: 'Bon de livraison' })
      .getByRole('link', { name: 'Télécharger le bon de livraison' }),
  ).toHaveCount(0)

  // The first delivery's day comes: locked at 12:00, its note emailed at 12:30.
  expect(runJob('deliveries', `${first.date}T12:30`)).toContain(
    'livraisons verrouillées : 1, bons de livraison envoyés : 1',
  )

  // The producer claims 2 kg of tomatoes for quality.
  const farmPage = await farmContext.newPage()
  await farmPage.goto('/prod/deliveries')
  await farmPage.getByRole('tab', { name: 'Passées', exact: true }).click()
  const farmTable = farmPage.getByRole('table', { name: 'Livraisons' })
  await expect(farmTable.getByRole('columnheader').first()).toContainText('Magasin')
  await farmTable.getByRole('row', { name: new RegExp(`${shop.name} ${first.chrono} Livrée`) }).click()
  const claim = farmPage.getByRole('form', { name: "Demande d'avoir" })
  await expect(
    claim.getByText('Le magasin sera facturé de la quantité livrée augmentée de la quantité réclamée'),
  ).toBeVisible()
  const claimed = claim.getByLabel('Quantité réclamée — Tomate (kg)')
  await claimed.fill('deux')
  await claimed.blur()
  await expect(claim.getByText('La quantité saisie doit être un nombre')).toBeVisible()
  await claimed.fill('')
  await expect(claim.getByText('Aucune quantité saisie')).toBeVisible()
  await claimed.fill('-0,5')
  await claim.getByRole('radiogroup', { name: 'Type — Tomate' }).getByRole('radio', { name: 'Qualité' }).check()
  await claim.getByLabel('Commentaire — Tomate').fill('Tomates éclatées')
  await claim.getByRole('button', { name: "Envoyer la demande d'avoir" }).click()
  await expect(farmPage.getByText("Demande d'avoir envoyée").first()).toBeVisible()
  const farmEditor = farmPage.getByRole('region', { name: 'Bon de livraison' })
  await expect(farmEditor.getByText("Demande d'avoir envoyée, en attente de réponse")).toBeVisible()

  // The shop receives it and accepts.
  await shopPage.reload()
  await shopPage.getByRole('tab', { name: 'Passées', exact: true }).click()
  await table.getByRole('row', { name: new RegExp(`${first.chrono} Livrée`) }).click()
  editor = shopPage.getByRole('region', { name: 'Bon de livraison' })
  await expect(editor.getByText("Demande d'avoir reçue, en attente de réponse")).toBeVisible()
  await expect(editor.getByText('Tomate : -0,5 kg (Qualité) — Tomates éclatées')).toBeVisible()
  await editor.getByRole('button', { name: "Accepter l'avoir" }).click()
  await expect(shopPage.getByText('Votre réponse a été correctement enregistrée').first()).toBeVisible()
  await expect(editor.getByText("Demande d'avoir reçue, acceptée")).toBeVisible()

  // The month's last day, at 21:00: the invoice is issued, dated that day.
  expect(runJob('invoices', `${lastDay}T21:00`)).toContain('factures émises : 1, factures envoyées : 1')

  // Both download the note and the invoice.
  for (const page of [shopPage, farmPage]) {
    await page.reload()
    await page.getByRole('tab', { name: 'Passées', exact: true }).click()
    // The past deliveries, five a page, latest first: sorted by chrono, the
    // first one comes to the top.
    const past = page.getByRole('table', { name: 'Livraisons' })
    const row = past.getByRole('row', { name: new RegExp(`(^|\\D)${first.chrono} Livrée`) })
    await expect(past.getByRole('row').nth(1)).toBeVisible()
    for (let i = 0; i < 2 && !(await row.isVisible()); i++) {
      await past.getByRole('button', { name: /^Chrono/ }).click()
      await expect(past.getByRole('button', { name: /^Chrono/ })).not.toHaveText(/↕/)
    }
    await row.click()
    const region = page.getByRole('region', { name: 'Bon de livraison' })
    await expectPDF(page, region.getByRole('link', { name: 'Télécharger le bon de livraison' }), /^BL-\d{6}\.pdf$/)
    await expectPDF(
      page,
      region.getByRole('link', { name: /^Télécharger la facture FA-\d{4}-000001$/ }),
      /^FA-\d{4}-000001\.pdf$/,
    )
    // Its claim answered: no more claim form nor review (a delivery of the
    // month's last days may still be claimed after the invoice, within its
    // two working days: PRODUCT §16 "Claims").
    await expect(region.getByRole('form', { name: "Demande d'avoir" })).toHaveCount(0)
    await expect(region.getByRole('button', { name: "Accepter l'avoir" })).toHaveCount(0)
  }
  // The cancelled delivery counts nowhere, and another user sees nothing.
  const other = await browser.newContext({ baseURL })
  await register(other, 'curieux', true)
  expect((await other.request.get(`/print/invoice/${load.orders[0]._id}`)).status()).toBe(404)
  await other.close()
  await shopContext.close()
  await farmContext.close()
})
