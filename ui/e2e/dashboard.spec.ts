// The dashboard in a real browser against the real daemon (PRODUCT §2
// "Dashboard", "Map", "Rewards panel", "Activity feed"; §4 map zoom).
import { type APIRequestContext, type Browser, type Page, request } from '@playwright/test'
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect, loginThroughForm, test, uniqueAccount, watchProblems } from './fixtures'
import { freePort, stop, waitHealthy } from './global-setup'

interface Account {
  email: string
  password: string
  name: string
  id: string
  api: APIRequestContext
}

/** Registers an account through the API (and sets profile fields), keeping its session for later calls. */
async function account(
  baseURL: string,
  prefix: string,
  shop: boolean,
  profile: Record<string, unknown> = {},
): Promise<Account> {
  const a = uniqueAccount(prefix)
  const api = await request.newContext({ baseURL })
  const res = await api.post('/auth/register', {
    data: { email: a.email, password: a.password, name: a.name, distributor: shop },
  })
  expect(res.status(), await res.text()).toBe(201)
  const { user } = await res.json()
  if (Object.keys(profile).length > 0) {
    const put = await api.put('/api/user', { data: profile })
    expect(put.status(), await put.text()).toBe(200)
  }
  return { ...a, id: user._id, api }
}

async function logIn(page: Page, a: { email: string; password: string }) {
  await page.goto('/landing/login')
  await loginThroughForm(page, a)
  await expect(page.getByRole('button', { name: a.email })).toBeVisible()
  await expect(page.getByTestId('shop-map')).toBeVisible()
}

const map = (page: Page) => page.getByTestId('shop-map')
const pin = (page: Page, id: string) => page.locator(`[data-testid="shop-marker"][data-shop-id="${id}"]`)
const DEFAULT_CENTER = '6.1213,45.9016'

test.describe('map', () => {
  let shop: Account
  let hidden: Account
  let farm: Account

  test.beforeAll(async () => {
    const baseURL = process.env.PRIMEUR_E2E_BASE_URL!
    shop = await account(baseURL, 'carte-magasin', true, { latitude: '45.9009', longitude: '6.1265' })
    hidden = await account(baseURL, 'carte-sans-position', true, { latitude: '45.95' }) // no longitude
    farm = await account(baseURL, 'carte-ferme', false)
  })

  test('a producer sees the map, reads a score and opens a shop from its pin', async ({ page }) => {
    await logIn(page, farm)
    await expect(page.getByRole('heading', { name: 'Planifier mes ventes' })).toBeVisible()
    await expect(
      page.getByText('Je choisis un magasin sur la carte, je visualise ses besoins et je propose mes produits.'),
    ).toBeVisible()
    // Cities of the reference around the default centre.
    await expect(map(page).getByText('Annecy', { exact: true })).toBeVisible()
    // The shop without longitude is not drawn; the other one is, with its name.
    await expect(pin(page, hidden.id)).toHaveCount(0)
    const marker = page.getByRole('link', { name: shop.name })
    await expect(marker).toBeVisible()
    await expect(map(page).getByText(shop.name)).toBeVisible()
    // The real score (no trade yet: 0 points), once the scores are loaded.
    await marker.hover()
    await expect(page.getByRole('tooltip')).toHaveText(`Score de ${shop.name} : 0pts`)
    await marker.click()
    await expect(page).toHaveURL(new RegExp(`/prod/needs/${shop.id}$`))
  })

  test('a shop cannot click markers', async ({ page }) => {
    await logIn(page, shop)
    const marker = pin(page, shop.id)
    await expect(marker).toBeVisible()
    await expect(page.getByRole('link', { name: shop.name })).toHaveCount(0)
    await expect(marker).toHaveCSS('cursor', 'default')
    await marker.click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByRole('heading', { name: 'Planifier mes ventes' })).toHaveCount(0)
  })

  test('zoom buttons double and halve within 0.5 and 4', async ({ page }) => {
    await logIn(page, farm)
    const zoomIn = page.getByRole('button', { name: 'Zoom avant' })
    const zoomOut = page.getByRole('button', { name: 'Zoom arrière' })
    await expect(map(page)).toHaveAttribute('data-zoom', '1')
    await zoomIn.click()
    await expect(map(page)).toHaveAttribute('data-zoom', '2')
    await zoomIn.click()
    await expect(map(page)).toHaveAttribute('data-zoom', '4')
    await expect(zoomIn).toBeDisabled()
    await zoomOut.click()
    await zoomOut.click()
    await zoomOut.click()
    await expect(map(page)).toHaveAttribute('data-zoom', '0.5')
    await expect(zoomOut).toBeDisabled()
    await expect(zoomIn).toBeEnabled()
  })

  test('without geolocation the map stays at the default centre and cannot re-centre', async ({ page }) => {
    // The default context grants no permission: Chromium denies the request.
    await logIn(page, farm)
    const recenter = page.getByRole('button', { name: 'Centrer sur ma position' })
    await expect(map(page)).toHaveAttribute('data-center', DEFAULT_CENTER)
    await expect(recenter).toBeDisabled()
    // Dragging still moves the map.
    await drag(page, 120, 60)
    await expect(map(page)).not.toHaveAttribute('data-center', DEFAULT_CENTER)
    await expect(recenter).toBeDisabled()
  })

  test('with geolocation the map centres on the position and re-centres after a drag', async ({ browser, baseURL }) => {
    const { page, problems } = await pageWithPosition(browser, baseURL!, { latitude: 46.0, longitude: 6.25 })
    await logIn(page, farm)
    await expect(map(page)).toHaveAttribute('data-center', '6.2500,46.0000')
    const recenter = page.getByRole('button', { name: 'Centrer sur ma position' })
    await expect(recenter).toBeEnabled()
    await drag(page, -150, 80)
    await expect(map(page)).not.toHaveAttribute('data-center', '6.2500,46.0000')
    await recenter.click()
    await expect(map(page)).toHaveAttribute('data-center', '6.2500,46.0000')
    expect(problems, 'errors in the page').toEqual([])
    await page.context().close()
  })
})

