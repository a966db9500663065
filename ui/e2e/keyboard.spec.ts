// The keyboard-only journey (issue 19, WCAG 2.1.1 "Keyboard" and 2.4.7
// "Focus visible"; RGAA 12.13, 10.7): a shop plans a need, a producer
// proposes on it, the shop accepts, the producer's claim on a delivery is
// reviewed by the shop — with Tab, Shift+Tab, Enter, Space and the arrows
// only, never the mouse. At every step the focused element is in view and
// draws a focus indicator (an outline of 2 px or more, or a box shadow).
//
// Its own daemon (a11y.ts): a delivery is made done with the daemon's job.
import { type Browser, type BrowserContext, type Locator, type Page, test } from '@playwright/test'
import { cellField, expect, needCell, readOnlyCell, watchProblems } from './fixtures'
import { OwnDaemon, monthLabel, monthStart, registerAccount } from './a11y'
import { everyScreen } from './reads'

const daemon = new OwnDaemon()
// The need is planned next month. The grid is one tab stop (the WAI-ARIA
// "Data Grid" pattern): Tab enters it on its selected cell, the arrows move
// and select, Tab leaves it for the detail pane with the selection kept.
const MONTH = monthStart(1)

test.beforeAll(async () => {
  await daemon.start()
})

test.afterAll(async () => {
  await daemon.stop()
})

/** What the focused element shows: where it is and its focus indicator. */
interface Focus {
  what: string
  inView: boolean
  indicator: string
}

async function focused(page: Page): Promise<Focus | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body || el === document.documentElement) return null
    const rect = el.getBoundingClientRect()
    const style = getComputedStyle(el)
    const outline =
      style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2
        ? `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`
        : ''
    const shadow = style.boxShadow && style.boxShadow !== 'none' ? `box-shadow ${style.boxShadow}` : ''
    const name = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent
    return {
      what: `<${el.tagName.toLowerCase()}${el.getAttribute('role') ? ` role=${el.getAttribute('role')}` : ''}> ${(name ?? '').trim().slice(0, 60)}`,
      inView:
        rect.width > 0 &&
        rect.height > 0 &&
        rect.bottom > 0 &&
        rect.right > 0 &&
        rect.top < window.innerHeight &&
        rect.left < window.innerWidth,
      indicator: outline || shadow,
    }
  })
}

/** The focused element is in view and has a focus indicator. */
async function expectVisibleFocus(page: Page, step: string) {
  const focus = await focused(page)
  expect(focus, `${step}: something has the focus`).not.toBeNull()
  expect(focus!.inView, `${step}: ${focus!.what} is in view`).toBe(true)
  expect(focus!.indicator, `${step}: ${focus!.what} shows a focus indicator`).not.toBe('')
}

/** Presses a key, then checks the focus (the page moves it on some keys: give it a moment). */
async function press(page: Page, key: string, step = key) {
  await page.keyboard.press(key)
  await page.waitForTimeout(50)
  await expectVisibleFocus(page, `${step} (${key})`)
}

/**
 * Presses a key that sends something (the control is disabled meanwhile,
 * which takes the focus away), waits for the outcome, then checks where the
 * focus went.
 */
async function send(page: Page, key: string, step: string, outcome: () => Promise<unknown>) {
  await page.keyboard.press(key)
  await outcome()
  await page.waitForTimeout(100)
  await expectVisibleFocus(page, `${step} (${key}), once done`)
}

