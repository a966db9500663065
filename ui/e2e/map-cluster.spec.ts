// A cluster of the map at its largest zoom (issue 37): zooming in no more,
// a tap on it did nothing. On a platform whose area holds more shops than
// the map lists even at its largest zoom (two quarters of 200 shops each,
// seeded in bulk by tools/e2eseed's shops scene), a farmer on a phone taps
// a cluster, which zooms in on them, then a cluster at the largest zoom,
// which lists its shops over the map, each linked to its needs. Every
// answer of the map is the real daemon's (GET /api/map).
//
// Its own daemon (a11y.ts): the shared daemon's other specs draw a few
// shops on their maps and must keep seeing them as pins.
import { test } from '@playwright/test'
import { BLOCKING, OwnDaemon, axeScan, registerAccount, report } from './a11y'
import { expect, watchProblems } from './fixtures'

const daemon = new OwnDaemon()
/** Two quarters of Brest, 6 km apart: 400 shops in one view at the largest zoom. */
const QUARTERS = [
  { lat: 48.39, lon: -4.52 },
  { lat: 48.39, lon: -4.44 },
]
const PER_QUARTER = 200

test.beforeAll(async () => {
  await daemon.start()
  QUARTERS.forEach(({ lat, lon }, i) =>
    expect(
      daemon.seed('shops', [
        '--count',
        String(PER_QUARTER),
        '--password',
        'grappe-e2e-1',
        '--prefix',
        `Grappe ${i + 1}`,
        '--slug',
        `grappe${i + 1}`,
        '--lat',
        String(lat),
        '--lon',
        String(lon),
        '--radius',
        '0.004',
      ]),
    ).toBe(String(PER_QUARTER)),
  )
})

test.afterAll(async () => {
  await daemon.stop()
})

test('a farmer on a phone taps a cluster at the largest zoom and reaches one of its shops', async ({ browser }) => {
  test.setTimeout(120_000)
  const context = await browser.newContext({
    baseURL: daemon.baseURL,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    locale: 'fr-FR',
  })
  const page = await context.newPage()
  const problems: string[] = []
  watchProblems(page, problems)
  // The farm between the two quarters: its map opens there.
  await registerAccount(daemon, context, 'grappe-ferme', false, { latitude: '48.39000', longitude: '-4.48000' })
  // The answers of the map at the largest zoom.
  let largest = 0
  page.on('response', (r) => {
    const url = new URL(r.url())
    if (url.pathname === '/api/map' && url.searchParams.get('zoom') === '4' && r.ok()) largest++
  })
  await page.goto('/')
  const map = page.getByTestId('shop-map')
  await map.scrollIntoViewIfNeeded()

  // Clusters: a tap zooms in on one, until the largest zoom, where they still are clusters.
  for (let step = 0; step < 4 && (await map.getAttribute('data-zoom')) !== '4'; step++) {
    const zoomable = map.getByRole('button', { name: /magasins? : zoomer sur ce groupe$/ })
    await expect(zoomable.first()).toBeVisible()
    const before = await map.getAttribute('data-zoom')
    await zoomable.first().locator('circle').last().tap()
    await expect(map).not.toHaveAttribute('data-zoom', before!)
  }
  await expect(map).toHaveAttribute('data-zoom', '4')
  // Its answer drawn: 400 shops in view, more than the map lists, still as clusters.
  await expect.poll(() => largest).toBeGreaterThan(0)
  await expect(map).toHaveAttribute('aria-busy', 'false')
  const clusters = map.getByRole('button', { name: /magasins? : voir la liste de ce groupe$/ })
  await expect(clusters.first()).toBeVisible()
  await expect(map.getByRole('button', { name: /zoomer sur ce groupe$/ })).toHaveCount(0)
  const cluster = clusters.first()
  const count = Number(await cluster.getAttribute('data-count'))
  expect(count).toBeGreaterThan(1)
  expect(count).toBeLessThanOrEqual(300)
  await expect(cluster).toHaveAttribute('aria-expanded', 'false')
  const center = await map.getAttribute('data-center')

  // A tap lists its shops over the map, each linked to its needs; the map stays.
  await cluster.locator('circle').last().tap()
  const list = page.getByRole('region', { name: `${count} magasins dans ce groupe` })
  await expect(list).toBeVisible()
  const links = list.getByRole('link', { name: /^Voir ses besoins : Grappe [12] \d{3}$/ })
  await expect(links).toHaveCount(count)
  await expect(map).toHaveAttribute('data-zoom', '4')
  await expect(map).toHaveAttribute('data-center', center!)
  await expect(clusters.first()).toHaveAttribute('aria-expanded', 'true')
  const findings = (await axeScan(page, 'carte, magasins d’un groupe')).filter((f) => BLOCKING.has(f.impact))
  expect(findings, report(findings)).toEqual([])

  // A tap on one opens its needs, named by the server.
  const name = (await links.first().getAttribute('aria-label'))!.replace(/^Voir ses besoins : /, '')
  await links.first().tap()
  await expect(page).toHaveURL(/\/prod\/needs\/[^/]+$/)
  await expect(page.getByRole('heading', { name })).toBeVisible()
  expect(problems, 'errors in the page').toEqual([])
  await context.close()
})