test('a shop overseas opens its map on its own commune, on a phone the browser places in Paris', async ({
  browser,
  baseURL,
}, info) => {
  const shop = await account(baseURL!, 'carte-outremer', true)
  // Its commune as the daemon's place reference has it: Pointe-à-Pitre, Guadeloupe.
  const found = await shop.api.get('/api/places', { params: { q: '97110', limit: 1 } })
  expect(found.status(), await found.text()).toBe(200)
  const [place] = (await found.json()).places as {
    name: string
    department: string
    latitude: number
    longitude: number
  }[]
  expect([place.name, place.department]).toEqual(['Pointe-à-Pitre', '971'])
  const saved = await shop.api.put('/api/user', {
    data: {
      addressLine3: '97110 Pointe-à-Pitre',
      latitude: place.latitude.toFixed(5),
      longitude: place.longitude.toFixed(5),
    },
  })
  expect(saved.status(), await saved.text()).toBe(200)

  // A phone whose position is Paris's (an overseas line is often placed there).
  const context = await browser.newContext({
    baseURL,
    locale: 'fr-FR',
    timezoneId: 'America/Guadeloupe',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    geolocation: { latitude: 48.8566, longitude: 2.3522 },
    permissions: ['geolocation'],
  })
  const page = await context.newPage()
  const problems: string[] = []
  watchProblems(page, problems)
  const login = await context.request.post('/auth/login', { data: { email: shop.email, password: shop.password } })
  expect(login.status(), await login.text()).toBe(200)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), shop.email)
  await page.goto('/')

  await expect(map(page)).toHaveAttribute(
    'data-center',
    `${Number(place.longitude.toFixed(5)).toFixed(4)},${Number(place.latitude.toFixed(5)).toFixed(4)}`,
  )
  await expect(page.getByRole('button', { name: 'Centrer sur ma position' })).toBeEnabled()
  const own = pin(page, shop.id)
  await own.scrollIntoViewIfNeeded()
  await expect(own).toBeInViewport({ ratio: 1 })
  const frame = (await map(page).boundingBox())!
  const at = (await own.locator('path').boundingBox())!
  // The pin's point (the bottom of its shape, its white outline's tip a few pixels below) in the middle of the map.
  expect(Math.abs(at.x + at.width / 2 - (frame.x + frame.width / 2))).toBeLessThan(2)
  expect(Math.abs(at.y + at.height - (frame.y + frame.height / 2))).toBeLessThan(5)
  await page.screenshot({ path: info.outputPath('map-overseas-phone.png') })
  // Its list names it without a metropolitan town.
  await page.getByRole('button', { name: /^Liste des magasins de la carte \(\d+\)$/ }).tap()
  await expect(page.getByTestId('shop-list').getByRole('listitem').filter({ hasText: shop.name })).toHaveText(
    `${shop.name} (vous)`,
  )
  await context.close()
  expect(problems, 'errors in the page').toEqual([])
})

