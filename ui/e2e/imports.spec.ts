// The imports of the add bar in a real browser against the real daemon: the
// example file downloaded from its link and uploaded as is, a bad file, files
// LibreOffice saved (.xlsx, .ods, and an .ods of two tables whose sheet the
// shop picks), and the standard import from simulation to commit.
import type { Page } from '@playwright/test'
import { fileURLToPath } from 'node:url'
import { expect, needCell, registerThroughForm, test, uniqueAccount } from './fixtures'

/** The month `offset` months from now in Paris, as the grid labels it ("décembre 2026"). */
function monthLabel(offset: number): string {
  const [year, month] = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Paris',
    year: 'numeric',
    month: '2-digit',
  })
    .format(new Date())
    .split('-')
    .map(Number)
  const date = new Date(Date.UTC(year, month - 1 + offset, 1))
  return new Intl.DateTimeFormat('fr-FR', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(date)
}

const cell = (page: Page, product: string, offset: number) => needCell(page, product, monthLabel(offset))

async function newShopOnPlanner(page: Page, prefix: string) {
  const shop = uniqueAccount(prefix)
  await page.goto('/landing/register')
  await registerThroughForm(page, shop, 'Distributeur')
  await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Planifier' }).click()
  await expect(page).toHaveURL(/\/dis\/needs$/)
  await expect(page.getByText('Macache')).toBeVisible()
}

test.use({ viewport: { width: 1280, height: 800 } })

test('a shop imports the example file as is, and a bad file is refused', async ({ page }, testInfo) => {
  test.slow()
  await newShopOnPlanner(page, 'import-excel')

  await page.getByRole('button', { name: 'Import Excel' }).click()
  const dialog = page.getByRole('dialog', { name: 'Importer un fichier Excel' })
  const form = dialog.getByRole('form', { name: "Import d'un fichier Excel" })
  await expect(form.getByRole('button', { name: 'Importer' })).toBeDisabled()

  // The product list and the example file download from their links.
  const csv = page.waitForEvent('download')
  await form.getByRole('link', { name: 'Télécharger la liste des produits' }).click()
  expect((await csv).suggestedFilename()).toBe('products.csv')
  const example = page.waitForEvent('download')
  await form.getByRole('link', { name: "Télécharger le fichier d'exemple" }).click()
  const download = await example
  expect(download.suggestedFilename()).toBe('exemple_import.xlsx')
  // Saved under its own name: the upload checks the .xlsx extension.
  const path = testInfo.outputPath(download.suggestedFilename())
  await download.saveAs(path)

  await form.locator('input[type="file"]').setInputFiles(path)
  await form.getByRole('button', { name: 'Importer' }).click()
  // First what it would write; nothing is written until the shop confirms.
  const preview = dialog.getByLabel("Aperçu de l'import")
  await expect(preview.getByText(/^\d+ besoins à créer$/)).toBeVisible()
  await preview.getByRole('button', { name: "Confirmer l'import" }).click()
  await expect(dialog.getByText(/^Import réussi de \d+ besoins$/)).toBeVisible()
  await expect(page.getByText('Importation effectuée').first()).toBeVisible()
  await expect(dialog.getByText('Produits absents de la liste des produits')).toBeHidden()
  await expect(dialog.getByRole('alert')).toBeHidden()

  // A file that is no workbook: the "Erreur" tag and the server's message.
  await form.locator('input[type="file"]').setInputFiles({
    name: 'besoins.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from('Produit;2027-01\nTomate;12\n'),
  })
  await form.getByRole('button', { name: 'Importer' }).click()
  const error = dialog.getByRole('alert')
  await expect(error).toContainText('Erreur')
  await expect(error).toContainText("Ce fichier n'est pas un classeur Excel .xlsx lisible.")
  await expect(page.getByText("Échec de l'importation").first()).toBeVisible()

  // The grid shows what the example planned: potatoes and carrots are flat
  // all year (90 000 € a year: 962 kg and 463 kg a month).
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(cell(page, 'Pomme de terre', 1)).toHaveText('962')
  await expect(cell(page, 'Carotte', 1)).toHaveText('463')
  await expect(cell(page, 'Carotte', 0)).toHaveText('')
})

