import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DistributorNeeds } from '../pages/DistributorNeeds'
import { ProducerNeeds } from '../pages/ProducerNeeds'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { need, products, proposal } from '../test/needs'
import { renderWithProviders } from '../test/render'
import { Route } from 'wouter'

// The price comparison's own request (store/comparison.ts, tested in
// planner/PriceComparison.test.tsx) stays out of these tests' fetch sequences.
vi.mock('../store/comparison', async (original) => ({
  ...(await original<typeof import('../store/comparison')>()),
  loadComparison: vi.fn(async () => {}),
}))

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

const cell = (name: string) => screen.getByRole('textbox', { name })
/** A read-only cell, named "{product}, {month} : {what it holds}". */
const readOnlyCell = (label: string) => screen.getByRole('gridcell', { name: (n) => n.startsWith(`${label} : `) })
const grid = () => screen.getByRole('grid', { name: 'Besoins par produit et par mois' })
const monthHeaders = () =>
  within(grid())
    .getAllByRole('columnheader')
    .slice(1)
    .map((th) => th.textContent)

function setWindow(width: number, height: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width })
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: height })
  act(() => {
    window.dispatchEvent(new Event('resize'))
  })
}

beforeEach(() => {
  // Only the clock is faked: the current month is November 2026.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-11-20T10:00:00Z'))
  setWindow(1280, 800)
  resetState(distributor.email)
  state.products = products
})

afterEach(() => {
  vi.useRealTimers()
})

describe('the shop planner', () => {
  beforeEach(() => {
    state.user = distributor
    state.needs = [
      need('tomate', '2026-12-01', 100, { quantityProposed: 20, proposals: [proposal('f1', 'proposed', 20)] }),
      need('pomme', '2027-01-01', 50, { quantityAccepted: 10, proposals: [proposal('f1', 'accepted', 10)] }),
      need('melon', '2026-10-01', 4),
    ]
  })

  it('shows 8 months from the current one, the tabs and the empty pane', () => {
    renderWithProviders(<DistributorNeeds />)
    expect(monthHeaders()).toEqual([
      'novembre 2026',
      'décembre 2026',
      'janvier 2027',
      'février 2027',
      'mars 2027',
      'avril 2027',
      'mai 2027',
      'juin 2027',
    ])
    expect(screen.getByRole('tab', { name: 'A VALIDER (1)' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'ENGAGES (1)' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'TOUS (2)' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByText('Veuillez selectionner une cellule')).toBeInTheDocument()
    expect(cell('Tomate, décembre 2026')).toHaveValue('100')
    expect(screen.getByRole('button', { name: 'Ajouter un besoin' })).toBeInTheDocument()
  })

  it('follows the window: 3 months in portrait, half-span moves, Aujourd’hui', async () => {
    const user = userEvent.setup()
    renderWithProviders(<DistributorNeeds />)
    setWindow(390, 844)
    expect(monthHeaders()).toEqual(['novembre 2026', 'décembre 2026', 'janvier 2027'])
    await user.click(screen.getByRole('button', { name: 'Période suivante' }))
    expect(monthHeaders()[0]).toBe('janvier 2027')
    await user.click(screen.getByRole('button', { name: 'Période précédente' }))
    await user.click(screen.getByRole('button', { name: 'Période précédente' }))
    expect(monthHeaders()[0]).toBe('septembre 2026')
    // The melon of October is in a closed month.
    expect(readOnlyCell('Melon, octobre 2026')).toHaveAttribute('aria-readonly', 'true')
    await user.click(screen.getByRole('button', { name: "Aujourd'hui" }))
    expect(monthHeaders()[0]).toBe('novembre 2026')
    setWindow(1280, 800)
    expect(monthHeaders()).toHaveLength(8)
  })

  it('filters by tab and search, and says when nothing is left', async () => {
    const user = userEvent.setup()
    renderWithProviders(<DistributorNeeds />)
    await user.click(screen.getByRole('tab', { name: 'A VALIDER (1)' }))
    expect(screen.getByRole('rowheader', { name: /Tomate/ })).toBeInTheDocument()
    expect(screen.queryByRole('rowheader', { name: /Pomme/ })).not.toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'TOUS (2)' }))
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher un produit' }), 'pome')
    expect(screen.getByRole('tab', { name: 'TOUS (1)' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'A VALIDER (0)' })).toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'A VALIDER (0)' }))
    expect(screen.getByText('Macache')).toBeInTheDocument()
    await user.clear(screen.getByRole('searchbox', { name: 'Rechercher un produit' }))
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher un produit' }), 'banane')
    expect(screen.getByText('Aucun resultat')).toBeInTheDocument()
  })

  it('commits typed values on a move and shows the selected need', async () => {
    const user = userEvent.setup()
    const created = need('tomate', '2027-01-01', 7.5)
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(201, created))
    renderWithProviders(<DistributorNeeds />)

    await user.click(cell('Tomate, décembre 2026'))
    const pane = screen.getByRole('complementary', { name: 'Détail du besoin' })
    expect(within(pane).getByText('Besoin')).toBeInTheDocument()
    expect(within(pane).getByText('100 kg')).toBeInTheDocument()
    expect(within(pane).getByText('80 kg')).toBeInTheDocument() // available
    expect(within(pane).getByText(/Prix de référence producteur \(catalogue\)/)).toBeInTheDocument()

    await user.keyboard('{Tab}')
    expect(cell('Tomate, janvier 2027')).toHaveFocus()
    expect(within(pane).getByText('Pas de besoins a cette date pour le produit selectionne')).toBeInTheDocument()
    await user.keyboard('7.5')
    expect(cell('Tomate, janvier 2027')).toHaveValue('7,5')
    await user.keyboard('{ArrowUp}')
    expect(cell('Pomme, janvier 2027')).toHaveFocus()
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/needs')
    expect(JSON.parse(String(init.body))).toEqual({ product: 'tomate', date: '2027-01-01', quantity: 7.5 })
    await waitFor(() => expect(cell('Tomate, janvier 2027')).toHaveValue('7,5'))
    expect(state.needs).toContainEqual(created)
  })

  it('refuses a quantity under what producers hold, without calling the daemon', async () => {
    const user = userEvent.setup()
    const fetch = vi.spyOn(globalThis, 'fetch')
    renderWithProviders(<DistributorNeeds />)
    await user.click(cell('Pomme, janvier 2027'))
    await user.keyboard('5{Enter}')
    expect(
      await screen.findByText(
        'Pomme, janvier 2027 : La valeur saisie ne peut etre inferieure a la somme des engagements et des propositions non traitees.',
      ),
    ).toBeInTheDocument()
    expect(cell('Pomme, janvier 2027')).toHaveValue('50')
    expect(fetch).not.toHaveBeenCalled()
  })

  it('puts the stored value back on Escape', async () => {
    const user = userEvent.setup()
    const fetch = vi.spyOn(globalThis, 'fetch')
    renderWithProviders(<DistributorNeeds />)
    await user.click(cell('Tomate, décembre 2026'))
    await user.keyboard('999')
    expect(cell('Tomate, décembre 2026')).toHaveValue('999')
    await user.keyboard('{Escape}')
    expect(cell('Tomate, décembre 2026')).toHaveValue('100')
    fireEvent.blur(cell('Tomate, décembre 2026'))
    expect(fetch).not.toHaveBeenCalled()
  })

  it('says a past month is closed when typed into', async () => {
    const user = userEvent.setup()
    renderWithProviders(<DistributorNeeds />)
    await user.click(screen.getByRole('button', { name: 'Période précédente' }))
    // A past month is a read-only cell, not a text field.
    expect(screen.queryByRole('textbox', { name: 'Melon, octobre 2026' })).not.toBeInTheDocument()
    const melon = readOnlyCell('Melon, octobre 2026')
    expect(melon).toHaveAccessibleName('Melon, octobre 2026 : 4 un')
    expect(melon).toHaveAttribute('aria-readonly', 'true')
    await user.click(melon)
    expect(melon).toHaveFocus()
    await user.keyboard('3')
    expect(
      screen.getByText('Melon, octobre 2026 : Ce mois est passé : ses besoins ne peuvent plus être modifiés.'),
    ).toBeInTheDocument()
    expect(melon).toHaveTextContent(/^4$/)
    // The arrows still move to the editable cells, which stay text fields.
    await user.keyboard('{ArrowRight}')
    expect(cell('Melon, novembre 2026')).toHaveFocus()
    expect(grid()).not.toHaveAttribute('aria-readonly')
  })
})

