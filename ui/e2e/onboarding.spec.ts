// First steps, the postal-code search and the progression statistics in a
// real browser against the real daemon (PRODUCT §2 "Dashboard", "First
// steps", "Profile form", "Map", "Statistics"; issue 19).
import { type APIRequestContext, type Page, request } from '@playwright/test'
import { expect, loginThroughForm, registerThroughForm, seed, test, uniqueAccount } from './fixtures'

interface Account {
  email: string
  password: string
  name: string
  id: string
  api: APIRequestContext
}

/** Registers an account through the API, sets profile fields, keeps its session. */
async function account(prefix: string, shop: boolean, profile: Record<string, unknown> = {}): Promise<Account> {
  const a = uniqueAccount(prefix)
  const api = await request.newContext({ baseURL: process.env.PRIMEUR_E2E_BASE_URL })
  const res = await api.post('/auth/register', {
    data: { email: a.email, password: a.password, name: a.name, distributor: shop },
  })
  expect(res.status(), await res.text()).toBe(201)
  const { user } = await res.json()
  if (Object.keys(profile).length > 0) {
    const put = await api.put('/api/user', { data: profile })
    expect(put.status(), await put.text()).toBe(200)
  }
  return { ...a, id: user._id, api }
}

async function logIn(page: Page, a: { email: string; password: string }) {
  await page.goto('/landing/login')
  await loginThroughForm(page, a)
  await expect(page.getByRole('button', { name: a.email })).toBeVisible()
}

/** "2027-01" two months after today, as the needs API takes a month. */
function monthAhead(n: number): string {
  const d = new Date()
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1))
  return `${m.getUTCFullYear()}-${String(m.getUTCMonth() + 1).padStart(2, '0')}`
}

const checklist = (page: Page) => page.getByRole('region', { name: 'Premiers pas' })
const profileForm = (page: Page) => page.getByRole('form', { name: 'Informations de profil' })
const INVISIBLE = 'Sans position, votre magasin est invisible pour les producteurs'

test('a new producer is told what is missing before proposing, and each first step opens its field', async ({
  page,
}) => {
  const shop = await account('premiers-pas-magasin', true, {
    addressLine1: '12 rue Sommeiller',
    addressLine3: '74000 Annecy',
    latitude: '45.9009',
    longitude: '6.1265',
  })
  const created = await shop.api.post('/api/needs', { data: { product: 'tomate', date: monthAhead(2), quantity: 100 } })
  expect(created.status(), await created.text()).toBe(201)
  const need = await created.json()

  const farm = uniqueAccount('premiers-pas-ferme')
  await page.goto('/landing/producer')
  await registerThroughForm(page, farm, 'Producteur')
  await expect(checklist(page)).toBeVisible()
  await expect(checklist(page).getByText('Encore 3 étapes pour que votre compte soit prêt.')).toBeVisible()

  // The proposal form says so before the farmer types, with a link to the field.
  await page.goto(`/prod/needs/${shop.id}?need=${need._id}`)
  const form = page.getByRole('form', { name: 'Proposer' })
  await expect(form.getByText('Pour proposer, choisissez d’abord vos jours de livraison')).toBeVisible()
  await expect(form.getByLabel('Quantité (kg)')).toBeDisabled()
  await expect(form.getByRole('button', { name: 'Proposer' })).toBeDisabled()
  await form.getByRole('link', { name: 'Choisir mes jours de livraison' }).click()

  // The link opens the profile form on the day picker, in view and focused.
  await expect(page).toHaveURL(/\/$/)
  const days = profileForm(page).locator('#profile-defaultDeliveryDays')
  await expect(days).toBeFocused()
  await expect(days).toBeInViewport()
  await days.click()
  await page.getByRole('option', { name: 'Mardi' }).click()
  await page.keyboard.press('Escape')

  // A checklist step scrolls to its own field.
  await page.evaluate(() => window.scrollTo(0, 0))
  await checklist(page).getByRole('button', { name: 'Renseigner vos informations légales' }).click()
  await expect(profileForm(page).getByLabel('Forme juridique')).toBeFocused()
  await expect(profileForm(page).getByLabel('Forme juridique')).toBeInViewport()
  await profileForm(page).getByLabel('Forme juridique').fill('EARL')
  await profileForm(page).getByLabel('SIRET').fill('412 345 670 00019')

  // Address: postal code and town place the farm.
  await profileForm(page).getByLabel('Adresse', { exact: true }).fill('Route du Semnoz')
  await profileForm(page).getByLabel('Code postal', { exact: true }).fill('74000')
  await profileForm(page).getByRole('combobox', { name: 'Ville' }).fill('Annecy')
  await profileForm(page).getByLabel('Forme juridique').focus()
  await expect(profileForm(page).getByLabel('Latitude')).toHaveValue('45.90878')
  await expect(profileForm(page).getByText("Position placée au centre d'Annecy")).toBeVisible()
  await profileForm(page).getByRole('button', { name: 'Enregistrer' }).click()
  await expect(page.getByText('Modification effectuée').first()).toBeVisible()

  // Complete: the checklist goes, and the proposal form takes input.
  await expect(checklist(page)).toHaveCount(0)
  const load = await (await page.request.get('/api/user')).json()
  expect(load.user.addressLine3).toBe('74000 Annecy')
  expect(load.user.defaultDeliveryDays).toEqual([false, true, false, false, false, false, false])
  await page.goto(`/prod/needs/${shop.id}?need=${need._id}`)
  await expect(page.getByRole('form', { name: 'Proposer' }).getByLabel('Quantité (kg)')).toBeEnabled()
  await expect(page.getByText('Pour proposer, choisissez d’abord vos jours de livraison')).toHaveCount(0)
})

