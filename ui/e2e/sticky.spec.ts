// The sticky first column of the tables (components/sticky.ts, issue 19
// "Phone layouts") keeps its row's look: its cells are opaque, so that what
// scrolls under them does not show through, and they draw the row's own
// background over the page's colour — the highlight of the row under the
// pointer, a selection, a stripe. What is compared is what the screen
// shows: the colour of the sticky cell and of a cell of the same row, read
// from a screenshot, in their top padding where no text is.
//
// Each test makes its own accounts on the shared daemon and seeds them
// with tools/e2eseed's scenes (fixtures' seed).
import { type BrowserContext, type Locator, type Page, request } from '@playwright/test'
import { expect, seed, test, uniqueAccount } from './fixtures'

// A mouse, whose pointer highlights the row under it (highlightOnHover).
test.use({ viewport: { width: 1280, height: 900 } })

type RGB = [number, number, number]

/** The colours the page shows at these points of the viewport (CSS pixels), read from a screenshot. */
async function coloursAt(page: Page, points: { x: number; y: number }[]): Promise<RGB[]> {
  const png = await page.screenshot({ scale: 'css' })
  // Decoded by a blank page of the same browser (the app's page keeps its strict CSP).
  const blank = await page.context().newPage()
  try {
    return await blank.evaluate(
      async ({ data, points }) => {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0))
        const image = await createImageBitmap(new Blob([bytes], { type: 'image/png' }), {
          colorSpaceConversion: 'none',
          premultiplyAlpha: 'none',
        })
        const canvas = new OffscreenCanvas(image.width, image.height)
        const context = canvas.getContext('2d')!
        context.drawImage(image, 0, 0)
        return points.map(({ x, y }) => {
          const [r, g, b] = context.getImageData(Math.round(x), Math.round(y), 1, 1).data
          return [r, g, b] as RGB
        })
      },
      { data: png.toString('base64'), points },
    )
  } finally {
    await blank.close()
  }
}

/** The colour of a row's sticky first cell and of its `other`-th cell, 3 px under their top edge, in the middle. */
async function rowColours(page: Page, row: Locator, other = 2): Promise<{ sticky: RGB; other: RGB }> {
  const cells = row.locator(':scope > th, :scope > td')
  const spot = async (cell: Locator) => {
    const box = await cell.boundingBox()
    if (!box) throw new Error('a cell of the row is not drawn')
    return { x: box.x + box.width / 2, y: box.y + 3 }
  }
  const [sticky, second] = await coloursAt(page, [await spot(cells.first()), await spot(cells.nth(other))])
  return { sticky, other: second }
}

const WHITE: RGB = [255, 255, 255]
/** The largest difference between two colours' channels (compositing may round one of them by 1). */
const distance = (a: RGB, b: RGB) => Math.max(...a.map((c, i) => Math.abs(c - b[i])))

/** Checks the row's sticky cell looks like the rest of the row; `tinted`: the row is not the page's white. */
async function expectSameBackground(page: Page, row: Locator, what: string, tinted: boolean) {
  const { sticky, other } = await rowColours(page, row)
  expect(distance(sticky, other), `${what}: sticky cell ${sticky}, the row's other cell ${other}`).toBeLessThanOrEqual(
    2,
  )
  if (tinted) expect(distance(other, WHITE), `${what}: the row is not highlighted (${other})`).toBeGreaterThan(4)
  else expect(distance(other, WHITE), `${what}: the row is not white (${other})`).toBeLessThanOrEqual(2)
}

/** Registers an account through the API in `context` (its pages then open signed in). */
async function register(context: BrowserContext, prefix: string, distributor: boolean) {
  const account = uniqueAccount(prefix)
  const res = await context.request.post('/auth/register', { data: { ...account, distributor } })
  expect(res.status(), await res.text()).toBe(201)
  await context.addInitScript((email) => window.localStorage.setItem('primeur.email', email), account.email)
  return account
}

/** A producer registered apart (only its email is needed, for a scene). */
async function producer(baseURL: string | undefined, prefix: string) {
  const account = uniqueAccount(prefix)
  const api = await request.newContext({ baseURL })
  const res = await api.post('/auth/register', { data: { ...account, distributor: false } })
  expect(res.status(), await res.text()).toBe(201)
  await api.dispose()
  return account
}

/** The first day of next month in Paris, "2026-12-01". */
function nextMonth(): string {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  return new Date(Date.UTC(year, m, 1)).toISOString().slice(0, 10)
}

test('the deliveries’ partner column follows its row: under the pointer, selected, neither', async ({
  page,
  baseURL,
}) => {
  const shop = await register(page.context(), 'collant-livraisons', true)
  const farm = await producer(baseURL, 'collant-livreur')
  seed('orders', ['--shop', shop.email, '--producer', farm.email, '--month', nextMonth()])

  await page.goto('/dis/deliveries')
  await page.getByRole('tab', { name: 'À venir', exact: true }).click()
  const table = page.getByRole('table', { name: 'Livraisons' })
  const first = table.getByRole('row').nth(1)
  const second = table.getByRole('row').nth(2)
  await expect(second).toBeVisible()

  // Away from the table: every row white, the sticky cells too.
  await page.mouse.move(5, 5)
  await expectSameBackground(page, first, 'a row at rest', false)

  // Under the pointer: the row's highlight, the sticky cell included.
  await first.getByRole('cell').nth(2).hover()
  await expectSameBackground(page, first, 'the row under the pointer', true)

  // Selected (its note beside the table), then under the pointer: the selection's colour, which wins.
  await second.click()
  await expect(second).toHaveAttribute('aria-selected', 'true')
  await page.mouse.move(5, 5)
  await expectSameBackground(page, second, 'the selected row', true)
  await second.getByRole('cell').nth(2).hover()
  await expectSameBackground(page, second, 'the selected row under the pointer', true)
  // And the row left behind is white again.
  await expectSameBackground(page, first, 'the row the pointer left', false)
})

test('the progression’s product column follows its row: stripes, and the row under the pointer', async ({
  page,
  baseURL,
}) => {
  const shop = await register(page.context(), 'collant-progression', true)
  const farm = await producer(baseURL, 'collant-progression-ferme')
  seed('progression', ['--shop', shop.email, '--producer', farm.email])

  await page.goto('/')
  const table = page.getByRole('region', { name: 'Progression de vos achats' }).getByTestId('progression-table')
  const rows = table.locator('tbody > tr')
  // The total first (a striped row), then the products (the scene's one, tomatoes), every other one striped.
  await expect(rows.nth(1)).toBeVisible()
  const total = rows.nth(0)
  const plain = rows.nth(1)
  await total.scrollIntoViewIfNeeded()
  await page.mouse.move(5, 5)
  await expectSameBackground(page, total, 'a striped row at rest', true)
  await expectSameBackground(page, plain, 'a plain row at rest', false)

  await plain.getByRole('cell').nth(2).hover()
  await expectSameBackground(page, plain, 'a plain row under the pointer', true)
  await total.getByRole('cell').nth(2).hover()
  await expectSameBackground(page, total, 'a striped row under the pointer', true)
  // The highlight is not the stripe: the pointer's row is darker than the one it left.
  const { other: highlighted } = await rowColours(page, total)
  await page.mouse.move(5, 5)
  const { other: striped } = await rowColours(page, total)
  expect(highlighted[0], 'the highlight of a striped row').toBeLessThan(striped[0])
})
