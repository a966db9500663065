// Minimum order and delivery fees on a phone (issue 40, PRODUCT §16
// "Minimum order and delivery fees"): a producer sets a minimum per
// delivery and a flat fee in its profile; a proposal under the minimum is
// refused saying what is missing; the shop, opening the producer's
// proposal, reads the minimum and the fee above it before it accepts. On
// the demo world (a daemon of its own), a shop of Ferme des Glières's round
// reads its terms, distance band included, above the correction waiting
// for it, and its invoices carry the delivery fees.
import type { BrowserContext } from '@playwright/test'
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { DEMO_PASSWORD, DEMO_PRODUCER, type DemoDaemon, startDemo } from './demo'
import { expect, test, uniqueAccount } from './fixtures'
import { everyScreen } from './reads'

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true } as const

/** The first day of the month after next in Paris, "2027-01-01" (clear of the other specs' jobs). */
function monthAfterNext(): string {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  return new Date(Date.UTC(year, m + 1, 1)).toISOString().slice(0, 10)
}

/** Registers an account through the API in `context`, logged in there; answers its id. */
async function register(context: BrowserContext, prefix: string, distributor: boolean) {
  const account = uniqueAccount(prefix)
  const res = await context.request.post('/auth/register', { data: { ...account, distributor } })
  expect(res.status(), await res.text()).toBe(201)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  return { ...account, id: (await res.json()).user._id as string }
}

test.use(PHONE)

test('a producer sets its minimum and fee; the shop reads them above the proposal before it accepts', async ({
  browser,
  baseURL,
  page,
}) => {
  const month = monthAfterNext()
  await register(page.context(), 'frais-commerce', true)
  const farmContext = await browser.newContext({ ...PHONE, baseURL })
  const farm = await register(farmContext, 'frais-ferme', false)
  const days = await farmContext.request.put('/api/user', {
    data: { defaultDeliveryDays: [true, false, false, true, false, false, false] }, // Mondays, Thursdays
  })
  expect(days.status(), await days.text()).toBe(200)
  const created = await page.request.post('/api/needs', { data: { product: 'carotte', date: month, quantity: 800 } })
  expect(created.status(), await created.text()).toBe(201)
  const needId: string = (await created.json())._id

  // The producer's profile, on its phone: a minimum of 50 € and a flat fee of 9,50 €.
  const farmPage = await farmContext.newPage()
  await farmPage.goto('/?profil=defaultDeliveryDays')
  const terms = farmPage.getByRole('region', { name: 'Minimum de commande et frais de livraison' })
  await terms.getByLabel('Minimum par livraison (€ HT)').fill('50')
  await terms.getByLabel('Frais de livraison forfaitaires (€ HT)').fill('9,50')
  await terms.getByRole('button', { name: 'Enregistrer', exact: true }).tap()
  await expect(farmPage.getByText('Conditions de livraison enregistrées').first()).toBeVisible()

  // Under the minimum, the proposal is refused with what is missing.
  const proposal = `/api/proposals/${needId}/${farm.id}`
  const refused = await farmContext.request.put(proposal, { data: { quantity: 100, price: 2 } })
  expect(refused.status()).toBe(409)
  expect((await refused.json()).detail).toMatch(/^Commande minimum de 50,00 € par livraison : il manque \d+,\d\d €\.$/)
  const proposed = await farmContext.request.put(proposal, { data: { quantity: 600, price: 2 } })
  expect(proposed.status(), await proposed.text()).toBe(200)
  await farmContext.close()

  // The shop opens the proposal: the producer's terms are above it, then it accepts.
  await page.goto(`/dis/needs?need=${needId}`)
  const sheet = page.getByRole('dialog', { name: 'Détail du besoin' })
  const note = sheet.getByLabel('Conditions de livraison')
  await expect(note).toHaveText(
    'Commande minimum : 50,00\u00a0€ HT par livraison · Frais de livraison : 9,50\u00a0€ HT par livraison',
  )
  const offer = sheet.getByRole('article', { name: `Proposition de ${farm.name}` })
  await expect(note).toBeInViewport()
  await offer.getByRole('button', { name: 'Accepter' }).tap()
  await expect(page.getByText('Votre réponse a été correctement enregistrée').first()).toBeVisible()
  await expect(sheet.getByRole('article', { name: `Engagement de ${farm.name}` })).toContainText('600 kg à 2,00 €/kg')
})

test.describe('on the demo world', () => {
  let demo: DemoDaemon | undefined
  test.beforeAll(async () => {
    demo = await startDemo()
  })
  test.afterAll(async () => {
    await demo?.stop()
  })

  test("a shop of Ferme des Glières's round reads its terms above the correction, and its invoice carries the fee", async ({
    browser,
  }, info) => {
    const shop = 'panier-des-aravis@demo.primeur.fr'
    const context = await browser.newContext({ ...PHONE, baseURL: demo!.baseURL })
    const login = await context.request.post('/auth/login', { data: { email: shop, password: DEMO_PASSWORD } })
    expect(login.status(), await login.text()).toBe(200)
    await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), shop)
    const load = (await everyScreen(context.request)) as {
      producers: { _id: string; name: string }[]
      needs: { _id: string; proposals: { producer: string; status: string; from: string }[] }[]
      orders: { _id: string; producer?: string; invoice?: { number: string } }[]
    }
    const farm = load.producers.find((p) => p.name === DEMO_PRODUCER.name)!
    const waiting = load.needs.find((n) =>
      n.proposals.some((p) => p.producer === farm._id && p.status === 'proposed' && p.from === 'producer'),
    )
    expect(waiting, 'the demo has a correction of Ferme des Glières waiting for the shop').toBeTruthy()

    const page = await context.newPage()
    await page.goto(`/dis/needs?need=${waiting!._id}`)
    const sheet = page.getByRole('dialog', { name: 'Détail du besoin' })
    await expect(sheet.getByLabel('Conditions de livraison')).toHaveText(
      /^Commande minimum : 60,00\u00a0€ HT par livraison · Frais de livraison : 8,00\u00a0€ HT par livraison \(à \d+,\d km\), offerts dès 300,00\u00a0€ HT livrés$/,
    )
    await expect(sheet.getByRole('button', { name: 'Accepter' })).toBeVisible()

    // Its invoices of the months over: one bills delivery fees.
    const invoiced = load.orders.filter((o) => o.producer === farm._id && o.invoice)
    expect(invoiced.length).toBeGreaterThan(0)
    let billed = false
    for (const o of invoiced) {
      const pdf = await context.request.get(`/print/invoice/${o._id}`)
      expect(pdf.status()).toBe(200)
      const path = info.outputPath(`${o.invoice!.number}.pdf`)
      writeFileSync(path, await pdf.body())
      const text = pdfText(path)
      if (text === null) return
      if (/Frais de livraison\s.*8,00/.test(text)) billed = true
    }
    expect(billed, 'no invoice of Ferme des Glières to the shop bills a delivery fee of 8,00 €').toBe(true)
    await context.close()
  })
})

/** The text of a PDF through pdftotext (poppler-utils), or null when it is not installed (the check is then skipped, and the report says so). */
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
