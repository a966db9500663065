import { expect, registerThroughForm, test, uniqueAccount } from './fixtures'

test('a producer registers and sets its delivery days in the profile form', async ({ page }) => {
  const farm = uniqueAccount('ferme')
  await page.goto('/landing/producer')
  await expect(page.getByRole('radio', { name: 'Producteur' })).toBeChecked()
  await expect(page.getByText('vous confiez à Primeur un mandat de facturation')).toBeVisible()
  await registerThroughForm(page, farm, 'Producteur')

  const nav = page.getByRole('navigation', { name: 'Navigation principale' })
  await expect(nav.getByRole('link')).toHaveText(['Accueil', 'Vendre', 'Livrer', 'Encaisser'])

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
