// Journeys on a phone driven by touch only (issue 37 "Consumer-grade on a
// phone"): every control is reached with taps as a finger sends them
// (locator.tap: touch events, no mouse), at 390×844 and at a small 360×640
// screen, so a control that works only with a mouse or a keyboard fails
// here. Each test makes its own accounts on the shared daemon and seeds
// them with tools/e2eseed's scenes (fixtures' seed).
import { execFileSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext, Page, TestInfo } from '@playwright/test'
import { confirmEmail, dataDir, expect, outboxEmail, seed, test, uniqueAccount } from './fixtures'
import { everyScreen } from './reads'

/** The two phones of the issue: a common one and a small one. */
const SCREENS = [
  { name: '390x844', viewport: { width: 390, height: 844 } },
  { name: '360x640', viewport: { width: 360, height: 640 } },
] as const

const TOUCH = { deviceScaleFactor: 3, isMobile: true, hasTouch: true } as const

const here = dirname(fileURLToPath(import.meta.url))
const bin = resolve(process.env.PRIMEUR_BIN ?? join(here, '..', '..', 'bin', 'primeur'))

/** Runs a job on the daemon's database as if it were `at` (Paris time). */
function runJob(name: string, at: string): string {
  return execFileSync(
    bin,
    ['jobs', 'run', name, '--at', at, '--force', '--data-dir', dataDir(), '--log-level', 'warn'],
    { encoding: 'utf8' },
  )
}

/** The first day of the month `offset` months from now in Paris, "2026-12-01". */
function monthStart(offset: number): string {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  return new Date(Date.UTC(year, m - 1 + offset, 1)).toISOString().slice(0, 10)
}

interface Load {
  user: { _id: string }
  orders: { deliveries: { _id: string; date: string; chrono: number }[] }[]
}

/**
 * Registers through the API in `context` (its pages then open signed in),
 * its login email confirmed when `confirmed` (emails are sent to confirmed
 * addresses only).
 */
async function register(context: BrowserContext, prefix: string, distributor: boolean, confirmed = false) {
  const account = uniqueAccount(prefix)
  const res = await context.request.post('/auth/register', { data: { ...account, distributor } })
  expect(res.status(), await res.text()).toBe(201)
  if (confirmed) await confirmEmail(context.request, account.email)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  const { user } = (await (await context.request.get('/api/user')).json()) as { user: { _id: string } }
  return { ...account, id: user._id }
}

/**
 * A shop with a need of `product` next month and a farmer's proposal on it
 * (30 kg at 1,50 €), the shop's notification emailed: the path of the
 * email's link to the need.
 */
async function proposalEmailed(shopContext: BrowserContext, farmContext: BrowserContext, product: string) {
  const shop = await register(shopContext, 'tactile-courriel', true, true)
  const farm = await register(farmContext, 'tactile-proposant', false)
  const created = await shopContext.request.post('/api/needs', {
    data: { product, date: monthStart(1), quantity: 80 },
  })
  expect(created.status(), await created.text()).toBe(201)
  const needId: string = (await created.json())._id
  const days = await farmContext.request.put('/api/user', {
    data: { defaultDeliveryDays: [true, false, true, false, true, false, false] },
  })
  expect(days.status(), await days.text()).toBe(200)
  const proposed = await farmContext.request.put(`/api/proposals/${needId}/${farm.id}`, {
    data: { quantity: 30, price: 1.5 },
  })
  expect(proposed.status(), await proposed.text()).toBe(200)
  execFileSync(bin, ['jobs', 'run', 'notifications', '--data-dir', dataDir(), '--log-level', 'warn'])
  const digest = await outboxEmail('digest-', shop.email, { pick: (text) => text.includes(`need=${needId}`) })
  const path = /\/dis\/needs\?need=[A-Za-z0-9_-]+/.exec(digest)?.[0]
  expect(path, 'the email links to the need').toBe(`/dis/needs?need=${needId}`)
  return { path: path!, farm }
}

/** Keeps a screenshot of the page as an artifact of the test. */
async function keep(page: Page, info: TestInfo, name: string) {
  const path = info.outputPath(`touch-${name}.png`)
  await page.screenshot({ path })
  await info.attach(`touch-${name}`, { path, contentType: 'image/png' })
}

