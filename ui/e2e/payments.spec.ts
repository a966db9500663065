// Getting paid in real browsers against the real daemon (PRODUCT §16
// "Payments"): a month of deliveries is invoiced; the shop ticks the invoice
// in "À payer" and downloads its SEPA transfer file; the producer records
// the payment in "À encaisser"; both see the invoice paid. An invoice left
// unpaid is reminded once, by a real SMTP exchange with the test's own
// server (smtp.ts), however often the job runs, and not again once the
// producer turned reminders off. The orders come from tools/e2eseed's
// orders scene; time moves with the daemon's own jobs, run as
// `primeur jobs run … --at`.
import { execFile, execFileSync } from 'node:child_process'
import { promisify } from 'node:util'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext } from '@playwright/test'
import { confirmEmail, dataDir, expect, seed, test, uniqueAccount } from './fixtures'
import { startSmtp } from './smtp'

/** The first day of the month `offset` months from now in Paris, "2026-12-01". */
function monthStart(offset: number): string {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  return new Date(Date.UTC(year, m - 1 + offset, 1)).toISOString().slice(0, 10)
}

const here = dirname(fileURLToPath(import.meta.url))
const bin = resolve(process.env.PRIMEUR_BIN ?? join(here, '..', '..', 'bin', 'primeur'))

function runJob(name: string, at: string, extra: string[] = []) {
  return execFileSync(
    bin,
    ['jobs', 'run', name, '--at', at, '--force', '--data-dir', dataDir(), '--log-level', 'warn', ...extra],
    {
      encoding: 'utf8',
    },
  )
}

/**
 * runJob without blocking the test's event loop, for runs that talk to the
 * test's own SMTP server.
 */
async function runJobAsync(name: string, at: string, extra: string[]) {
  const args = ['jobs', 'run', name, '--at', at, '--force', '--data-dir', dataDir(), '--log-level', 'warn', ...extra]
  return (await promisify(execFile)(bin, args, { encoding: 'utf8' })).stdout
}

