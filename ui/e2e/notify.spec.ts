// Emails that ask for an answer, in real browsers against the real daemon
// (PRODUCT §13 "Confirming an email", "Notifications"): a new account
// confirms its login email with the link it was sent, and the banner asking
// for it goes; a producer proposes on a shop's need, the notifications job
// emails the shop a digest whose link opens the planner on that need; the
// shop accepts there, and the producer's digest opens the shop's planner on
// the same need. The emails are read from the daemon's outbox; the job runs
// as `primeur jobs run notifications` on the daemon's database.
import { execFileSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext } from '@playwright/test'
import {
  confirmEmail,
  confirmationLink,
  dataDir,
  expect,
  needCell,
  outboxEmail,
  readOnlyCell,
  registerThroughForm,
  test,
  uniqueAccount,
} from './fixtures'

const here = dirname(fileURLToPath(import.meta.url))
const bin = resolve(process.env.PRIMEUR_BIN ?? join(here, '..', '..', 'bin', 'primeur'))

const BANNER = 'Confirmez votre adresse email'

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

/** Runs the notifications job now on the daemon's database. */
function runNotifications() {
  return execFileSync(bin, ['jobs', 'run', 'notifications', '--data-dir', dataDir(), '--log-level', 'warn'], {
    encoding: 'utf8',
  })
}

/**
 * Registers through the API in a browser context, confirms the login email
 * with the link it was sent (as a click on it would) and keeps the email
 * the app stores at login, so that its pages open signed in.
 */
async function register(context: BrowserContext, prefix: string, distributor: boolean) {
  const account = uniqueAccount(prefix)
  expect((await context.request.post('/auth/register', { data: { ...account, distributor } })).status()).toBe(201)
  await confirmEmail(context.request, account.email)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  const load: { user: { _id: string; emailConfirmed: boolean } } = await (await context.request.get('/api/user')).json()
  expect(load.user.emailConfirmed).toBe(true)
  return { ...account, id: load.user._id }
}

/** The notification preferences of the context's user. */
async function notificationsOf(context: BrowserContext): Promise<{ kind: string; label: string; mode: string }[]> {
  return (await (await context.request.get('/api/user')).json()).user.notifications
}

test.use({ viewport: { width: 1280, height: 900 } })

test('a new shop confirms its email with the link it was sent, and the banner goes', async ({ page }) => {
  const shop = uniqueAccount('epicerie')
  await page.goto('/landing/register')
  await registerThroughForm(page, shop, 'Distributeur')
  const banner = page.getByRole('region', { name: BANNER })
  await expect(banner).toContainText(`Un lien de confirmation a été envoyé à ${shop.email}.`)
  // The banner is on every page.
  await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Planifier' }).click()
  await expect(page).toHaveURL(/\/dis\/needs$/)
  await expect(banner).toBeVisible()

  // The link's host is the site's public address; its path and token are opened here.
  const link = await confirmationLink(shop.email)
  await page.goto(link)
  await expect(page.getByRole('status').filter({ hasText: 'confirmée' })).toBeVisible()
  await page.getByRole('link', { name: "Aller à l'accueil" }).click()
  await expect(page.getByRole('button', { name: shop.email })).toBeVisible()
  await expect(banner).toHaveCount(0)

  // The link served once.
  await page.goto(link)
  await expect(page.getByRole('alert')).toContainText("n'est plus valable")
  await page.goto('/dis/needs')
  await expect(page.getByRole('grid', { name: 'Besoins par produit et par mois' })).toBeVisible()
  await expect(banner).toHaveCount(0)
})