async function pageWithPosition(
  browser: Browser,
  baseURL: string,
  geolocation: { latitude: number; longitude: number },
) {
  const context = await browser.newContext({
    baseURL,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    geolocation,
    permissions: ['geolocation'],
  })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (err) => problems.push(err.message))
  return { page, problems }
}

/** Drags the map by (dx, dy) pixels from its middle. */
async function drag(page: Page, dx: number, dy: number) {
  // The first steps and the search sit above the map: bring it into view first.
  await map(page).scrollIntoViewIfNeeded()
  const box = (await map(page).boundingBox())!
  // Start away from the pins and the buttons: the left third, lower half.
  const x = box.x + box.width / 3
  const y = box.y + (box.height * 2) / 3
  await page.mouse.move(x, y)
  await page.mouse.down()
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 })
  await page.mouse.move(x + dx, y + dy, { steps: 4 })
  await page.mouse.up()
}

test('the activity modal lists the events in French and pages back with "Voir plus"', async ({ page, baseURL }) => {
  const shop = await account(baseURL!, 'activites', true)
  // 52 needs, 52 events: more than the 50 of the user load.
  const year = new Date().getFullYear() + 1
  const products = ['tomate', 'poire', 'carotte', 'pomme']
  for (let i = 0; i < 52; i++) {
    const month = `${year + Math.floor(i / 48)}-${String((i % 12) + 1).padStart(2, '0')}`
    const res = await shop.api.post('/api/needs', {
      data: { product: products[Math.floor(i / 12) % 4], date: month, quantity: 12.5 },
    })
    expect(res.status(), await res.text()).toBe(201)
  }
  await logIn(page, shop)
  await page.getByRole('button', { name: 'Activités' }).click()
  const dialog = page.getByRole('dialog', { name: 'Activités' })
  await expect(dialog.getByText(`Vous avez créé un besoin de 12,5 kg de Pomme pour avril ${year}.`)).toBeVisible()
  await expect(dialog.getByTestId('activity-entry')).toHaveCount(50)
  await expect(dialog.getByText('vous', { exact: true }).first()).toBeVisible()
  // The oldest two come with "Voir plus", which then goes away.
  await expect(dialog.getByText(`Vous avez créé un besoin de 12,5 kg de Tomate pour janvier ${year}.`)).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Voir plus' }).click()
  await expect(dialog.getByText(`Vous avez créé un besoin de 12,5 kg de Tomate pour janvier ${year}.`)).toBeVisible()
  await expect(dialog.getByTestId('activity-entry')).toHaveCount(52)
  await expect(dialog.getByRole('button', { name: 'Voir plus' })).toHaveCount(0)
})