/**
 * Tab (or Shift+Tab) until `target` has the focus, each stop checked; at
 * most `max` presses.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  const key = back ? 'Shift+Tab' : 'Tab'
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key)
    await expectVisibleFocus(page, `towards ${target}, stop ${i + 1}`)
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return
  }
  throw new Error(`${target} not reached with ${max} × ${key}`)
}

async function openAs(browser: Browser, email: string, state: Awaited<ReturnType<BrowserContext['storageState']>>) {
  const context = await browser.newContext({
    baseURL: daemon.baseURL,
    viewport: { width: 1280, height: 800 },
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    storageState: state,
  })
  await context.addInitScript((e) => window.localStorage.setItem('primeur.email', e), email)
  const page = await context.newPage()
  const problems: string[] = []
  watchProblems(page, problems)
  return { context, page, problems }
}

test('plan, propose, accept and review a claim with the keyboard only, the focus always visible', async ({
  browser,
}) => {
  test.setTimeout(180_000)
  const setup = await browser.newContext({ baseURL: daemon.baseURL })
  const shopSetup = await browser.newContext({ baseURL: daemon.baseURL })
  const shop = await registerAccount(daemon, shopSetup, 'epicerie-clavier', true, {
    latitude: '45.9009',
    longitude: '6.1265',
  })
  const farm = await registerAccount(daemon, setup, 'ferme-clavier', false, {
    latitude: '45.95',
    longitude: '6.2',
    defaultDeliveryDays: [true, true, true, true, true, true, true],
  })
  const shopState = await shopSetup.storageState()
  const farmState = await setup.storageState()
  await shopSetup.close()

  // 1. The shop plans a need: Tomate, next month, 40 kg, through "Ajouter un besoin".
  const s = await openAs(browser, shop.email, shopState)
  await s.page.goto('/dis/needs')
  await expect(s.page.getByText('Macache')).toBeVisible()
  // The first stop is the skip link.
  await press(s.page, 'Tab', 'skip link')
  await expect(s.page.getByRole('link', { name: 'Aller au contenu' })).toBeFocused()
  await tabTo(s.page, s.page.getByRole('button', { name: 'Ajouter un besoin' }))
  await press(s.page, 'Enter', 'open the form')
  const single = s.page.getByRole('form', { name: 'Ajouter un besoin' })
  await expect(single).toBeVisible()
  const product = single.getByRole('combobox', { name: 'Produit' })
  if (!(await product.evaluate((el) => el === document.activeElement))) await tabTo(s.page, product, { max: 5 })
  await s.page.keyboard.type('tomat')
  await press(s.page, 'ArrowDown', 'product options')
  await expect(s.page.getByRole('option', { name: 'Tomate', exact: true })).toBeVisible()
  // The option wanted is Tomate: go down until it is the one marked.
  for (let i = 0; i < 6; i++) {
    const selected = await s.page
      .getByRole('option', { name: 'Tomate', exact: true })
      .getAttribute('data-combobox-selected')
    if (selected !== null) break
    await press(s.page, 'ArrowDown', 'product options')
  }
  await press(s.page, 'Enter', 'pick Tomate')
  await expect(product).toHaveValue('Tomate')
  const month = single.getByRole('combobox', { name: 'Mois' })
  await tabTo(s.page, month, { max: 5 })
  await press(s.page, 'ArrowDown', 'month options')
  for (let i = 0; i < 14; i++) {
    const option = s.page.getByRole('option', { name: monthLabel(MONTH), exact: true })
    if ((await option.getAttribute('data-combobox-selected')) !== null) break
    await press(s.page, 'ArrowDown', 'month options')
  }
  await press(s.page, 'Enter', 'pick the month')
  await expect(month).toHaveValue(monthLabel(MONTH))
  await tabTo(s.page, single.getByLabel('Quantité'), { max: 5 })
  await s.page.keyboard.type('40')
  await tabTo(s.page, single.getByRole('button', { name: 'Ajouter' }), { max: 5 })
  await send(s.page, 'Enter', 'add the need', async () => {
    await expect(s.page.getByText('Création effectuée').first()).toBeVisible()
    await expect(single).toBeHidden()
  })
  // The focus came back to the button that opened the form.
  await expect(s.page.getByRole('button', { name: 'Ajouter un besoin' })).toBeFocused()
  const shopCell = needCell(s.page, 'Tomate', monthLabel(MONTH))
  await expect(shopCell).toHaveText('40')
  // Then corrected in the grid, one tab stop: Tab enters it, an arrow moves
  // to the need, a typed digit edits it, Enter saves and gives the focus back.
  const shopGrid = s.page.getByRole('grid')
  await tabTo(s.page, shopGrid.locator('[tabindex="0"]'), { max: 6 })
  await press(s.page, 'ArrowRight', 'to the need')
  await expect(shopCell).toBeFocused()
  await s.page.keyboard.type('45')
  await expectVisibleFocus(s.page, 'typing in the cell')
  await expect(cellField(s.page, 'Tomate', monthLabel(MONTH))).toHaveValue('45')
  await send(s.page, 'Enter', 'save the cell', () =>
    expect(s.page.getByText('Modification effectuée').first()).toBeVisible(),
  )
  await expect(shopCell).toBeFocused()
  await expect(shopCell).toHaveText('45')

  // 2. The producer proposes 40 kg at 2,50 €: the grid is one tab stop, arrows select.
  const f = await openAs(browser, farm.email, farmState)
  // It finds the shop on the map: its pin is a link, reached with Tab, opened with Enter.
  await f.page.goto('/')
  await expect(f.page.getByRole('heading', { name: 'Planifier mes ventes' })).toBeVisible()
  const pin = f.page.getByTestId('shop-map').getByRole('link', { name: shop.name })
  await tabTo(f.page, pin)
  // A new page: the focus starts from its top, as after any page load.
  await f.page.keyboard.press('Enter')
  await expect(f.page).toHaveURL(`/prod/needs/${shop.id}`)
  const grid = f.page.getByRole('grid')
  await expect(grid).toBeVisible()
  await tabTo(f.page, grid.getByRole('gridcell').and(f.page.locator('[tabindex="0"]')).first())
  const target = readOnlyCell(f.page, 'Tomate', monthLabel(MONTH))
  for (let i = 0; i < 10 && !(await target.evaluate((el) => el === document.activeElement)); i++)
    await press(f.page, 'ArrowRight', 'to the need')
  await expect(target).toBeFocused()
  await expect(target).toHaveAttribute('aria-selected', 'true')
  const pane = f.page.getByRole('complementary', { name: 'Détail du besoin' })
  const proposal = pane.getByRole('form', { name: 'Proposer' })
  await expect(proposal).toBeVisible()
  // Tab leaves the grid (one tab stop) for the detail pane.
  await tabTo(f.page, proposal.getByLabel('Quantité (kg)'), { max: 10 })
  await f.page.keyboard.type('40')
  await press(f.page, 'Tab', 'to the price')
  await f.page.keyboard.type('2,5')
  await tabTo(f.page, proposal.getByRole('button', { name: 'Proposer' }), { max: 5 })
  await send(f.page, 'Enter', 'propose', () =>
    expect(f.page.getByText(/(Création|Modification) effectuée/).first()).toBeVisible(),
  )
  // The focus is on the negotiation, which shows the proposal sent.
  await expect(pane.getByRole('group', { name: 'Ma négociation' })).toBeFocused()

  // 3. The shop accepts: the grid, the need, then the proposal's "Accepter".
  await s.page.reload()
  await tabTo(s.page, s.page.getByRole('grid').locator('[tabindex="0"]'))
  for (let i = 0; i < 10 && !(await shopCell.evaluate((el) => el === document.activeElement)); i++)
    await press(s.page, 'ArrowRight', 'to the need')
  await expect(shopCell).toBeFocused()
  // Tab leaves the grid, the need still selected.
  const shopPane = s.page.getByRole('complementary', { name: 'Détail du besoin' })
  const offer = shopPane.getByRole('article', { name: `Proposition de ${farm.name}` })
  await expect(offer).toBeVisible()
  await tabTo(s.page, offer.getByRole('button', { name: 'Accepter' }))
  await send(s.page, 'Enter', 'accept', () =>
    expect(shopPane.getByRole('article', { name: /Engagement/ }).first()).toBeVisible(),
  )
  await expect(shopPane.getByRole('group', { name: `Négociation avec ${farm.name}` })).toBeFocused()

  // 4. The first delivery is done; the producer claims 1 kg less (through the API, it is not the journey's point).
  const load = (await everyScreen(f.context.request)) as {
    orders: { _id: string; deliveries: { _id: string; date: string; deliveryLines: { _id: string }[] }[] }[]
  }
  const order = load.orders[0]
  const first = [...order.deliveries].sort((a, b) => a.date.localeCompare(b.date))[0]
  daemon.runJob('deliveries', `${first.date}T12:30`)
  const claim = await f.context.request.put(`/api/deliveries/claim/${order._id}/${first._id}`, {
    data: {
      deliveryLines: [
        { _id: first.deliveryLines[0]._id, quantityClaimed: -1, claimType: 'quality', claimComment: 'Abîmées' },
      ],
    },
  })
  expect(claim.status(), await claim.text()).toBe(200)

  // 5. The shop reviews the claim: the "Passées" tab (arrows), the delivery's row (Enter), "Accepter l'avoir".
  await s.page.goto('/dis/deliveries')
  await expect(s.page.getByRole('heading', { name: 'Livraisons passées et futures' })).toBeVisible()
  const tabs = s.page.getByRole('tab')
  await tabTo(s.page, tabs.and(s.page.locator('[aria-selected="true"]')))
  const past = s.page.getByRole('tab', { name: 'Passées', exact: true })
  for (let i = 0; i < 4 && !(await past.evaluate((el) => el === document.activeElement)); i++)
    await press(s.page, 'ArrowRight', 'to "Passées"')
  await press(s.page, 'Space', 'choose "Passées"')
  await expect(past).toHaveAttribute('aria-selected', 'true')
  const row = s.page.getByRole('table', { name: 'Livraisons' }).getByRole('row').filter({ hasText: 'Livrée' }).first()
  await tabTo(s.page, row)
  await press(s.page, 'Enter', 'open the delivery note')
  const note = s.page.getByRole('region', { name: 'Bon de livraison' })
  await expect(note.getByText("Demande d'avoir reçue, en attente de réponse")).toBeVisible()
  await tabTo(s.page, note.getByRole('button', { name: "Accepter l'avoir" }))
  // Shift+Tab goes back and forth too.
  await press(s.page, 'Shift+Tab', 'back')
  await press(s.page, 'Tab', 'forth')
  await expect(note.getByRole('button', { name: "Accepter l'avoir" })).toBeFocused()
  await send(s.page, 'Enter', 'accept the claim', () =>
    expect(note.getByText("Demande d'avoir reçue, acceptée")).toBeVisible(),
  )
  await expect(note).toBeFocused()

  expect([...s.problems, ...f.problems], 'errors in the pages').toEqual([])
  await s.context.close()
  await f.context.close()
  await setup.close()
})