/** The page does not scroll sideways: nothing is wider than the screen. */
async function noSidewaysScroll(page: Page, what: string) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }))
  expect(
    widths.page,
    `${what}: the page is ${widths.page} px wide on a ${widths.screen} px screen`,
  ).toBeLessThanOrEqual(widths.screen)
}

for (const screen of SCREENS) {
  test.describe(`on a ${screen.name} phone`, () => {
    test.use({ viewport: screen.viewport, ...TOUCH })

    test('a farmer sends a claim on both lines of a delivery with taps only', async ({
      page,
      browser,
      baseURL,
    }, info) => {
      test.setTimeout(90_000)
      const month = monthStart(1)
      const shopContext = await browser.newContext({ baseURL })
      const shop = await register(shopContext, 'tactile-magasin', true)
      const farm = await register(page.context(), 'tactile-ferme', false)
      seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', month])
      const load: Load = await everyScreen(shopContext.request)
      await shopContext.close()
      const first = [...load.orders[0].deliveries].sort((a, b) => a.date.localeCompare(b.date))[0]
      // The delivery's day: locked at 12:00, done.
      // (Other tests' deliveries of that day are locked with it: at least one.)
      expect(runJob('deliveries', `${first.date}T12:30`)).toMatch(/livraisons verrouillées : [1-9]/)

      await page.goto('/prod/deliveries')
      await page.getByRole('tab', { name: 'Passées', exact: true }).tap()
      await page
        .getByRole('table', { name: 'Livraisons' })
        .getByRole('row', { name: new RegExp(`${first.chrono} Livrée`) })
        .tap()
      const sheet = page.getByRole('dialog', { name: 'Détail de la livraison' })
      const claim = sheet.getByRole('form', { name: "Demande d'avoir" })
      // Both lines of the delivery (lettuces first, then tomatoes), each type one tap, in view.
      for (const [product, unit, quantity, type] of [
        ['Tomate', 'kg', '-0,5', 'Qualité'],
        ['Laitue', 'un', '-1', 'Quantité'],
      ] as const) {
        const field = claim.getByLabel(`Quantité réclamée — ${product} (${unit})`)
        await field.tap()
        await field.fill(quantity)
        const choice = claim.getByRole('radiogroup', { name: `Type — ${product}` }).getByRole('radio', { name: type })
        await choice.scrollIntoViewIfNeeded()
        await expect(choice, `« ${type} » of « Type — ${product} » is off the screen`).toBeInViewport({ ratio: 1 })
        await choice.tap()
        await expect(choice).toBeChecked()
        await noSidewaysScroll(page, `the claim of « ${product} »`)
      }
      await keep(page, info, `${screen.name}-claim`)
      const send = claim.getByRole('button', { name: "Envoyer la demande d'avoir" })
      await expect(send).toBeEnabled()
      await send.tap()
      await expect(page.getByText("Demande d'avoir envoyée").first()).toBeVisible()
      await expect(sheet.getByText("Demande d'avoir envoyée, en attente de réponse")).toBeVisible()
      await expect(sheet.getByText('Tomate : -0,5 kg (Qualité)')).toBeVisible()
      await expect(sheet.getByText('Laitue : -1 un (Quantité)')).toBeVisible()
      await noSidewaysScroll(page, 'the sent claim')
    })
  })
}