test('a shop reads its standing and pledges a contribution', async ({ page, baseURL }) => {
  const shop = await account(baseURL!, 'ambassadeur', true)
  await logIn(page, shop)
  await expect(page.getByRole('heading', { name: 'Soutien financier' })).toBeVisible()
  await expect(page.getByTestId('rewards-level')).toHaveText('Sympathisant')
  await expect(page.getByRole('heading', { name: 'Score équitable' })).toBeVisible()
  await expect(page.getByTestId('rewards-score')).toHaveText('0 pts')
  await expect(page.getByTestId('rewards-months')).toHaveText('0')
  await expect(page.getByRole('progressbar', { name: 'Progression vers Militant' })).toHaveAttribute(
    'aria-valuenow',
    '0',
  )

  await page.getByRole('button', { name: 'Devenir ambassadeur' }).click()
  const dialog = page.getByRole('dialog', { name: 'Programme ambassadeur' })
  await expect(dialog.getByText('le prélèvement sera mis en place prochainement')).toBeVisible()
  const amount = dialog.getByLabel('Contribution mensuelle (€)')
  await amount.fill('5')
  await amount.blur()
  await expect(
    dialog.getByText('La contribution minimale est de 10 € par mois, pour couvrir les frais bancaires.'),
  ).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Enregistrer mon engagement' })).toBeDisabled()
  await amount.fill('25,50')
  await dialog.getByRole('button', { name: 'Enregistrer mon engagement' }).click()
  await expect(
    page.getByText('Engagement enregistré : le prélèvement sera mis en place prochainement', { exact: false }).first(),
  ).toBeVisible()
  await expect(dialog.getByText(/Votre engagement actuel : 25,50\s€ par mois/)).toBeVisible()

  // The second view: the four levels, and the way back.
  await dialog.getByRole('button', { name: 'Voir les 4 niveaux de participation' }).click()
  const table = dialog.getByRole('table', { name: 'Niveaux de participation' })
  await expect(table.getByRole('row')).toHaveCount(5)
  await expect(table.getByRole('row', { name: /Sympathisant \(votre niveau\)/ })).toBeVisible()
  await expect(table.getByText('Super Ambassadeur certifié')).toBeVisible()
  await dialog.getByRole('button', { name: '← Retour' }).click()
  await expect(dialog.getByTestId('rewards-explanation')).toBeVisible()
  await page.keyboard.press('Escape')

  // Stored: after a reload the card shows the pledge (no purchases yet: still Sympathisant).
  await page.reload()
  await expect(page.getByText(/Votre contribution :/)).toContainText(/25,50\s€ par mois/)
  await expect(page.getByTestId('rewards-level')).toHaveText('Sympathisant')
  await expect(page.getByRole('button', { name: 'Modifier ma contribution' })).toBeVisible()
})

// Screenshots of both dashboards on the demo world (`primeur serve --demo`
// on its own data directory). They land in test-results/, and in
// docs/screenshots/ when PRIMEUR_SCREENSHOTS=1.
test.describe('screenshots', () => {
  let daemon: ChildProcess
  let dir: string
  let demoURL: string

  test.beforeAll(async () => {
    const bin = resolve(process.env.PRIMEUR_BIN ?? resolve(process.cwd(), '..', 'bin', 'primeur'))
    dir = mkdtempSync(join(tmpdir(), 'primeur-demo-'))
    const port = await freePort()
    demoURL = `http://127.0.0.1:${port}`
    daemon = spawn(bin, ['serve', '--demo', '--addr', `127.0.0.1:${port}`, '--data-dir', dir], {
      env: { ...process.env, PRIMEUR_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    await waitHealthy(demoURL, daemon)
  })

  test.afterAll(async () => {
    if (daemon) await stop(daemon)
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  for (const [role, email, file] of [
    ['shop', 'epicerie-du-lac@demo.primeur.fr', 'dashboard-shop.png'],
    ['producer', 'ferme-des-glieres@demo.primeur.fr', 'dashboard-producer.png'],
  ] as const) {
    test(`dashboard of the ${role}`, async ({ browser }, info) => {
      const context = await browser.newContext({
        baseURL: demoURL,
        viewport: { width: 1280, height: 800 },
        locale: 'fr-FR',
        timezoneId: 'Europe/Paris',
      })
      const page = await context.newPage()
      await logIn(page, { email, password: 'primeur2026' })
      if (role === 'shop') await expect(page.getByTestId('rewards-panel')).toBeVisible()
      else await expect(page.getByRole('heading', { name: 'Planifier mes ventes' })).toBeVisible()
      // The chart is drawn.
      await expect(page.getByTestId('purchases-chart').locator('[data-drawn="true"] canvas').first()).toBeVisible({
        timeout: 20_000,
      })
      await expect(page.getByText('Utilisateur chargé')).toBeHidden({ timeout: 10_000 })
      await page.mouse.move(0, 0)
      const shot = await page.screenshot()
      await info.attach(file, { body: shot, contentType: 'image/png' })
      // The whole page too, for review (test-results/ only).
      await page.screenshot({ path: info.outputPath(file.replace('.png', '-full.png')), fullPage: true })
      if (process.env.PRIMEUR_SCREENSHOTS === '1') {
        const out = resolve(process.cwd(), '..', 'docs', 'screenshots')
        mkdirSync(out, { recursive: true })
        await page.screenshot({ path: join(out, file) })
      }
      await context.close()
    })
  }
})