test('a new shop is told it is invisible to producers, places itself from its town and refines the pin', async ({
  page,
}) => {
  const shop = uniqueAccount('magasin-invisible')
  await page.goto('/landing/register')
  await registerThroughForm(page, shop, 'Distributeur')
  await expect(checklist(page).getByText(INVISIBLE)).toBeVisible()
  await expect(checklist(page).getByText('Encore 4 étapes pour que votre compte soit prêt.')).toBeVisible()

  await checklist(page).getByRole('button', { name: 'Placer le magasin sur la carte' }).click()
  const form = profileForm(page)
  const postcode = form.getByLabel('Code postal', { exact: true })
  await expect(postcode).toBeFocused()
  await expect(form.getByText(INVISIBLE)).toBeVisible()
  // The fields in order: street, complement, postal code, town, then the position.
  const address = form.getByRole('group', { name: 'Adresse du magasin' })
  await expect(address.locator('label')).toHaveText([
    'Adresse',
    "Complément d'adresse",
    'Code postal',
    'Ville',
    'Latitude',
    'Longitude',
  ])

  // Thônes, a small town of the place reference: the postal code lists its communes, the town places the shop.
  await form.getByLabel('Adresse', { exact: true }).fill('3 place de l’Église')
  await postcode.fill('74230')
  const town = form.getByRole('combobox', { name: 'Ville' })
  await town.click()
  await expect(page.getByRole('option', { name: 'Serraval' })).toBeVisible()
  await town.fill('Thônes')
  await form.getByLabel('Adresse', { exact: true }).focus()
  await expect(form.getByText('Position placée au centre de Thônes')).toBeVisible()
  await expect(form.getByLabel('Latitude')).toHaveValue('45.88123')
  await expect(form.getByText(INVISIBLE)).toHaveCount(0)

  // A click on the small map moves the pin there.
  const picker = form.getByTestId('position-picker')
  await picker.scrollIntoViewIfNeeded()
  const box = (await picker.boundingBox())!
  await page.mouse.click(box.x + box.width / 2 + 60, box.y + box.height / 2 - 20)
  await expect(form.getByLabel('Longitude')).not.toHaveValue('6.32572')
  const longitude = Number(await form.getByLabel('Longitude').inputValue())
  expect(longitude).toBeGreaterThan(6.33)
  await page.screenshot({ path: test.info().outputPath('shop-position.png'), fullPage: false })

  await form.getByLabel('Forme juridique').fill('SAS')
  await form.getByLabel('SIRET').fill('753 218 643 00017')
  await form.getByRole('button', { name: 'Enregistrer' }).click()
  await expect(page.getByText('Modification effectuée').first()).toBeVisible()

  // One step left, the first needs, linked to the planner; the shop is on the map.
  await expect(checklist(page).getByText('Encore une étape pour que votre compte soit prêt.')).toBeVisible()
  await expect(checklist(page).getByText(INVISIBLE)).toHaveCount(0)
  const load = await (await page.request.get('/api/user')).json()
  expect(load.user.addressLine3).toBe('74230 Thônes')
  await expect(page.locator(`[data-testid="shop-marker"][data-shop-id="${load.user._id}"]`)).toHaveCount(1)
  await checklist(page).getByRole('link', { name: 'Saisir vos premiers besoins' }).click()
  await expect(page).toHaveURL(/\/dis\/needs$/)
})

