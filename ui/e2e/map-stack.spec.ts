// Two shops registered with the same postal code sit on their commune's
// very point (issue 37, finding 5): on a phone, with touch alone, a farmer
// taps their stack on the map, which spreads them, and reaches each shop's
// needs; no label of the map covers another, none is cut by its edges (the
// boxes Chromium draws them in). The phone's list in the map's place names
// both, each linked to its needs.
import { type APIRequestContext, type Browser, type Page, request } from '@playwright/test'
import { BLOCKING, axeScan, report } from './a11y'
import { expect, test, uniqueAccount, watchProblems } from './fixtures'

/** The accessibility gate's serious and critical findings on what the page shows. */
async function blocking(page: Page, screen: string) {
  return (await axeScan(page, screen)).filter((f) => BLOCKING.has(f.impact))
}

const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  locale: 'fr-FR',
} as const

/** Mende (Lozère): a commune no other test places anyone in. */
const POSTAL_CODE = '48000'
/** Aurillac (Cantal): another, for the stack at the map's edge. */
const EDGE_POSTAL_CODE = '15000'
const COMMUNES: Record<string, string> = { [POSTAL_CODE]: 'Mende', [EDGE_POSTAL_CODE]: 'Aurillac' }

interface Account {
  email: string
  password: string
  name: string
  id: string
  api: APIRequestContext
  latitude: number
  longitude: number
}

/** Registers through the API and places the account on the commune of a postal code, as the profile form does. */
async function placed(baseURL: string, prefix: string, shop: boolean, code = POSTAL_CODE): Promise<Account> {
  const a = uniqueAccount(prefix)
  const api = await request.newContext({ baseURL })
  const res = await api.post('/auth/register', {
    data: { email: a.email, password: a.password, name: a.name, distributor: shop },
  })
  expect(res.status(), await res.text()).toBe(201)
  const { user } = await res.json()
  const found = await api.get('/api/places', { params: { q: code, limit: 1 } })
  expect(found.status(), await found.text()).toBe(200)
  const [place] = (await found.json()).places as { name: string; latitude: number; longitude: number }[]
  expect(place.name).toBe(COMMUNES[code])
  const put = await api.put('/api/user', {
    data: {
      addressLine3: `${code} ${place.name}`,
      latitude: place.latitude.toFixed(5),
      longitude: place.longitude.toFixed(5),
    },
  })
  expect(put.status(), await put.text()).toBe(200)
  return { ...a, id: user._id, api, latitude: place.latitude, longitude: place.longitude }
}

/** The boxes of the map's labels as Chromium lays them out, and the map's own. */
/** The farm logged in on a phone, its dashboard (and map) open, the page's problems watched. */
async function farmOnPhone(browser: Browser, baseURL: string, farm: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL, ...PHONE })
  const page = await context.newPage()
  const problems: string[] = []
  watchProblems(page, problems)
  const login = await context.request.post('/auth/login', { data: { email: farm.email, password: farm.password } })
  expect(login.status(), await login.text()).toBe(200)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), farm.email)
  await page.goto('/')
  return { context, page, problems }
}

async function labelBoxes(page: Page) {
  return page.getByTestId('shop-map').evaluate((svg) => {
    const frame = svg.getBoundingClientRect()
    // Labels are the texts drawn over a halo (ShopMap's Label).
    const labels = Array.from(svg.querySelectorAll('text[paint-order="stroke"]')).map((t) => {
      const r = t.getBoundingClientRect()
      return { text: t.textContent ?? '', x0: r.left, y0: r.top, x1: r.right, y1: r.bottom }
    })
    return { frame: { x0: frame.left, y0: frame.top, x1: frame.right, y1: frame.bottom }, labels }
  })
}

async function expectLabelsClear(page: Page) {
  const { frame, labels } = await labelBoxes(page)
  expect(labels.length).toBeGreaterThan(0)
  for (const l of labels) {
    expect(l.x0, `${l.text} cut on the left`).toBeGreaterThanOrEqual(frame.x0)
    expect(l.x1, `${l.text} cut on the right`).toBeLessThanOrEqual(frame.x1)
    expect(l.y0, `${l.text} cut at the top`).toBeGreaterThanOrEqual(frame.y0)
    expect(l.y1, `${l.text} cut at the bottom`).toBeLessThanOrEqual(frame.y1)
  }
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++) {
      const [a, b] = [labels[i], labels[j]]
      const apart = a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0
      expect(apart, `"${a.text}" covers "${b.text}"`).toBe(true)
    }
}

