// No payment redirection (PRODUCT §13 "Changing the bank details", issue 32):
// in a real browser against the real daemon, a producer's new IBAN asks its
// current password in the profile form; a wrong one is refused under its
// field and changes nothing; the right one saves it, and the confirmed
// login address is emailed the change with the IBAN masked but its last 4
// characters.
import { confirmEmail, expect, outboxEmail, registerThroughForm, test, uniqueAccount } from './fixtures'

test('a producer changes its IBAN with its password, and is emailed the change', async ({ page }) => {
  const farm = uniqueAccount('ferme-iban')
  await page.goto('/landing/producer')
  await registerThroughForm(page, farm, 'Producteur')
  await confirmEmail(page.request, farm.email)

  await page.getByRole('button', { name: farm.email }).click()
  const form = page.getByRole('form', { name: 'Informations de profil' })
  const bank = form.getByRole('group', { name: 'Coordonnées bancaires' })
  const save = form.getByRole('button', { name: 'Enregistrer' })
  await form.getByPlaceholder('Choisir au moins un jour...').click()
  await page.getByRole('option', { name: 'Mardi' }).click()
  await page.keyboard.press('Escape')
  await expect(bank.getByLabel('Mot de passe actuel')).toBeHidden()

  // A new IBAN: the password is asked, and needed to save.
  await bank.getByLabel('IBAN').fill('FR76 3000 6000 0112 3456 7890 189')
  const password = bank.getByLabel('Mot de passe actuel')
  await expect(password).toBeVisible()
  await expect(
    bank.getByText('Pour modifier vos coordonnées bancaires, saisissez votre mot de passe actuel.'),
  ).toBeVisible()
  await expect(save).toBeDisabled()

  // A wrong one: refused under its field, nothing saved.
  await password.fill('mauvais123')
  await save.click()
  await expect(bank.getByText('Le mot de passe actuel est incorrect.')).toBeVisible()
  let load = (await (await page.request.get('/api/user')).json()) as { user: { iban: string } }
  expect(load.user.iban).toBe('')

  // The right one: saved, and the login address told.
  await password.fill(farm.password)
  await save.click()
  await expect(page.getByText('Modification effectuée').first()).toBeVisible()
  load = (await (await page.request.get('/api/user')).json()) as { user: { iban: string } }
  expect(load.user.iban).toBe('FR7630006000011234567890189')
  const email = await outboxEmail('bank-changed-', farm.email)
  expect(email).toContain('Nouvel IBAN : **** **** **** **** **** ***0 189')
  expect(email).not.toContain('FR7630006000011234567890189')

  // Back in the form, the stored IBAN asks nothing.
  await page.reload()
  await page.getByRole('button', { name: farm.email }).click()
  await expect(bank.getByLabel('IBAN')).toHaveValue('FR7630006000011234567890189')
  await expect(bank.getByLabel('Mot de passe actuel')).toBeHidden()
})