test('a digest’s link opens the need in the planner, for the shop and then the producer', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  // Ten months ahead: past the 8 months the planner shows first, so the link moves the period.
  const [farLabel, farValue] = month(10)
  const shopContext = await browser.newContext({ baseURL })
  const farmContext = await browser.newContext({ baseURL })
  const shop = await register(shopContext, 'magasin', true)
  const farm = await register(farmContext, 'ferme', false)

  // The shop's need, and the producer's proposal on it (with delivery days, as proposing asks).
  const created = await shopContext.request.post('/api/needs', {
    data: { product: 'navet', date: farValue, quantity: 80 },
  })
  expect(created.status()).toBe(201)
  const needId: string = (await created.json())._id
  expect(
    (
      await farmContext.request.put('/api/user', {
        data: { defaultDeliveryDays: [true, false, true, false, true, false, false] },
      })
    ).status(),
  ).toBe(200)
  expect(
    (
      await farmContext.request.put(`/api/proposals/${needId}/${farm.id}`, { data: { quantity: 30, price: 1.5 } })
    ).status(),
  ).toBe(200)

  // The job gathers the shop's notification into a digest and emails it.
  runNotifications()
  const digest = await outboxEmail('digest-', shop.email, { pick: (text) => text.includes(`need=${needId}`) })
  const shopPath = /\/dis\/needs\?need=[A-Za-z0-9_-]+/.exec(digest)?.[0]
  expect(shopPath).toBe(`/dis/needs?need=${needId}`)

  // The link: the planner on that need — its month shown, its cell selected, the pane on it.
  const shopPage = await shopContext.newPage()
  await shopPage.goto(shopPath!)
  const shopCell = needCell(shopPage, 'Navet', farLabel)
  await expect(shopCell).toHaveAttribute('aria-selected', 'true')
  const shopPane = shopPage.getByRole('complementary', { name: 'Détail du besoin' })
  await expect(shopPane.getByRole('heading', { name: 'Navet' })).toBeVisible()
  await expect(shopPane.getByText(farLabel, { exact: true })).toBeVisible()
  const proposal = shopPane.getByRole('article', { name: `Proposition de ${farm.name}` })
  await expect(proposal).toContainText('30 kg à 1,50 €/kg')
  await proposal.getByRole('button', { name: 'Accepter' }).click()
  await expect(shopPage.getByText('Votre réponse a été correctement enregistrée').first()).toBeVisible()

  // The producer's digest tells the answer; its link opens the shop's planner on the need.
  runNotifications()
  const farmDigest = await outboxEmail('digest-', farm.email, { pick: (text) => text.includes(`need=${needId}`) })
  const farmPath = /\/prod\/needs\/[A-Za-z0-9_-]+\?need=[A-Za-z0-9_-]+/.exec(farmDigest)?.[0]
  expect(farmPath).toBe(`/prod/needs/${shop.id}?need=${needId}`)
  const farmPage = await farmContext.newPage()
  await farmPage.goto(farmPath!)
  await expect(readOnlyCell(farmPage, 'Navet', farLabel)).toHaveAttribute('aria-selected', 'true')
  const farmPane = farmPage.getByRole('complementary', { name: 'Détail du besoin' })
  await expect(farmPane.getByRole('heading', { name: 'Navet' })).toBeVisible()
  await expect(farmPane.getByRole('article', { name: 'Engagement' })).toContainText('30 kg à 1,50 €/kg')

  // The digest's unsubscribe link asks before it unsubscribes.
  const unsubscribe = /\/landing\/unsubscribe#[A-Za-z0-9_.-]{20,}/.exec(digest)?.[0]
  expect(unsubscribe, 'the unsubscribe link').toBeTruthy()
  await shopPage.goto(unsubscribe!)
  await expect(shopPage.getByText('Ne plus recevoir ces notifications par email ?')).toBeVisible()
  expect((await notificationsOf(shopContext)).every((n) => n.mode !== 'none')).toBe(true)
  await shopPage.getByRole('button', { name: 'Me désabonner' }).click()
  await expect(shopPage.getByRole('button', { name: 'Me désabonner' })).toHaveCount(0)
  const off = (await notificationsOf(shopContext)).find((n) => n.mode === 'none')
  expect(off, 'a kind turned off').toBeTruthy()

  // The profile shows the choice, and puts it back at once.
  await shopPage.goto('/')
  await shopPage.getByRole('button', { name: shop.email }).click()
  const panel = shopPage.getByRole('region', { name: 'Notifications par email' })
  const group = panel.getByRole('radiogroup', { name: off!.label })
  await expect(group.getByRole('radio', { name: 'Aucune' })).toBeChecked()
  await group.getByText('Au plus une par heure').click()
  await expect(shopPage.getByText('Modification effectuée').first()).toBeVisible()
  await expect(group.getByRole('radio', { name: 'Au plus une par heure' })).toBeChecked()
  await shopContext.close()
  await farmContext.close()
})