test('two shops of one postal code are each reached from the map by taps on a phone', async ({
  browser,
  baseURL,
}, info) => {
  test.setTimeout(120_000)
  const first = await placed(baseURL!, 'pile-epicerie', true)
  const second = await placed(baseURL!, 'pile-primeur', true)
  // The farm in the same town: its map opens there.
  const farm = await placed(baseURL!, 'pile-ferme', false)

  const { context, page, problems } = await farmOnPhone(browser, baseURL!, farm)

  const map = page.getByTestId('shop-map')
  const stack = map.getByRole('button', { name: '2 magasins à cet endroit' })
  await stack.scrollIntoViewIfNeeded()
  await expect(stack).toHaveAttribute('aria-expanded', 'false')
  // One marker for the two: neither shop's pin is drawn apart.
  await expect(map.getByRole('link', { name: first.name })).toHaveCount(0)
  await expect(map.getByRole('link', { name: second.name })).toHaveCount(0)
  await expectLabelsClear(page)

  for (const shop of [first, second]) {
    // A tap on the stack spreads the two shops around it, each its own pin, clear of the other.
    await map.getByRole('button', { name: '2 magasins à cet endroit' }).locator('path').last().tap()
    await expect(map.getByRole('button', { name: '2 magasins à cet endroit' })).toHaveAttribute('aria-expanded', 'true')
    const pins = [first, second].map((s) => map.getByRole('link', { name: s.name }))
    const [a, b] = await Promise.all(pins.map(async (p) => (await p.locator('path').boundingBox())!))
    const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y
    expect(apart, 'the two pins spread apart').toBe(true)
    for (const p of pins) await expect(p).toBeInViewport()
    await expectLabelsClear(page)
    await expect(map.getByText(first.name)).toBeVisible()
    await expect(map.getByText(second.name)).toBeVisible()
    await map.screenshot({ path: info.outputPath('map-stack-spread.png') })
    if (shop === first) {
      const findings = await blocking(page, 'carte, magasins écartés')
      expect(findings, report(findings)).toEqual([])
    }

    // A tap on a pin opens that shop's needs.
    await map.getByRole('link', { name: shop.name }).locator('path').tap()
    await expect(page).toHaveURL(new RegExp(`/prod/needs/${shop.id}$`))
    await expect(page.getByRole('heading', { name: shop.name })).toBeVisible()
    await page.goBack()
    await expect(map).toBeVisible()
  }

  // "Liste" puts the list of what the map shows in its place: both shops, each linked to its needs.
  await page
    .locator('label')
    .filter({ hasText: /^Liste$/ })
    .tap()
  await expect(map).toBeHidden()
  const listed = page.getByTestId('shop-list').getByRole('listitem')
  await expect(listed.filter({ hasText: first.name })).toHaveCount(1)
  const findings = await blocking(page, 'carte en liste')
  expect(findings, report(findings)).toEqual([])
  await listed.filter({ hasText: second.name }).getByRole('link').tap()
  await expect(page).toHaveURL(new RegExp(`/prod/needs/${second.id}$`))
  await expect(page.getByRole('heading', { name: second.name })).toBeVisible()
  expect(problems, 'errors in the page').toEqual([])
  await context.close()
  for (const a of [first, second, farm]) await a.api.dispose()
})

test('a stack at the edge of a phone’s map spreads its shops inside the map, each reached by a tap', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const shops = [
    await placed(baseURL!, 'bord-epicerie', true, EDGE_POSTAL_CODE),
    await placed(baseURL!, 'bord-primeur', true, EDGE_POSTAL_CODE),
    await placed(baseURL!, 'bord-halle', true, EDGE_POSTAL_CODE),
  ]
  const [{ latitude, longitude }] = shops
  // The farm 54 km west of the town: on a phone's map (358 pixels wide at
  // zoom 1, 0.32 km a pixel), the town's stack about 170 pixels right of
  // the middle, 10 from the edge, where a spread ring crosses it.
  const farm = uniqueAccount('bord-ferme')
  const farmApi = await request.newContext({ baseURL })
  const res = await farmApi.post('/auth/register', {
    data: { email: farm.email, password: farm.password, name: farm.name, distributor: false },
  })
  expect(res.status(), await res.text()).toBe(201)
  const west = longitude - 54 / (111.2 * Math.cos((latitude * Math.PI) / 180))
  const put = await farmApi.put('/api/user', {
    data: { latitude: latitude.toFixed(5), longitude: west.toFixed(5) },
  })
  expect(put.status(), await put.text()).toBe(200)

  const { context, page, problems } = await farmOnPhone(browser, baseURL!, farm)

  const map = page.getByTestId('shop-map')
  const stack = map.getByRole('button', { name: '3 magasins à cet endroit' })
  await stack.scrollIntoViewIfNeeded()
  await expect(stack).toHaveAttribute('aria-expanded', 'false')
  const frame = (await map.boundingBox())!
  const closed = (await stack.boundingBox())!
  // Near enough that, spread where it stands, its right pin (28 pixels right of it, 11 wide each side) would be cut.
  expect(closed.x + closed.width, 'the stack near the right edge').toBeGreaterThan(frame.x + frame.width - 20)

  for (const shop of shops) {
    await map.getByRole('button', { name: '3 magasins à cet endroit' }).locator('path').last().tap()
    await expect(map.getByRole('button', { name: '3 magasins à cet endroit' })).toHaveAttribute('aria-expanded', 'true')
    // Every spread pin whole inside the map and the screen (the map moved to show them).
    const pins = shops.map((s) => map.getByRole('link', { name: s.name }))
    for (const p of pins) {
      const box = (await p.locator('path').boundingBox())!
      expect(box.x, 'a pin cut on the left').toBeGreaterThanOrEqual(frame.x)
      expect(box.x + box.width, 'a pin cut on the right').toBeLessThanOrEqual(frame.x + frame.width)
      expect(box.y, 'a pin cut at the top').toBeGreaterThanOrEqual(frame.y)
      expect(box.y + box.height, 'a pin cut at the bottom').toBeLessThanOrEqual(frame.y + frame.height)
      await expect(p).toBeInViewport({ ratio: 1 })
    }
    await expectLabelsClear(page)
    // A tap on each opens that shop's needs.
    await map.getByRole('link', { name: shop.name }).locator('path').tap()
    await expect(page).toHaveURL(new RegExp(`/prod/needs/${shop.id}$`))
    await expect(page.getByRole('heading', { name: shop.name })).toBeVisible()
    await page.goBack()
    await expect(map).toBeVisible()
  }
  expect(problems, 'errors in the page').toEqual([])
  await context.close()
  for (const a of shops) await a.api.dispose()
  await farmApi.dispose()
})
