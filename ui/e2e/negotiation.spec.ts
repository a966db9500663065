// A negotiation in real browsers against the real daemon: a producer
// proposes on a shop's need, the shop counter-proposes, the producer
// accepts; both see the commitment, and the planned deliveries follow (read
// from the user load until the deliveries screen exists).
import type { Page } from '@playwright/test'
import { expect, loginThroughForm, needCell, registerThroughForm, test, uniqueAccount } from './fixtures'
import { everyScreen } from './reads'

/** The month `offset` months from now in Paris: ["décembre 2026", "2026-12-01"]. */
function month(offset: number): [label: string, value: string] {
  const [year, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number)
  const date = new Date(Date.UTC(year, m - 1 + offset, 1))
  return [
    new Intl.DateTimeFormat('fr-FR', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(date),
    date.toISOString().slice(0, 10),
  ]
}

const [nextLabel, nextValue] = month(1)

/**
 * Selects next month's courgette cell and returns the right pane. (Courgette:
 * prices are platform-wide, and other browser tests read tomato prices.)
 */
async function openCourgette(page: Page) {
  await needCell(page, 'Courgette', nextLabel).click()
  const pane = page.getByRole('complementary', { name: 'Détail du besoin' })
  await expect(pane.getByRole('heading', { name: 'Courgette' })).toBeVisible()
  return pane
}

interface Load {
  user: { _id: string }
  orders: {
    date: string
    distributor?: string
    producer?: string
    deliveries: {
      status: string
      date: string
      chrono: number
      deliveryLines: { product: string; price: number; quantityExpected: number }[]
    }[]
  }[]
}

test.use({ viewport: { width: 1280, height: 900 } })

test('a producer proposes, the shop counter-proposes, the producer accepts', async ({ page, browser, baseURL }) => {
  // The shop and its need, through the API; it plans in its own browser.
  const shop = uniqueAccount('epicerie')
  const shopContext = await browser.newContext({ baseURL })
  expect((await shopContext.request.post('/auth/register', { data: { ...shop, distributor: true } })).status()).toBe(
    201,
  )
  expect(
    (
      await shopContext.request.post('/api/needs', { data: { product: 'courgette', date: nextValue, quantity: 100 } })
    ).status(),
  ).toBe(201)
  const shopLoad: Load = await (await shopContext.request.get('/api/user')).json()

  // The producer registers; without delivery days it may not propose.
  const farm = uniqueAccount('ferme')
  await page.goto('/landing/register')
  await registerThroughForm(page, farm, 'Producteur')
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible()
  await page.goto(`/prod/needs/${shopLoad.user._id}`)
  let pane = await openCourgette(page)
  let form = pane.getByRole('form', { name: 'Proposer' })
  // Told before typing: the form waits for delivery days.
  await expect(form.getByText('Jours de livraison à choisir')).toBeVisible()
  await expect(form.getByLabel('Quantité (kg)')).toBeDisabled()
  await expect(form.getByRole('button', { name: 'Proposer' })).toBeDisabled()
  await expect(pane.getByRole('article', { name: 'Proposition' })).toHaveCount(0)

  // Monday and Thursday, then the proposal: a dot becomes a comma, letters are not taken.
  expect(
    (
      await page.request.put('/api/user', {
        data: { defaultDeliveryDays: [true, false, false, true, false, false, false] },
      })
    ).status(),
  ).toBe(200)
  await page.reload()
  pane = await openCourgette(page)
  form = pane.getByRole('form', { name: 'Proposer' })
  const quantity = form.getByLabel('Quantité (kg)')
  await quantity.pressSequentially('1a20.5')
  await expect(quantity).toHaveValue('120,5')
  await form.getByLabel('Prix unitaire HT (€/kg)').click()
  await expect(form.getByText('La quantité saisie excède le besoin restant (100kg)')).toBeVisible()
  await expect(form.getByRole('button', { name: 'Proposer' })).toBeDisabled()
  await quantity.fill('')
  await quantity.pressSequentially('40.5')
  await form.getByLabel('Prix unitaire HT (€/kg)').pressSequentially('2.30')
  await form.getByRole('button', { name: 'Proposer' }).click()
  await expect(page.getByText('Création effectuée').first()).toBeVisible()
  let card = pane.getByRole('article', { name: 'Proposition' })
  await expect(card).toHaveAttribute('data-status', 'proposed')
  await expect(card).toContainText('40,5 kg à 2,30 €/kg')
  await expect(card.getByRole('button')).toHaveText(['Modifier', 'Supprimer'])
  await expect(pane.getByRole('article', { name: 'Autres producteurs' })).toContainText(
    'Besoin restant non couvert : 59,5 kg',
  )

  // The shop sees the proposal and counter-proposes a lower price.
  const shopPage = await shopContext.newPage()
  await shopPage.goto('/landing/login')
  await loginThroughForm(shopPage, shop)
  await expect(shopPage.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible()
  await shopPage.goto('/dis/needs')
  let shopPane = await openCourgette(shopPage)
  const proposal = shopPane.getByRole('article', { name: `Proposition de ${farm.name}` })
  await expect(proposal.getByRole('button')).toHaveText(['Accepter', 'Modifier', 'Refuser'])
  await proposal.getByRole('button', { name: 'Modifier' }).click()
  const counter = shopPane.getByRole('form', { name: 'Contre-proposer' })
  await expect(counter.getByLabel('Prix unitaire HT (€/kg)')).toHaveValue('2,3')
  await counter.getByLabel('Prix unitaire HT (€/kg)').fill('2,1')
  await counter.getByRole('button', { name: 'Envoyer' }).click()
  await expect(shopPage.getByText('Modification effectuée').first()).toBeVisible()
  // Named a counter-proposal, with the producer's values it replaced (issue 37).
  const countered = shopPane.getByRole('article', { name: `Contre-proposition de ${farm.name}` })
  await expect(countered).toHaveAttribute('data-own', 'true')
  await expect(countered).toContainText('Au lieu de 40,5 kg à 2,30 €/kg proposés par le producteur')
  await expect(countered.getByRole('button')).toHaveText(['Modifier', 'Supprimer'])

  // The producer accepts the counter-proposal.
  await page.reload()
  pane = await openCourgette(page)
  card = pane.getByRole('article', { name: 'Contre-proposition' })
  await expect(card).toContainText('40,5 kg à 2,10 €/kg')
  await expect(card).toContainText('par le magasin')
  await expect(card).toContainText('Au lieu de 40,5 kg à 2,30 €/kg proposés par vous')
  await card.getByRole('button', { name: 'Accepter' }).click()
  await expect(page.getByText('Votre réponse a été correctement enregistrée').first()).toBeVisible()
  const commitment = pane.getByRole('article', { name: 'Engagement' })
  await expect(commitment).toHaveAttribute('data-status', 'accepted')
  await expect(commitment.getByRole('button')).toHaveText(['Corriger'])
  await expect(pane.getByRole('form')).toHaveCount(0)

  // The shop sees the commitment.
  await shopPage.reload()
  shopPane = await openCourgette(shopPage)
  await expect(shopPane.getByRole('article', { name: `Engagement de ${farm.name}` })).toContainText(
    '40,5 kg à 2,10 €/kg',
  )
  await expect(shopPage.getByRole('tab', { name: /^ENGAGÉS/ })).toHaveText('ENGAGÉS (1)')

  // Both sides have the order, delivered on Mondays and Thursdays of next month.
  const farmLoad: Load = await everyScreen(page.request)
  const seen: Load = await everyScreen(shopContext.request)
  expect(farmLoad.orders).toHaveLength(1)
  expect(seen.orders).toHaveLength(1)
  expect(farmLoad.orders[0].distributor).toBe(shopLoad.user._id)
  expect(seen.orders[0].producer).toBe(farmLoad.user._id)
  const deliveries = farmLoad.orders[0].deliveries
  expect(deliveries.length).toBeGreaterThanOrEqual(8)
  expect(deliveries.map((d) => d.chrono)).toEqual(deliveries.map((_, i) => i + 1))
  for (const d of deliveries) {
    expect(d.status).toBe('planned')
    expect(d.date.slice(0, 7)).toBe(nextValue.slice(0, 7))
    expect([1, 4]).toContain(new Date(`${d.date}T12:00:00Z`).getUTCDay())
    expect(d.deliveryLines[0]).toMatchObject({ product: 'courgette', price: 2.1 })
  }
  const total = deliveries.reduce((sum, d) => sum + d.deliveryLines[0].quantityExpected * 100, 0)
  expect(Math.round(total)).toBe(4050)
  expect(seen.orders[0].deliveries).toEqual(deliveries)
  await shopContext.close()
})
