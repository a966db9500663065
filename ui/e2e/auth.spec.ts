import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { dataDir, expect, loginThroughForm, registerThroughForm, test, uniqueAccount } from './fixtures'

/**
 * The password reset link emailed to `email`: the daemon writes its emails
 * to the outbox of its data directory (no SMTP server in these tests);
 * quoted-printable soft line breaks are undone. It waits for the email,
 * sent after the answer.
 */
async function resetLinkFor(email: string): Promise<string> {
  const outbox = join(dataDir(), 'outbox')
  for (let i = 0; i < 100; i++) {
    let files: string[] = []
    try {
      files = readdirSync(outbox).filter((f) => f.startsWith('reset-') && f.endsWith('.eml'))
    } catch {
      // No email yet.
    }
    for (const f of files) {
      const text = readFileSync(join(outbox, f), 'utf8').replace(/=\r\n/g, '')
      if (!text.includes(`To: <${email}>`)) continue
      const link = /(http:\/\/\S+\/landing\/reset#[A-Za-z0-9_-]{40,})/.exec(text)?.[1]
      if (link) return link
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no reset email to ${email}`)
}

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

test('a producer who forgot its password gets a link by email, sets a new one and logs in', async ({
  page,
  baseURL,
}) => {
  const farm = uniqueAccount('ferme')
  expect((await page.request.post('/auth/register', { data: { ...farm, distributor: false } })).status()).toBe(201)
  await page.request.get('/auth/logout')

  await page.goto('/landing/login')
  await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click()
  await expect(page).toHaveURL(/\/landing\/forgot$/)
  await page.getByLabel('Adresse email').fill(farm.email.toUpperCase())
  await page.getByRole('button', { name: 'Recevoir le lien' }).click()
  await expect(
    page.getByText(/^Si un compte existe avec cette adresse, un email vient de lui être envoyé/),
  ).toBeVisible()

  const link = await resetLinkFor(farm.email)
  expect(link.startsWith(`${baseURL}/landing/reset#`)).toBe(true)
  await page.goto(link)
  const password = `${farm.password}X9`
  await page.getByLabel('Nouveau mot de passe', { exact: true }).fill(password)
  await page.getByLabel('Confirmation du nouveau mot de passe').fill(password)
  await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click()
  await expect(page.getByText('Votre mot de passe a été modifié. Connectez-vous avec le nouveau.')).toBeVisible()

  // The link served once; the old password no longer opens the account, the new one does.
  await page.reload()
  await page.getByLabel('Nouveau mot de passe', { exact: true }).fill(password)
  await page.getByLabel('Confirmation du nouveau mot de passe').fill(password)
  await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click()
  await expect(
    page.getByText("Ce lien n'est plus valable : il a déjà servi ou a expiré. Demandez-en un nouveau.").first(),
  ).toBeVisible()
  await page.getByRole('link', { name: 'Demander un nouveau lien' }).click()
  await page.goto('/landing/login')
  await loginThroughForm(page, farm)
  await expect(page.getByText("L'adresse email ou le mot de passe saisis sont incorrects.")).toBeVisible()
  await loginThroughForm(page, { email: farm.email, password })
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible()
})
