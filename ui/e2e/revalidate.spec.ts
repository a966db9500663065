// Unchanged data costs nothing (issue 42): a screen opened again asks for its
// data with the ETag of the answer the page holds, and the daemon answers 304
// with no body; the screen shows the same data.
import { expect, registerThroughForm, test, uniqueAccount } from './fixtures'

test('a screen opened again revalidates its data and gets a 304 with no body', async ({ page }) => {
  const payments: { status: number; bytes: number; ifNoneMatch: string | undefined }[] = []
  page.on('response', async (r) => {
    if (new URL(r.url()).pathname !== '/api/payments' || r.request().method() !== 'GET') return
    const body = r.status() === 304 ? Buffer.alloc(0) : await r.body()
    payments.push({
      status: r.status(),
      bytes: body.length,
      ifNoneMatch: (await r.request().headerValue('if-none-match')) ?? undefined,
    })
  })
  const shop = uniqueAccount('revalide')
  await page.goto('/landing/register')
  await registerThroughForm(page, shop, 'Distributeur')
  await expect(page.getByRole('button', { name: shop.email })).toBeVisible()

  const nav = page.getByRole('navigation', { name: 'Navigation principale' })
  await nav.getByRole('link', { name: 'Payer' }).click()
  await expect(page).toHaveURL(/\/dis\/payments$/)
  await expect.poll(() => payments.length).toBe(1)
  expect(payments[0]).toMatchObject({ status: 200, ifNoneMatch: undefined })
  const heading = page.getByRole('heading', { level: 1 })
  const shown = await heading.textContent()

  await nav.getByRole('link', { name: 'Accueil' }).click()
  await expect(page).toHaveURL(/\/$/)
  await nav.getByRole('link', { name: 'Payer' }).click()
  await expect(page).toHaveURL(/\/dis\/payments$/)
  await expect.poll(() => payments.length).toBe(2)
  expect(payments[1].status).toBe(304)
  expect(payments[1].bytes).toBe(0)
  expect(payments[1].ifNoneMatch).toMatch(/^W\/"/)
  await expect(heading).toHaveText(shown ?? '')
})
