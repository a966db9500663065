// Teams in real browsers against the real daemon (issue 41, PRODUCT §13
// "Teams"): a shop's owner invites a buyer and an accountant from
// "Équipe"; each accepts the emailed link with a login of their own; the
// buyer accepts a producer's proposal and the producer's feed names her;
// the buyer sees no payment form; the accountant downloads an invoice and
// prepares the transfer, but reads the needs without changing them (no
// button in the need's pane); the owner removes the buyer, whose session
// ends at once. The month's invoice comes from tools/e2eseed's
// orders scene and the daemon's invoices job.
import { execFileSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext, Page } from '@playwright/test'
import { confirmEmail, dataDir, expect, needCell, outboxEmail, seed, test, uniqueAccount } from './fixtures'

const here = dirname(fileURLToPath(import.meta.url))
const bin = resolve(process.env.PRIMEUR_BIN ?? join(here, '..', '..', 'bin', 'primeur'))

/** The month `offset` months from now in Paris: ["décembre 2026", "2026-12-01"]. */
function month(offset: number): [label: string, value: string] {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  const date = new Date(Date.UTC(year, m - 1 + offset, 1))
  return [
    new Intl.DateTimeFormat('fr-FR', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(date),
    date.toISOString().slice(0, 10),
  ]
}

/** Registers an organisation through the API with a profile, its email confirmed, and signs the context in. */
async function register(
  context: BrowserContext,
  prefix: string,
  distributor: boolean,
  profile: Record<string, string>,
) {
  const account = uniqueAccount(prefix)
  expect((await context.request.post('/auth/register', { data: { ...account, distributor } })).status()).toBe(201)
  await confirmEmail(context.request, account.email)
  const bank = 'iban' in profile ? { currentPassword: account.password } : {}
  expect((await context.request.put('/api/user', { data: { ...profile, ...bank } })).status()).toBe(200)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  const load: { user: { _id: string } } = await (await context.request.get('/api/user')).json()
  return { ...account, id: load.user._id }
}

/** Invites `email` with `role` from the owner's "Équipe" screen. */
async function invite(page: Page, email: string, role: string) {
  const form = page.getByRole('form', { name: 'Inviter une personne' })
  await form.getByLabel('Adresse email').fill(email)
  await form.getByLabel('Rôle').selectOption(role)
  await form.getByRole('button', { name: 'Envoyer l’invitation' }).click()
  await expect(page.getByRole('table', { name: 'Invitations en attente' })).toContainText(email)
}

/** Opens the emailed invitation in a new context and joins with a new login. */
async function joinTeam(context: BrowserContext, email: string, name: string, password: string): Promise<Page> {
  const text = await outboxEmail('invitation-', email)
  const link = /\/landing\/invitation#[A-Za-z0-9_-]{20,}/.exec(text)?.[0]
  expect(link, `the invitation to ${email}`).toBeTruthy()
  const page = await context.newPage()
  await page.goto(link!)
  await expect(page.getByText(/Vous êtes invité\(e\) dans l’équipe/)).toBeVisible()
  await page.getByLabel('Votre nom').fill(name)
  await page.getByLabel(/Choisissez un mot de passe/).fill(password)
  await page.getByRole('button', { name: 'Rejoindre l’équipe' }).click()
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible()
  return page
}

test.use({ viewport: { width: 1400, height: 1000 } })

test('an owner invites a buyer and an accountant, each works within their role, the buyer is removed', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000)
  const [nextLabel, next] = month(1)
  const billing = month(2)[1]
  const shopContext = await browser.newContext({ baseURL })
  const farmContext = await browser.newContext({ baseURL })
  const shop = await register(shopContext, 'equipe', true, {
    siret: '73282932000074',
    iban: 'FR7610107001011234567890129',
  })
  const farm = await register(farmContext, 'ferme-equipe', false, {
    siret: '41234567000019',
    iban: 'FR7630006000011234567890189',
    bic: 'AGRIFRPP882',
  })
  // A month of deliveries, invoiced: the accountant's invoice.
  seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', next])
  execFileSync(bin, [
    'jobs',
    'run',
    'invoices',
    '--at',
    `${billing}T06:00`,
    '--force',
    '--data-dir',
    dataDir(),
    '--log-level',
    'warn',
  ])

  // The owner invites from "Équipe" (the account menu).
  const owner = await shopContext.newPage()
  await owner.goto('/')
  await owner.getByRole('button', { name: 'Mon compte' }).click()
  await owner.getByRole('menuitem', { name: 'Équipe' }).click()
  await expect(owner.getByRole('heading', { name: 'Équipe', level: 1 })).toBeVisible()
  const marie = uniqueAccount('marie')
  const compta = uniqueAccount('compta')
  await invite(owner, marie.email, 'buyer')
  await invite(owner, compta.email, 'accountant')

  // The buyer joins and accepts the producer's proposal.
  const need: { _id: string } = await (
    await shopContext.request.post('/api/needs', {
      data: { product: 'courgette', date: next.slice(0, 7), quantity: 40 },
    })
  ).json()
  expect(
    (
      await farmContext.request.put(`/api/proposals/${need._id}/${farm.id}`, { data: { quantity: 40, price: 2.3 } })
    ).status(),
  ).toBe(200)
  const marieContext = await browser.newContext({ baseURL })
  const buyer = await joinTeam(marieContext, marie.email, 'Marie', marie.password)
  await buyer.goto('/dis/needs')
  await needCell(buyer, 'Courgette', nextLabel).click()
  const pane = buyer.getByRole('complementary', { name: 'Détail du besoin' })
  await pane
    .getByRole('article', { name: `Proposition de ${farm.name}` })
    .getByRole('button', { name: 'Accepter' })
    .click()
  await expect(pane.getByRole('article', { name: `Engagement de ${farm.name}` })).toBeVisible()

  // …and sees no payment form: the payments are the owners' and the accountant's.
  await buyer.goto('/dis/payments')
  await expect(buyer.getByRole('region', { name: farm.name })).toBeVisible()
  await expect(buyer.getByRole('button', { name: 'Déclarer un paiement' })).toHaveCount(0)
  await expect(buyer.getByRole('checkbox', { name: /^Payer .* par virement$/ })).toHaveCount(0)
  await expect(buyer.getByRole('button', { name: 'Préparer le virement' })).toHaveCount(0)

  // The producer's feed names her.
  const farmPage = await farmContext.newPage()
  await farmPage.goto('/')
  await farmPage.getByRole('button', { name: 'Activités' }).click()
  await expect(farmPage.getByRole('dialog', { name: 'Activités' })).toContainText(`Marie (${shop.name}) a accepté`)

  // The accountant downloads the invoice and prepares the transfer…
  const accountantContext = await browser.newContext({ baseURL })
  const accountant = await joinTeam(accountantContext, compta.email, 'Cabinet Compta', compta.password)
  await accountant.goto('/dis/payments')
  const card = accountant.getByRole('region', { name: farm.name })
  const [invoice] = await Promise.all([
    accountant.waitForEvent('download'),
    card
      .getByRole('link', { name: /^Facture FA-\d{4}-\d{6}$/ })
      .first()
      .click(),
  ])
  expect(invoice.suggestedFilename()).toMatch(/\.pdf$/)
  await card
    .getByRole('checkbox', { name: /^Payer FA-\d{4}-\d{6} par virement$/ })
    .first()
    .check()
  const [transfer] = await Promise.all([
    accountant.waitForEvent('download'),
    accountant.getByRole('button', { name: 'Préparer le virement' }).click(),
  ])
  expect(transfer.suggestedFilename()).toMatch(/^virements-\d{4}-\d{2}-\d{2}\.xml$/)
  // …but reads the needs without changing them: no add bar, cells read-only, the daemon refuses.
  await accountant.goto('/dis/needs')
  await expect(accountant.getByRole('grid', { name: 'Besoins par produit et par mois' })).toHaveAttribute(
    'aria-readonly',
    'true',
  )
  // Her pane shows the commitment with no button to change it.
  await needCell(accountant, 'Courgette', nextLabel).click()
  const accountantPane = accountant.getByRole('complementary', { name: 'Détail du besoin' })
  await expect(accountantPane.getByRole('article', { name: `Engagement de ${farm.name}` })).toBeVisible()
  await expect(
    accountantPane.getByRole('button', { name: /^(Accepter|Modifier|Refuser|Supprimer|Corriger|Proposer|Envoyer)$/ }),
  ).toHaveCount(0)
  const refused = await accountantContext.request.put(`/api/needs/${need._id}`, { data: { quantity: 50 } })
  expect(refused.status()).toBe(403)
  expect((await refused.json()).detail).toContain('Votre rôle dans cette organisation (Comptabilité)')

  // The owner removes the buyer: her session ends at once.
  await owner.reload()
  const members = owner.getByRole('table', { name: 'Membres' })
  await expect(members).toContainText('Marie')
  owner.once('dialog', (d) => void d.accept())
  await members.getByRole('button', { name: 'Retirer Marie' }).click()
  await expect(members).not.toContainText('Marie')
  expect((await marieContext.request.get('/api/user')).status()).toBe(401)
  await buyer.reload()
  await expect(buyer).toHaveURL(/\/landing\/login/)

  await Promise.all([shopContext.close(), farmContext.close(), marieContext.close(), accountantContext.close()])
})