for (const screen of SCREENS) {
  test.describe(`on a ${screen.name} phone`, () => {
    test.use({ viewport: screen.viewport, ...TOUCH })

    test('a shop moves a delivery to another day with taps only', async ({ page, browser, baseURL }, info) => {
      const month = monthStart(1)
      const shop = await register(page.context(), 'tactile-recep', true)
      const farmContext = await browser.newContext({ baseURL })
      const farm = await register(farmContext, 'tactile-livreur', false)
      await farmContext.close()
      seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', month])

      await page.goto('/dis/deliveries')
      await page.getByRole('tab', { name: 'À venir', exact: true }).tap()
      await page.getByRole('table', { name: 'Livraisons' }).getByRole('row').nth(1).tap()
      const sheet = page.getByRole('dialog', { name: 'Détail de la livraison' })
      const date = sheet.getByRole('button', { name: 'Date de livraison' })
      const before = await date.textContent()
      await date.tap()
      // The month's days, in view: the 20th of the delivery's month (two months forward at most).
      const [y, m] = month.split('-').map(Number)
      const label = new Intl.DateTimeFormat('fr-FR', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(Date.UTC(y, m - 1, 20)))
      const day = page.getByRole('button', { name: label, exact: true })
      // The calendar drawn before its days are looked at: isVisible does not wait, and a
      // calendar still opening would send the loop a month too far.
      await expect(page.locator('[data-direction="next"]').first()).toBeVisible()
      for (let i = 0; i < 2 && !(await day.isVisible()); i++) {
        const next = page.locator('[data-direction="next"]').first()
        await expect(next, 'the calendar’s next month is off the screen').toBeInViewport({ ratio: 1 })
        await next.tap()
      }
      await expect(day, 'the calendar’s days are off the screen').toBeInViewport({ ratio: 1 })
      await noSidewaysScroll(page, 'the calendar')
      await keep(page, info, `${screen.name}-delivery-date`)
      await day.tap()
      await expect(date).not.toHaveText(before ?? '')
      await sheet.getByRole('button', { name: 'Enregistrer' }).tap()
      await expect(page.getByText('Modification effectuée').first()).toBeVisible()
    })
  })
}

for (const screen of SCREENS) {
  test.describe(`on a ${screen.name} phone`, () => {
    test.use({ viewport: screen.viewport, ...TOUCH })

    test('a shop accepts a proposal opened from its email without scrolling', async ({
      page,
      browser,
      baseURL,
    }, info) => {
      const farmContext = await browser.newContext({ baseURL })
      const { path, farm } = await proposalEmailed(page.context(), farmContext, 'navet')
      await farmContext.close()

      await page.goto(path)
      const sheet = page.getByRole('dialog', { name: 'Détail du besoin' })
      const proposal = sheet.getByRole('article', { name: `Proposition de ${farm.name}` })
      await expect(proposal).toContainText('30 kg à 1,50 €/kg')
      await expect(sheet).toHaveCSS('opacity', '1') // risen
      // The answer the shop came for, in view as the sheet opens: nothing scrolled.
      const accept = proposal.getByRole('button', { name: 'Accepter' })
      await expect(accept, '« Accepter » is below the screen').toBeInViewport({ ratio: 1 })
      await expect(sheet.getByRole('heading', { name: 'Navet' })).toBeInViewport({ ratio: 1 })
      await keep(page, info, `${screen.name}-proposal-from-email`)
      await accept.tap()
      await expect(page.getByText('Votre réponse a été correctement enregistrée').first()).toBeVisible()
      await expect(sheet.getByRole('article', { name: `Engagement de ${farm.name}` })).toContainText(
        '30 kg à 1,50 €/kg',
      )
    })
  })
}

test.describe('at 1440×900', () => {
  test.use({ viewport: { width: 1440, height: 900 } })

  test('a shop accepts a proposal opened from its email without scrolling', async ({ page, browser, baseURL }) => {
    const farmContext = await browser.newContext({ baseURL })
    const { path, farm } = await proposalEmailed(page.context(), farmContext, 'navet')
    await farmContext.close()

    await page.goto(path)
    const pane = page.getByRole('complementary', { name: 'Détail du besoin' })
    const proposal = pane.getByRole('article', { name: `Proposition de ${farm.name}` })
    await expect(proposal).toContainText('30 kg à 1,50 €/kg')
    await expect(proposal.getByRole('button', { name: 'Accepter' }), '« Accepter » is below the fold').toBeInViewport({
      ratio: 1,
    })
    await proposal.getByRole('button', { name: 'Accepter' }).click()
    await expect(page.getByText('Votre réponse a été correctement enregistrée').first()).toBeVisible()
  })
})