/** The day after a date, "2027-01-11" for "2027-01-10". */
function dayAfter(date: string, days = 1): string {
  const d = new Date(`${date}T12:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/**
 * Registers through the API with a complete profile, and signs the context
 * in. The login email is confirmed with the link it was sent: documents
 * go to confirmed addresses only.
 */
async function register(
  context: BrowserContext,
  prefix: string,
  distributor: boolean,
  profile: Record<string, string>,
) {
  const account = uniqueAccount(prefix)
  expect((await context.request.post('/auth/register', { data: { ...account, distributor } })).status()).toBe(201)
  await confirmEmail(context.request, account.email)
  // Bank details need the current password (PRODUCT §13 "Changing the bank details").
  const bank = 'iban' in profile || 'bic' in profile ? { currentPassword: account.password } : {}
  expect((await context.request.put('/api/user', { data: { ...profile, ...bank } })).status()).toBe(200)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  return account
}

test.use({ viewport: { width: 1400, height: 1000 } })

test('the shop pays its invoice by SEPA transfer, the producer records it, both see it paid', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const month = monthStart(1)
  const billing = monthStart(2)
  const shopContext = await browser.newContext({ baseURL })
  const farmContext = await browser.newContext({ baseURL })
  const shop = await register(shopContext, 'epicerie', true, {
    siret: '73282932000074',
    iban: 'FR7610107001011234567890129',
  })
  const farm = await register(farmContext, 'ferme', false, {
    siret: '41234567000019',
    iban: 'FR7630006000011234567890189',
    bic: 'AGRIFRPP882',
  })
  seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', month])
  // The month ends: its deliveries lock and the invoice is issued.
  // (other tests' orders of the same month may be invoiced in the same run)
  expect(runJob('invoices', `${billing}T06:00`)).toMatch(/factures émises : [1-9]/)

  // The shop: "À payer", the invoice to pay, its transfer file.
  const shopPage = await shopContext.newPage()
  await shopPage.goto('/dis/payments')
  await expect(shopPage.getByRole('heading', { name: 'À payer' })).toBeVisible()
  const card = shopPage.getByRole('region', { name: farm.name })
  await expect(card.getByRole('row').nth(1)).toContainText('À payer')
  const owed = (await card.getByLabel('Reste à payer').textContent())!.trim()
  await card.getByRole('checkbox', { name: /^Payer FA-\d{4}-000001 par virement$/ }).check()
  // What the file will carry, before it is downloaded.
  await expect(shopPage.getByRole('region', { name: 'Aperçu du virement' })).toContainText(
    /Libellé : Facture FA-\d{4}-000001/,
  )
  const [download] = await Promise.all([
    shopPage.waitForEvent('download'),
    shopPage.getByRole('button', { name: 'Préparer le virement' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^virements-\d{4}-\d{2}-\d{2}\.xml$/)
  const xml = readFileSync((await download.path())!, 'utf8')
  expect(xml).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09')
  expect(xml).toContain('<IBAN>FR7610107001011234567890129</IBAN>') // the shop's, as debtor
  expect(xml).toContain('<IBAN>FR7630006000011234567890189</IBAN>') // the producer's
  expect(xml).toMatch(/<Ustrd>Facture FA-\d{4}-000001<\/Ustrd>/)
  const amount = owed.replace(/[^\d,]/g, '').replace(',', '.')
  expect(xml).toContain(`<InstdAmt Ccy="EUR">${amount}</InstdAmt>`)

  // The producer: "À encaisser", records the transfer received.
  const farmPage = await farmContext.newPage()
  await farmPage.goto('/prod/payments')
  await expect(farmPage.getByRole('heading', { name: 'À encaisser' })).toBeVisible()
  const farmCard = farmPage.getByRole('region', { name: shop.name })
  await expect(farmCard.getByLabel('Reste à payer')).toHaveText(owed)
  await farmCard.getByRole('button', { name: 'Enregistrer un paiement reçu' }).click()
  const form = farmCard.getByRole('form', { name: 'Paiement' })
  await form.getByLabel('Référence (facultatif)').fill('VIR SEPA')
  await form.getByRole('button', { name: 'Enregistrer le paiement' }).click()
  await expect(farmPage.getByText('Paiement enregistré').first()).toBeVisible()
  await expect(farmCard.getByRole('row').nth(1)).toContainText('Payée')
  await expect(farmCard.getByLabel('Reste à payer')).toHaveText(/^0,00\s€$/)

  // The shop sees it paid, and the producer's event in its feed.
  await shopPage.reload()
  await expect(card.getByRole('row').nth(1)).toContainText('Payée')
  await expect(card.getByText(/Virement de .* \(VIR SEPA\) — Enregistré/)).toBeVisible()

  // A cheque of six months ago, entered late: older than the months the
  // screen lists, it is counted below the payments and read on demand
  // (issue 42, GET /api/payments/{partnerId}/history).
  const listed = (await (await farmContext.request.get('/api/payments')).json()) as {
    accounts: { partnerId: string; partnerName: string }[]
  }
  const shopId = listed.accounts.find((a) => a.partnerName === shop.name)!.partnerId
  const cheque = { partnerId: shopId, amount: 1, paidOn: monthStart(-6), method: 'cheque', reference: 'CHQ ANCIEN' }
  expect((await farmContext.request.post('/api/payments', { data: cheque })).status()).toBe(200)
  await farmPage.reload()
  const older = farmCard.getByRole('button', { name: 'Afficher le paiement plus ancien (1)' })
  await expect(older).toBeVisible()
  await expect(farmCard.getByText(/CHQ ANCIEN/)).toHaveCount(0)
  await older.focus()
  await farmPage.keyboard.press('Enter')
  await expect(farmCard.getByText(/Chèque de 1,00\s€ \(CHQ ANCIEN\) — Enregistré/)).toBeVisible()
  await expect(farmCard.getByRole('button', { name: /plus ancien/ })).toHaveCount(0)
  await shopContext.close()
  await farmContext.close()
})

test('an overdue invoice is reminded once by email, and not again once the producer turns reminders off', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const month = monthStart(1)
  const billing = monthStart(2)
  const shopContext = await browser.newContext({ baseURL })
  const farmContext = await browser.newContext({ baseURL })
  const shop = await register(shopContext, 'cooperative', true, {})
  const farm = await register(farmContext, 'verger', false, { siret: '41234567000019' })
  seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', month])
  expect(runJob('invoices', `${billing}T06:00`)).toMatch(/factures émises : [1-9]/)

  // The invoice's due date, as the shop's "À payer" reads it.
  const view = (await (await shopContext.request.get('/api/payments')).json()) as {
    accounts: { partnerName: string; documents: { number: string; dueDate?: string }[] }[]
  }
  const invoice = view.accounts.find((a) => a.partnerName === farm.name)!.documents[0]
  expect(invoice.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)

  // The day after it, the reminders job runs — twice, as two replicas or a
  // retry would: the shop's owner (its accountants too, issue 41) gets one reminder through SMTP.
  const smtp = await startSmtp()
  try {
    const viaSmtp = ['--smtp.host', '127.0.0.1', '--smtp.port', String(smtp.port), '--smtp.tls', 'none']
    // The daemon is shared with other specs, whose own overdue invoices the
    // job may remind: only this shop's messages are counted.
    const ours = () => smtp.messages.filter((m) => m.to.includes(shop.email))
    await runJobAsync('reminders', `${invoice.dueDate}T10:00`, viaSmtp)
    expect(ours()).toHaveLength(0) // not on the due date itself
    // Reminders go out on French working days: from the day after the due
    // date, the first day the job sends one (a weekend or a holiday waits).
    let first = ''
    for (let days = 1; days <= 5 && ours().length === 0; days++) {
      first = dayAfter(invoice.dueDate!, days)
      await runJobAsync('reminders', `${first}T09:00`, viaSmtp)
    }
    await runJobAsync('reminders', `${first}T15:00`, viaSmtp)
    expect(ours()).toHaveLength(1)
    const reminder = ours()[0]
    expect(reminder.subject).toBe(`Relance : factures échues de ${farm.name}`)
    expect(reminder.data).toMatch(/filename="?FA-\d{4}-\d{6}\.pdf/) // the invoice attached

    // The producer turns reminders off for this shop in "À encaisser".
    const farmPage = await farmContext.newPage()
    await farmPage.goto('/prod/payments')
    const card = farmPage.getByRole('region', { name: shop.name })
    const reminders = card.getByRole('switch', { name: /^Relances automatiques des factures échues/ })
    await expect(reminders).toBeChecked()
    await reminders.click()
    await expect(reminders).not.toBeChecked()
    await farmPage.reload()
    await expect(card.getByRole('switch', { name: /^Relances automatiques des factures échues/ })).not.toBeChecked()

    // Fifteen days after the due date, no second reminder.
    await runJobAsync('reminders', `${dayAfter(invoice.dueDate!, 15)}T09:00`, viaSmtp)
    expect(ours()).toHaveLength(1)
  } finally {
    await smtp.close()
    await shopContext.close()
    await farmContext.close()
  }
})
