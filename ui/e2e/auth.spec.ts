import { expect, loginThroughForm, registerThroughForm, test, uniqueAccount } from './fixtures'

test('a shop registers, sees its dashboard, logs out and logs back in', async ({ page }) => {
  const shop = uniqueAccount('magasin')

  await page.goto('/')
  await expect(page).toHaveURL(/\/landing$/)
  await expect(page.getByText('non connecté')).toBeVisible()

  await page.getByRole('link', { name: 'Pas encore de compte ?' }).click()
  await expect(page).toHaveURL(/\/landing\/register$/)
  await expect(page.getByRole('radio', { name: 'Distributeur' })).toBeChecked()
  await registerThroughForm(page, shop, 'Distributeur')

  // Dashboard of a shop: its email in the footer and the shop navigation.
  await expect(page.getByRole('button', { name: shop.email })).toBeVisible()
  expect(new URL(page.url()).pathname).toBe('/')
  const nav = page.getByRole('navigation', { name: 'Navigation principale' })
  await expect(nav.getByRole('link')).toHaveText(['Accueil', 'Planifier', 'Réasso.', 'Récep.', 'Payer'])
  await expect(page.evaluate(() => localStorage.getItem('primeur.email'))).resolves.toBe(shop.email)

  await page.getByRole('button', { name: 'Quitter' }).click()
  await expect(page).toHaveURL(/\/landing$/)
  await expect(page.getByText('non connecté')).toBeVisible()
  await expect(page.evaluate(() => localStorage.getItem('primeur.email'))).resolves.toBeNull()

  await page.goto('/landing/login')
  await loginThroughForm(page, { email: shop.email, password: 'mauvais-mot-2-passe' })
  await expect(page.getByText("L'adresse email ou le mot de passe saisis sont incorrects.")).toBeVisible()

  await loginThroughForm(page, shop)
  await expect(page.getByRole('button', { name: shop.email })).toBeVisible()
  expect(new URL(page.url()).pathname).toBe('/')
})

test('a protected route sends a visitor to login and back', async ({ page }) => {
  const shop = uniqueAccount('reception')
  await page.goto('/landing/register')
  await registerThroughForm(page, shop, 'Distributeur')
  await expect(page.getByRole('button', { name: shop.email })).toBeVisible()
  await page.getByRole('button', { name: 'Quitter' }).click()
  await expect(page).toHaveURL(/\/landing$/)

  await page.goto('/dis/needs')
  await expect(page).toHaveURL(/\/landing\/login$/)
  await expect(page.getByText('Vous devez vous connecter pour consulter la page /dis/needs')).toBeVisible()

  await loginThroughForm(page, shop)
  await expect(page).toHaveURL(/\/dis\/needs$/)
  const nav = page.getByRole('navigation', { name: 'Navigation principale' })
  await expect(nav.getByRole('link', { name: 'Planifier' })).toHaveAttribute('aria-current', 'page')
})

test('a stale session is rejected and the visitor asked to log in again', async ({ page, context }) => {
  await page.goto('/landing')
  await page.evaluate(() => localStorage.setItem('primeur.email', 'fantome@exemple.fr'))
  await context.clearCookies()
  await page.goto('/dis/supply')
  await expect(page).toHaveURL(/\/landing\/login$/)
  await expect(
    page.getByText(
      'Vos informations de connexion ont été rejetées par le serveur. Nous vous invitons donc à vous reconnecter',
    ),
  ).toBeVisible()
})
