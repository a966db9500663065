// The map by viewport (issue 20, PRODUCT §2 "Map"): on a platform whose
// area around Annecy holds more shops than the map lists (400, seeded in
// bulk by tools/e2eseed's shops scene), a producer's dashboard shows them
// as numbered clusters; a click on one zooms in on its shops; a pin opens
// the shop's page, named though the producer does not trade with it.
// Every answer of the map is the real daemon's (GET /api/map).
//
// Its own daemon (a11y.ts): the shared daemon's other specs draw a few
// shops on the same map and must keep seeing them as pins.
import { test } from '@playwright/test'
import { OwnDaemon, axeScan, registerAccount, report } from './a11y'
import { expect, watchProblems } from './fixtures'

const daemon = new OwnDaemon()
const SHOPS = 400

test.beforeAll(async () => {
  await daemon.start()
  // A disc of 55 km around Annecy: all of it in the map's first view.
  expect(
    daemon.seed('shops', [
      '--count',
      String(SHOPS),
      '--password',
      'carte-e2e-1',
      '--prefix',
      'Magasin carte',
      '--slug',
      'carte',
      '--radius',
      '0.5',
    ]),
  ).toBe(String(SHOPS))
})

test.afterAll(async () => {
  await daemon.stop()
})

test('a producer zooms from clusters to shops, and opens a shop it does not trade with yet', async ({ browser }) => {
  test.setTimeout(120_000)
  const context = await browser.newContext({
    baseURL: daemon.baseURL,
    viewport: { width: 1280, height: 800 },
    locale: 'fr-FR',
  })
  const page = await context.newPage()
  const problems: string[] = []
  watchProblems(page, problems)
  await registerAccount(daemon, context, 'carte-ferme', false)
  const maps: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/map') maps.push(r.url())
  })
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Planifier mes ventes' })).toBeVisible()

  // Too many shops in view: clusters, whose counts add up to them, and no pin.
  const map = page.getByTestId('shop-map')
  const clusters = map.getByRole('button', { name: /magasins? : zoomer sur ce groupe$/ })
  await expect(clusters.first()).toBeVisible()
  const counts = (await clusters.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))))) as number[]
  expect(counts.length).toBeGreaterThan(3)
  expect(counts.reduce((a, b) => a + b, 0)).toBe(SHOPS)
  await expect(map.getByRole('link')).toHaveCount(0)
  await expect(page.getByRole('button', { name: `Liste des magasins de la carte (${SHOPS})` })).toBeVisible()
  // The map asked for what it shows, at its zoom.
  expect(new URL(maps[0]).searchParams.get('zoom')).toBe('1')
  // The screen with its clusters passes the accessibility gate's rules.
  const findings = (await axeScan(page, 'dashboard with clusters')).filter((f) =>
    ['serious', 'critical'].includes(f.impact),
  )
  expect(findings, report(findings)).toEqual([])

  // A click on the largest cluster zooms in on it: its shops, as pins.
  const largest = counts.indexOf(Math.max(...counts))
  await clusters.nth(largest).click()
  await expect(map).toHaveAttribute('data-zoom', '4')
  const pins = map.getByRole('link')
  await expect(pins.first()).toBeVisible()
  await expect(map.getByRole('button', { name: /zoomer sur ce groupe/ })).toHaveCount(0)
  expect(new URL(maps.at(-1)!).searchParams.get('zoom')).toBe('4')
  // The list under the map follows the view: the shops drawn in it.
  const drawn = await pins.count()
  await page.getByRole('button', { name: /^Liste des magasins de la carte \(\d+\)$/ }).click()
  const listed = page.getByTestId('shop-list').getByRole('listitem')
  expect(await listed.count()).toBeGreaterThan(0)
  expect(await listed.count()).toBeLessThanOrEqual(drawn)

  // Its tooltip gives its score; a click opens its page, named by the server.
  const first = pins.first()
  const name = (await first.getAttribute('aria-label'))!
  expect(name).toMatch(/^Magasin carte \d{3}$/)
  await first.hover()
  await expect(page.getByRole('tooltip')).toHaveText(`Score de ${name} : 0pts`)
  await first.click()
  await expect(page).toHaveURL(/\/prod\/needs\/[^/]+$/)
  await expect(page.getByRole('heading', { name })).toBeVisible()
  expect(problems, 'errors in the page').toEqual([])
  await context.close()
})

test('a cluster zooms in with the keyboard too', async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: daemon.baseURL,
    viewport: { width: 1280, height: 800 },
    locale: 'fr-FR',
  })
  const page = await context.newPage()
  const problems: string[] = []
  watchProblems(page, problems)
  await registerAccount(daemon, context, 'carte-clavier', false)
  await page.goto('/')
  const map = page.getByTestId('shop-map')
  const cluster = map.getByRole('button', { name: /zoomer sur ce groupe$/ }).first()
  await expect(cluster).toBeVisible()
  await cluster.focus()
  await page.keyboard.press('Enter')
  await expect(map).not.toHaveAttribute('data-zoom', '1')
  expect(problems, 'errors in the page').toEqual([])
  await context.close()
})