test('a producer searches a town by postal code or name and opens a shop within 30 km', async ({ page }) => {
  const near = await account('recherche-annecy', true, { latitude: '45.9009', longitude: '6.1265' })
  const thones = await account('recherche-thones', true, { latitude: '45.8817', longitude: '6.3250' })
  const far = await account('recherche-brest', true, { latitude: '48.39', longitude: '-4.48' })
  const farm = await account('recherche-ferme', false, {
    defaultDeliveryDays: [true, false, false, false, false, false, false],
  })
  await logIn(page, farm)

  const search = page.getByRole('combobox', { name: 'Recherche par code postal' })
  // A typo, no accent, the keyboard alone.
  await search.fill('anecy')
  await expect(page.getByRole('option', { name: 'Annecy (74000)' })).toBeVisible()
  await search.press('Enter')
  await expect(search).toHaveValue('Annecy (74000)')
  await expect(page.getByTestId('shop-map')).toHaveAttribute('data-center', '6.1257,45.9088')
  const results = page.getByRole('region', { name: "Magasins à moins de 30 km d'Annecy (74000)" })
  await expect(results.getByRole('status')).toContainText("magasins à moins de 30 km d'Annecy (74000)")
  const names = await results.getByRole('listitem').allTextContents()
  const iNear = names.findIndex((n) => n.startsWith(near.name))
  const iThones = names.findIndex((n) => n.startsWith(thones.name))
  expect(iNear).toBeGreaterThanOrEqual(0)
  expect(iThones).toBeGreaterThan(iNear)
  expect(names.some((n) => n.startsWith(far.name))).toBe(false)
  expect(names[iThones]).toMatch(/15,7 km/)
  await page.screenshot({ path: test.info().outputPath('map-search.png'), fullPage: true })

  // A village of 750 people, not one of the 286 towns the map labels, with a typo: Thônes's shop is the nearest.
  await search.fill('seraval')
  await expect(page.getByRole('option', { name: 'Serraval (74230)' })).toBeVisible()
  await search.press('Enter')
  await expect(search).toHaveValue('Serraval (74230)')
  await expect(page.getByTestId('shop-map')).toHaveAttribute('data-center', '6.3402,45.8010')
  const village = page.getByRole('region', { name: 'Magasins à moins de 30 km de Serraval (74230)' })
  const around = await village.getByRole('listitem').allTextContents()
  const thonesFirst = around.findIndex((n) => n.startsWith(thones.name))
  expect(thonesFirst).toBeGreaterThanOrEqual(0)
  expect(around.findIndex((n) => n.startsWith(near.name))).toBeGreaterThan(thonesFirst)

  // A postal code, Enter at once (the first commune once the answer comes), then the shop's needs.
  await search.fill('74000')
  await search.press('Enter')
  await expect(search).toHaveValue('Annecy (74000)')
  await results.getByRole('link', { name: `Voir ses besoins : ${thones.name}` }).click()
  await expect(page).toHaveURL(new RegExp(`/prod/needs/${thones.id}$`))
})

test('the statistics compare the last month with the month before and a year before, per product', async ({ page }) => {
  const shop = await account('progression-magasin', true)
  const farm = await account('progression-ferme', false)
  const last = seed('progression', ['--shop', shop.email, '--producer', farm.email])
  expect(last).toMatch(/^\d{4}-\d{2}-01$/)

  await logIn(page, shop)
  const section = page.getByRole('region', { name: 'Progression de vos achats' })
  await section.scrollIntoViewIfNeeded()
  const table = section.getByTestId('progression-table')
  await expect(table).toBeVisible()
  const cells = async (row: string) =>
    (await table.locator(`[data-row="${row}"]`).locator('th, td').allTextContents()).map((t) => t.replace(/\s/g, ' '))
  // 100 € last month, 80 € the month before (+25 %), 50 € a year before (+100 %).
  await expect.poll(() => cells('total')).toEqual(['Total', '100,00 €', '80,00 €', '+25,0 %', '50,00 €', '+100,0 %'])
  expect(await cells('tomate')).toEqual(['Tomate', '100,00 €', '80,00 €', '+25,0 %', '50,00 €', '+100,0 %'])
  await expect(section.getByTestId('progression-chart')).toBeVisible()
  await page.screenshot({ path: test.info().outputPath('progression.png'), fullPage: true })

  // The producer sees the same deliveries as its sales.
  await page.getByRole('button', { name: 'Quitter' }).click()
  await logIn(page, farm)
  const sales = page.getByRole('region', { name: 'Progression de vos ventes' })
  await expect(sales.getByTestId('progression-table')).toBeVisible()
})