test('a shop imports a file made by LibreOffice with French text months, seeing it first', async ({ page }) => {
  await newShopOnPlanner(page, 'import-libreoffice')
  await page.getByRole('button', { name: 'Import Excel' }).click()
  const dialog = page.getByRole('dialog', { name: 'Importer un fichier Excel' })
  const form = dialog.getByRole('form', { name: "Import d'un fichier Excel" })
  // Made by LibreOffice (testdata/xlsx/real/make.py): a title row, then
  // Produit, « janv. 2027 », « févr. 2027 », « mars 2027 ».
  await form
    .locator('input[type="file"]')
    .setInputFiles(fileURLToPath(new URL('../../testdata/xlsx/real/libreoffice-french-months.xlsx', import.meta.url)))
  await form.getByRole('button', { name: 'Importer' }).click()
  const preview = dialog.getByLabel("Aperçu de l'import")
  await expect(preview.getByText('6 besoins à créer')).toBeVisible()
  await expect(preview.getByRole('row', { name: /Tomate février 2027 C3 nouveau 95,5/ })).toBeVisible()
  await preview.getByRole('button', { name: "Confirmer l'import" }).click()
  await expect(dialog.getByText('Import réussi de 6 besoins')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})

const realFile = (name: string) => fileURLToPath(new URL(`../../testdata/xlsx/real/${name}`, import.meta.url))

test('a shop imports a LibreOffice .ods, then picks the sheet of a file with two tables', async ({ page }) => {
  test.slow()
  await newShopOnPlanner(page, 'import-ods')
  await page.getByRole('button', { name: 'Import Excel' }).click()
  const dialog = page.getByRole('dialog', { name: 'Importer un fichier Excel' })
  const form = dialog.getByRole('form', { name: "Import d'un fichier Excel" })
  const input = form.locator('input[type="file"]')
  // The picker offers every format the import reads.
  expect((await input.getAttribute('accept'))?.split(',')).toEqual(expect.arrayContaining(['.xlsx', '.ods', '.csv']))

  // Saved by LibreOffice in its own format (testdata/xlsx/real/make.py):
  // the twin of the .xlsx above, its sheet « Besoins » named.
  await input.setInputFiles(realFile('libreoffice-french-months.ods'))
  await form.getByRole('button', { name: 'Importer' }).click()
  const preview = dialog.getByLabel("Aperçu de l'import")
  await expect(preview.getByText('6 besoins à créer')).toBeVisible()
  await expect(preview.getByText('Feuille lue : « Besoins »')).toBeVisible()
  await expect(preview.getByRole('row', { name: /Tomate février 2027 C3 nouveau 95,5/ })).toBeVisible()
  // One table: nothing to choose.
  await expect(dialog.getByRole('combobox', { name: 'Feuille à importer' })).toBeHidden()
  await preview.getByRole('button', { name: "Confirmer l'import" }).click()
  const result = dialog.getByLabel("Résultat de l'import")
  await expect(result.getByText('Import réussi de 6 besoins')).toBeVisible()
  await expect(result.getByText('Feuille lue : « Besoins »')).toBeVisible()

  // Two tables, 2027 and 2028, and an instructions sheet open: the server
  // cannot tell which one is meant and names them; the shop picks 2028.
  await input.setInputFiles(realFile('libreoffice-two-tables.ods'))
  await expect(result).toBeHidden()
  await form.getByRole('button', { name: 'Importer' }).click()
  const error = dialog.getByRole('alert')
  await expect(error).toContainText('Erreur')
  await expect(error).toContainText(
    "Plusieurs feuilles contiennent un tableau de besoins (« 2027 », « 2028 ») et aucune n'est la feuille active : choisissez celle à importer.",
  )
  const choice = dialog.getByRole('combobox', { name: 'Feuille à importer' })
  await choice.click()
  // The choice's list, not the planner's filters (native selects' options).
  const sheets = page.getByRole('listbox').getByRole('option')
  await expect(sheets).toHaveText(['2027', '2028'])
  await sheets.filter({ hasText: '2028' }).click()
  await expect(error).toBeHidden()
  await expect(preview.getByText('Feuille lue : « 2028 »')).toBeVisible()
  await expect(preview.getByText('6 besoins à créer')).toBeVisible()
  await expect(preview.getByRole('row', { name: /Tomate janvier 2028 B\d+ nouveau 10/ })).toBeVisible()
  await expect(preview.getByRole('row', { name: /Poireau mars 2028 D\d+ nouveau 22/ })).toBeVisible()
  await preview.getByRole('button', { name: "Confirmer l'import" }).click()
  await expect(result.getByText('Import réussi de 6 besoins')).toBeVisible()
  await expect(result.getByText('Feuille lue : « 2028 »')).toBeVisible()
  await expect(dialog.getByText(/non importés?/)).toBeHidden()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})

test('a shop previews a standard import, then imports it', async ({ page }) => {
  test.slow()
  await newShopOnPlanner(page, 'import-standard')

  await page.getByRole('button', { name: 'Import standard' }).click()
  const form = page.getByRole('form', { name: 'Import standard' })
  await expect(form.getByRole('combobox', { name: 'Premier mois' })).toHaveValue(monthLabel(1))
  await expect(form.getByRole('combobox', { name: 'Dernier mois' })).toHaveValue(monthLabel(12))
  const simulate = form.getByRole('button', { name: 'Simuler' })
  await expect(simulate).toBeDisabled()

  // Without the fruit-and-vegetable turnover: the store's, its share and the correction.
  await form.getByLabel('Je connais mon CA fruits et légumes').click({ force: true })
  await form.getByLabel('CA annuel magasin').click()
  await form.getByLabel('Coefficient de correction').click()
  await expect(form.getByText('Le CA annuel magasin est requis')).toBeVisible()
  await form.getByLabel('CA annuel magasin').fill('750 000')
  await expect(form.getByLabel('Part des fruits et légumes')).toHaveValue('20')
  // 750 000 € × 20 % × 90 % = 135 000 €.
  await expect(
    form.getByText(/CA fruits et légumes annuel retenu : 135\s000,00\s€, soit 11\s250,00\s€ par mois en moyenne/),
  ).toBeVisible()
  await simulate.click()

  const preview = page.getByRole('table', { name: "Aperçu de l'import standard" })
  await expect(preview.getByRole('columnheader')).toHaveText(['Produit', monthLabel(1), monthLabel(2), monthLabel(3)])
  // Carrots are flat: 135 000 / 12 × 5.3 % / (0.66 € × 1.3) = 694.93 kg a month.
  await expect(preview.getByRole('row', { name: /^Carotte/ })).toHaveText(/Carotte(694,93\skg){3}/)

  await page.getByRole('button', { name: 'Importer' }).click()
  await expect(page.getByText(/^Import réussi de \d+ besoins$/)).toBeVisible()
  await expect(page.getByText('Importation effectuée').first()).toBeVisible()
  await expect(preview).toBeHidden()

  await page.keyboard.press('Escape')
  await expect(cell(page, 'Carotte', 1)).toHaveText('694,93')
  await expect(cell(page, 'Carotte', 0)).toHaveText('')
  // Written to the database: still there after a reload.
  await page.reload()
  await expect(cell(page, 'Carotte', 2)).toHaveText('694,93')
})