describe("the producer's view of a shop", () => {
  it("loads the shop's needs, read-only, with the shop's name and no add bar", async () => {
    resetState(producer.email)
    state.user = producer
    state.products = products
    state.prices = [{ product: 'tomate', value: 2 }]
    state.distributors = [{ _id: 'd1', name: 'Épicerie du coin', email: 'e@x.fr', latitude: '', longitude: '' }]
    state.needs = [need('pomme', '2026-12-01', 1)] // its own traded needs: not shown here
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json(200, [
        need('tomate', '2026-12-01', 40, {
          proposals: [proposal('p1', 'proposed', 5, 'distributor')],
          quantityProposed: 5,
        }),
      ]),
    )
    const user = userEvent.setup()
    renderWithProviders(
      <Route path="/prod/needs/:distributorId">
        <ProducerNeeds />
      </Route>,
      { path: '/prod/needs/d1' },
    )
    expect(screen.getByRole('heading', { name: 'Épicerie du coin' })).toBeInTheDocument()
    const tomato = await screen.findByRole('gridcell', { name: 'Tomate, décembre 2026 : 40 kg' })
    expect(fetch.mock.calls[0][0]).toBe('/api/needs?distributor=d1')
    expect(screen.queryByRole('rowheader', { name: /Pomme/ })).not.toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'A VALIDER (1)' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Ajouter un besoin' })).not.toBeInTheDocument()

    // Read-only, and it shows: no text field anywhere in the grid, plain
    // text in aria-readonly cells of an aria-readonly grid, one tab stop.
    expect(grid()).toHaveAttribute('aria-readonly', 'true')
    expect(within(grid()).queryAllByRole('textbox')).toHaveLength(0)
    expect(tomato).toHaveAttribute('aria-readonly', 'true')
    expect(tomato).toHaveTextContent(/^40$/)
    expect(readOnlyCell('Tomate, novembre 2026')).toHaveAccessibleName('Tomate, novembre 2026 : pas de besoin')
    const stops = within(grid())
      .getAllByRole('gridcell')
      .filter((c) => c.tabIndex === 0)
    expect(stops).toEqual([readOnlyCell('Tomate, novembre 2026')])

    await user.click(tomato)
    expect(tomato).toHaveFocus()
    expect(tomato).toHaveAttribute('aria-selected', 'true')
    expect(tomato.tabIndex).toBe(0)
    await user.keyboard('9')
    expect(tomato).toHaveTextContent(/^40$/)
    expect(screen.queryByText(/Ce mois est passé/)).not.toBeInTheDocument()
    const pane = screen.getByRole('complementary', { name: 'Détail du besoin' })
    expect(within(pane).getByText(/Prix d'achat moyen observé : 2,00/)).toBeInTheDocument()
    expect(within(pane).getByText(/Prix de vente magasin pour une marge de 30 % : 2,60/)).toBeInTheDocument()

    // The arrows move the selection; Tab leaves the grid.
    await user.keyboard('{ArrowLeft}')
    const november = readOnlyCell('Tomate, novembre 2026')
    expect(november).toHaveFocus()
    expect(november).toHaveAttribute('aria-selected', 'true')
    expect(within(pane).getByText('Pas de besoins a cette date pour le produit selectionne')).toBeInTheDocument()
    await user.tab()
    expect(grid()).not.toContainElement(document.activeElement as HTMLElement)
  })
})

describe('a link to a need', () => {
  const pane = () => screen.getByRole('complementary', { name: 'Détail du besoin' })

  beforeEach(() => {
    state.user = distributor
  })

  it('opens the shop’s planner on the need: its cell selected, its month shown, the pane on it', async () => {
    const far = need('pomme', '2027-09-01', 50, { quantityProposed: 10, proposals: [proposal('f1', 'proposed', 10)] })
    state.needs = [need('tomate', '2026-12-01', 100), far]
    const scroll = vi.spyOn(Element.prototype, 'scrollIntoView')
    renderWithProviders(<DistributorNeeds />, { path: `/dis/needs?need=${far._id}` })
    expect(monthHeaders()[0]).toBe('septembre 2027')
    expect(cell('Pomme, septembre 2027')).toHaveAttribute('data-selected', 'true')
    expect(within(pane()).getByRole('heading', { name: 'Pomme' })).toBeInTheDocument()
    expect(within(pane()).getByText('septembre 2027')).toBeInTheDocument()
    expect(within(pane()).getByText('50 kg')).toBeInTheDocument()
    await waitFor(() => expect(scroll).toHaveBeenCalled())
  })

  it('keeps the period when the need’s month is already shown', () => {
    const near = need('tomate', '2027-01-01', 30)
    state.needs = [near]
    renderWithProviders(<DistributorNeeds />, { path: `/dis/needs?need=${near._id}` })
    expect(monthHeaders()[0]).toBe('novembre 2026')
    expect(cell('Tomate, janvier 2027')).toHaveAttribute('data-selected', 'true')
    expect(within(pane()).getByRole('heading', { name: 'Tomate' })).toBeInTheDocument()
  })

  it('changes nothing for an unknown need', () => {
    state.needs = [need('tomate', '2026-12-01', 100)]
    renderWithProviders(<DistributorNeeds />, { path: '/dis/needs?need=inconnu' })
    expect(monthHeaders()[0]).toBe('novembre 2026')
    expect(within(pane()).getByText('Veuillez selectionner une cellule')).toBeInTheDocument()
  })

  it('opens a producer on the shop’s need once the shop’s needs are loaded', async () => {
    resetState(producer.email)
    state.user = producer
    state.products = products
    state.distributors = [{ _id: 'd1', name: 'Épicerie du coin', email: 'e@x.fr', latitude: '', longitude: '' }]
    const linked = need('tomate', '2027-08-01', 40, {
      proposals: [proposal('p1', 'proposed', 5, 'distributor')],
      quantityProposed: 5,
    })
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(200, [need('pomme', '2026-12-01', 3), linked]))
    renderWithProviders(
      <Route path="/prod/needs/:distributorId">
        <ProducerNeeds />
      </Route>,
      { path: `/prod/needs/d1?need=${linked._id}` },
    )
    expect(await screen.findByRole('gridcell', { name: 'Tomate, août 2027 : 40 kg' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    expect(monthHeaders()[0]).toBe('août 2027')
    expect(within(pane()).getByRole('heading', { name: 'Tomate' })).toBeInTheDocument()
    expect(within(pane()).getByText('40 kg')).toBeInTheDocument()
  })
})
