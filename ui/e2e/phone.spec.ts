// The interface on a 390×844 phone (issue 19 "Phone layouts"): what a
// buyer and a farmer see first, with a screenshot of each screen kept as
// an artifact (test-results/…/phone-*.png).
import type { Page, TestInfo } from '@playwright/test'
import { expect, registerThroughForm, test, uniqueAccount } from './fixtures'

test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })

/** Every item of the bottom navigation shows its whole label, inside the screen. */
async function navigationFits(page: Page, labels: string[], info: TestInfo, name: string) {
  const nav = page.getByRole('navigation', { name: 'Navigation principale' })
  await expect(nav).toBeVisible()
  for (const label of labels) {
    const item = nav.getByText(label, { exact: true })
    await expect(item).toBeVisible()
    const fits = await item.evaluate((el) => {
      const box = el.getBoundingClientRect()
      return el.scrollWidth <= el.clientWidth + 1 && box.left >= 0 && box.right <= window.innerWidth
    })
    expect(fits, `« ${label} » is cut or off screen`).toBe(true)
  }
  await page.screenshot({ path: info.outputPath(`phone-${name}.png`) })
}

test('the shop’s bottom navigation shows every label on a phone', async ({ page }, info) => {
  await page.goto('/landing/register')
  await registerThroughForm(page, uniqueAccount('tel-magasin'), 'Distributeur')
  await navigationFits(
    page,
    ['Accueil', 'Planifier', 'Réasso.', 'Récep.', 'Payer', 'Activités'],
    info,
    'shop-dashboard',
  )
})

test('the farmer’s bottom navigation shows every label on a phone', async ({ page }, info) => {
  await page.goto('/landing/register')
  await registerThroughForm(page, uniqueAccount('tel-ferme'), 'Producteur')
  await navigationFits(page, ['Accueil', 'Vendre', 'Livrer', 'Encaisser', 'Activités'], info, 'farm-dashboard')
})
