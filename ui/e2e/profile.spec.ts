import { readFileSync } from 'node:fs'
import { expect, loginThroughForm, registerThroughForm, test, uniqueAccount } from './fixtures'

test('a producer registers and sets its delivery days in the profile form', async ({ page }) => {
  const farm = uniqueAccount('ferme')
  await page.goto('/landing/producer')
  await expect(page.getByRole('radio', { name: 'Producteur' })).toBeChecked()
  await expect(page.getByText('vous confiez à Primeur un mandat de facturation')).toBeVisible()
  await registerThroughForm(page, farm, 'Producteur')

  const nav = page.getByRole('navigation', { name: 'Navigation principale' })
  await expect(nav.getByRole('link')).toHaveText(['Vendre', 'Livrer', 'Encaisser'])

  await page.getByRole('button', { name: farm.email }).click()
  const form = page.getByRole('form', { name: 'Informations de profil' })
  await expect(form).toBeVisible()
  // A new producer has no delivery day yet: the form says so at once.
  await expect(form.getByText('Vous devez choisir au moins un jour de livraison')).toBeVisible()
  const save = form.getByRole('button', { name: 'Enregistrer' })
  await expect(save).toBeDisabled()

  await form.getByPlaceholder('Choisir au moins un jour...').click()
  await page.getByRole('option', { name: 'Mardi' }).click()
  await page.getByRole('option', { name: 'Vendredi' }).click()
  await page.keyboard.press('Escape')
  await form.getByLabel('Téléphone').fill('06 12 34 56 78')
  await form.getByLabel('Longitude').fill('-1.5536')
  await expect(save).toBeEnabled()
  await save.click()
  await expect(page.getByText('Modification effectuée')).toBeVisible()

  // The saved values come back from the daemon after a reload.
  await page.reload()
  await page.getByRole('button', { name: farm.email }).click()
  await expect(page.getByLabel('Téléphone')).toHaveValue('0612345678')
  await expect(page.getByLabel('Longitude')).toHaveValue('-1.5536')
  await expect(form.getByText('Mardi')).toBeVisible()
  await expect(form.getByText('Vendredi')).toBeVisible()
  await expect(form.getByText('Vous devez choisir au moins un jour de livraison')).toBeHidden()

  // Its payment terms: 5 days after the end of the month, a 2 % discount within 10 days.
  const terms = page.getByRole('form', { name: 'Conditions de paiement' })
  await terms.getByText('Après la fin du mois').click()
  await terms.getByLabel('Délai (jours)').fill('5')
  await terms.getByLabel('Escompte pour paiement anticipé (%)').fill('2')
  await terms.getByLabel('Escompte si payé sous (jours)').fill('10')
  await terms.getByRole('button', { name: 'Enregistrer les conditions' }).click()
  await expect(page.getByText('Modification effectuée').first()).toBeVisible()
  await page.reload()
  await page.getByRole('button', { name: farm.email }).click()
  await expect(terms.getByLabel('Délai (jours)')).toHaveValue('5')
  await expect(terms.getByLabel('Escompte pour paiement anticipé (%)')).toHaveValue('2')
})

test('a shop changes its password, downloads its data and closes its account from the profile', async ({ page }) => {
  const shop = uniqueAccount('magasin')
  await page.goto('/landing/register')
  await registerThroughForm(page, shop, 'Distributeur')
  await page.getByRole('button', { name: shop.email }).click()

  // The password, with the current one.
  const change = page.getByRole('form', { name: 'Mot de passe' })
  const password = `${shop.password}Z7`
  await change.getByLabel('Mot de passe actuel').fill(shop.password)
  await change.getByLabel('Nouveau mot de passe', { exact: true }).fill(password)
  await change.getByLabel('Confirmation du nouveau mot de passe').fill(password)
  await change.getByRole('button', { name: 'Changer le mot de passe' }).click()
  await expect(change.getByText('Votre mot de passe a été modifié. Vos autres sessions sont fermées.')).toBeVisible()

  // Its data, as a zip.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Télécharger mes données' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^primeur-mes-donnees-\d{4}-\d{2}-\d{2}\.zip$/)
  const zip = readFileSync((await download.path())!)
  expect(zip.subarray(0, 2).toString()).toBe('PK')
  expect(zip.toString('latin1')).toContain('compte.json')

  // Closing: the old password is refused, the new one closes it.
  const close = page.getByRole('form', { name: 'Supprimer mon compte' })
  await close.getByRole('button', { name: 'Supprimer mon compte…' }).click()
  await close.getByLabel('Mot de passe actuel').fill(shop.password)
  await close.getByRole('button', { name: 'Supprimer définitivement' }).click()
  await expect(close.getByText('Le mot de passe actuel est incorrect.')).toBeVisible()
  await close.getByLabel('Mot de passe actuel').fill(password)
  await close.getByRole('button', { name: 'Supprimer définitivement' }).click()
  await expect(page).toHaveURL(/\/landing$/)
  await page.goto('/landing/login')
  await loginThroughForm(page, { email: shop.email, password })
  await expect(page.getByText("L'adresse email ou le mot de passe saisis sont incorrects.")).toBeVisible()
})