for (const screen of SCREENS) {
  test.describe(`on a ${screen.name} phone`, () => {
    test.use({ viewport: screen.viewport, ...TOUCH })

    test('a farmer searches a postal code and sees the towns, then the shops, on the screen', async ({
      page,
    }, info) => {
      await register(page.context(), 'tactile-cherche', false)
      await page.goto('/')
      const search = page.getByRole('combobox', { name: 'Recherche par code postal' })
      await search.tap()
      await search.fill('74230')
      const town = page.getByRole('option', { name: 'Thônes (74230)', exact: true })
      await expect(town, 'the towns found are off the screen').toBeInViewport({ ratio: 1 })
      await expect(search).toBeInViewport({ ratio: 1 })
      await noSidewaysScroll(page, 'the towns found')
      await keep(page, info, `${screen.name}-postal-code-towns`)
      await town.tap()
      await expect(search).toHaveValue('Thônes (74230)')
      const results = page.getByRole('region', { name: /^Magasins à moins de 30 km d/ })
      await expect(results.getByRole('status'), 'the shops found are off the screen').toBeInViewport()
      await keep(page, info, `${screen.name}-postal-code-shops`)
    })
  })
}

/** Every screen of each role, as its bottom navigation and links reach them. */
const SCREENS_OF = {
  shop: ['/', '/dis/needs', '/dis/supply', '/dis/deliveries', '/dis/payments', '/accessibilite'],
  farm: ['/', '/prod/deliveries', '/prod/payments', '/about'],
} as const

for (const screen of SCREENS) {
  test.describe(`on a ${screen.name} phone`, () => {
    test.use({ viewport: screen.viewport, ...TOUCH })

    for (const role of ['shop', 'farm'] as const) {
      test(`the ${role}'s settings and « Quitter » are a tap away on every screen`, async ({ page }, info) => {
        test.setTimeout(120_000)
        const account = await register(page.context(), `tactile-compte-${role}`, role === 'shop')
        const menu = page.getByRole('banner').getByRole('button', { name: 'Mon compte', exact: true })
        for (const path of SCREENS_OF[role]) {
          await page.goto(path)
          await expect(menu, `${path}: no account menu`).toBeInViewport({ ratio: 1 })
          await menu.tap()
          const settings = page.getByRole('menuitem', { name: 'Mon profil et mes paramètres' })
          await expect(settings, `${path}: no settings`).toBeInViewport({ ratio: 1 })
          await expect(page.getByRole('menuitem', { name: 'Quitter' }), `${path}: no « Quitter »`).toBeInViewport({
            ratio: 1,
          })
          await expect(page.getByRole('menu').getByText(account.email)).toBeVisible()
          await noSidewaysScroll(page, `${path}: the account menu`)
          if (path === SCREENS_OF[role][1]) await keep(page, info, `${screen.name}-${role}-account-menu`)
          await page.keyboard.press('Escape')
        }
        // The settings from a screen other than the dashboard: the profile form, in view.
        await page.goto(SCREENS_OF[role][2])
        await menu.tap()
        await page.getByRole('menuitem', { name: 'Mon profil et mes paramètres' }).tap()
        await expect(page).toHaveURL(/\/$/)
        await expect(page.getByRole('form', { name: 'Informations de profil' })).toBeInViewport()
        // « Quitter » from another one: the session ends.
        await page.goto(SCREENS_OF[role][1])
        await menu.tap()
        await page.getByRole('menuitem', { name: 'Quitter' }).tap()
        await expect(page.getByTestId('session-status')).toHaveText('non connecté')
        expect((await page.request.get('/api/user')).status()).toBe(401)
      })
    }
  })
}

test.describe('at 1440×900, with the keyboard', () => {
  test.use({ viewport: { width: 1440, height: 900 } })

  test('the account menu opens, reaches « Quitter » and logs out with keys only', async ({ page }) => {
    const account = await register(page.context(), 'clavier-compte', true)
    await page.goto('/dis/deliveries')
    const menu = page.getByRole('banner').getByRole('button', { name: 'Mon compte', exact: true })
    await expect(page.getByTestId('session-status')).toHaveText(account.email)
    await menu.focus()
    await page.keyboard.press('Enter')
    // The menu button pattern of WAI-ARIA: the menu opens on its first item (no focus placeholder, issue 37).
    await expect(page.getByRole('menuitem', { name: 'Mon profil et mes paramètres' })).toBeFocused()
    // The owner's team (PRODUCT §13 "Teams"), then « Quitter ».
    await page.keyboard.press('ArrowDown')
    await expect(page.getByRole('menuitem', { name: 'Équipe' })).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(page.getByRole('menuitem', { name: 'Quitter' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('session-status')).toHaveText('non connecté')
  })
})
