import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DistributorNeeds } from '../pages/DistributorNeeds'
import { ProducerNeeds } from '../pages/ProducerNeeds'
import { comparisonState } from '../store/comparison'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { need, products, proposal } from '../test/needs'
import { asPhone } from '../test/phone'
import { renderWithProviders } from '../test/render'
import { Route } from 'wouter'
import { holdLists } from '../test/lists'

// The price information's own request (store/comparison.ts, tested in
// planner/PriceInfo.test.tsx) stays out of these tests' fetch sequences.
vi.mock('../store/comparison', async (original) => ({
  ...(await original<typeof import('../store/comparison')>()),
  loadComparison: vi.fn(async () => {}),
}))
// So do the producers' offers near a need (store/offers.ts, supplied/Offers.test.tsx).
vi.mock('../store/offers', async (original) => ({
  ...(await original<typeof import('../store/offers')>()),
  listOffers: vi.fn(async () => []),
}))
// So does the producers' delivery terms' (store/fees.ts, e2e/fees.spec.ts).
vi.mock('../store/fees', async (original) => ({
  ...(await original<typeof import('../store/fees')>()),
  loadApplied: vi.fn(async () => {}),
}))

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

/** A cell of the grid, named "{product}, {month} : {what it holds}". */
const cell = (label: string) => screen.getByRole('gridcell', { name: (n) => n.startsWith(`${label} : `) })
const readOnlyCell = cell
/** The text field of a cell being edited, named "{product}, {month}". */
const field = (label: string) => screen.getByRole('textbox', { name: label })
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
  holdLists()
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
    expect(screen.getByRole('tab', { name: 'À VALIDER (1)' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'ENGAGÉS (1)' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'TOUS (2)' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByText('Veuillez sélectionner une cellule')).toBeInTheDocument()
    expect(cell('Tomate, décembre 2026')).toHaveAccessibleName('Tomate, décembre 2026 : 100 kg')
    expect(cell('Tomate, décembre 2026')).toHaveTextContent(/^100$/)
    expect(within(grid()).queryAllByRole('textbox')).toHaveLength(0)
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
    await user.click(screen.getByRole('tab', { name: 'À VALIDER (1)' }))
    expect(screen.getByRole('rowheader', { name: /Tomate/ })).toBeInTheDocument()
    expect(screen.queryByRole('rowheader', { name: /Pomme/ })).not.toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'TOUS (2)' }))
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher un produit' }), 'pome')
    expect(screen.getByRole('tab', { name: 'TOUS (1)' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'À VALIDER (0)' })).toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'À VALIDER (0)' }))
    expect(screen.getByText('Macache')).toBeInTheDocument()
    await user.clear(screen.getByRole('searchbox', { name: 'Rechercher un produit' }))
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher un produit' }), 'banane')
    expect(screen.getByText('Aucun résultat')).toBeInTheDocument()
  })

  it('filters its rows by family, and by the label and distance of producers through the daemon', async () => {
    state.families = [
      { _id: 'fruits', name: 'Fruits' },
      { _id: 'legumes', name: 'Légumes' },
    ]
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(200, { types: ['tomate'] }))
    const user = userEvent.setup()
    renderWithProviders(<DistributorNeeds />)
    await user.selectOptions(screen.getByLabelText('Famille'), 'fruits')
    expect(screen.getByRole('rowheader', { name: /Pomme/ })).toBeInTheDocument()
    expect(screen.queryByRole('rowheader', { name: /Tomate/ })).not.toBeInTheDocument()
    await user.selectOptions(screen.getByLabelText('Famille'), '')
    await user.selectOptions(screen.getByLabelText('Label des producteurs'), 'aop')
    await user.selectOptions(screen.getByLabelText('Producteurs à moins de'), '50')
    expect(await screen.findByRole('tab', { name: 'TOUS (1)' })).toBeInTheDocument()
    expect(screen.getByRole('rowheader', { name: /Tomate/ })).toBeInTheDocument()
    expect(screen.queryByRole('rowheader', { name: /Pomme/ })).not.toBeInTheDocument()
    expect(String(fetch.mock.calls.at(-1)?.[0])).toBe('/api/supplied-products/types?label=aop&km=50')
  })

  it('commits typed values on a move and shows the selected need', async () => {
    const user = userEvent.setup()
    const created = need('tomate', '2027-01-01', 7.5)
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(201, created))
    renderWithProviders(<DistributorNeeds />)

    await user.click(cell('Tomate, décembre 2026'))
    expect(cell('Tomate, décembre 2026')).toHaveFocus()
    const pane = screen.getByRole('complementary', { name: 'Détail du besoin' })
    expect(within(pane).getByText('Besoin')).toBeInTheDocument()
    expect(within(pane).getByText('100 kg')).toBeInTheDocument()
    expect(within(pane).getByText('80 kg')).toBeInTheDocument() // available
    // Its price information, asked of the server (not answered here: PriceInfo.test.tsx).
    expect(within(pane).getByText('Information prix en cours de chargement…')).toBeInTheDocument()

    await user.keyboard('{ArrowRight}')
    expect(cell('Tomate, janvier 2027')).toHaveFocus()
    expect(within(pane).getByText('Pas de besoins à cette date pour le produit sélectionné')).toBeInTheDocument()
    // A digit starts editing, over the value, as in a spreadsheet.
    await user.keyboard('7.5')
    expect(field('Tomate, janvier 2027')).toHaveFocus()
    expect(field('Tomate, janvier 2027')).toHaveValue('7,5')
    // An arrow commits and moves.
    await user.keyboard('{ArrowUp}')
    expect(cell('Pomme, janvier 2027')).toHaveFocus()
    expect(screen.queryByRole('textbox', { name: 'Tomate, janvier 2027' })).not.toBeInTheDocument()
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/needs')
    expect(JSON.parse(String(init.body))).toEqual({ product: 'tomate', date: '2027-01-01', quantity: 7.5 })
    await waitFor(() => expect(cell('Tomate, janvier 2027')).toHaveTextContent(/^7,5$/))
    expect(state.needs).toContainEqual(created)
  })

  it('is one tab stop that the arrows, Home and End move through', async () => {
    const user = userEvent.setup()
    renderWithProviders(<DistributorNeeds />)
    const stops = () =>
      within(grid())
        .getAllByRole('gridcell')
        .filter((c) => c.tabIndex === 0)
    // Nothing selected: the first cell is the stop.
    expect(stops()).toEqual([cell('Pomme, novembre 2026')])
    expect(grid()).toHaveAttribute('aria-rowcount', '3')
    expect(grid()).toHaveAttribute('aria-colcount', '9')
    expect(cell('Tomate, décembre 2026')).toHaveAttribute('aria-colindex', '3')
    expect(cell('Tomate, décembre 2026').closest('tr')).toHaveAttribute('aria-rowindex', '3')
    expect(within(grid()).getByRole('columnheader', { name: 'décembre 2026' })).toHaveAttribute('aria-colindex', '3')
    expect(within(grid()).getByRole('rowheader', { name: /Tomate/ })).toHaveAttribute('aria-colindex', '1')

    // Tab enters the grid on its stop, from the control before it.
    await user.click(screen.getByRole('tab', { name: 'TOUS (2)' }))
    for (let i = 0; i < 10 && !grid().contains(document.activeElement); i++) await user.tab()
    expect(cell('Pomme, novembre 2026')).toHaveFocus()
    expect(cell('Pomme, novembre 2026')).toHaveAttribute('aria-selected', 'true')
    await user.keyboard('{End}')
    expect(cell('Pomme, juin 2027')).toHaveFocus()
    await user.keyboard('{ArrowDown}')
    expect(cell('Tomate, juin 2027')).toHaveFocus()
    await user.keyboard('{Home}')
    expect(cell('Tomate, novembre 2026')).toHaveFocus()
    await user.keyboard('{Control>}{End}{/Control}')
    expect(cell('Tomate, juin 2027')).toHaveFocus()
    await user.keyboard('{Control>}{Home}{/Control}')
    expect(cell('Pomme, novembre 2026')).toHaveFocus()
    await user.keyboard('{ArrowDown}{ArrowRight}')
    expect(stops()).toEqual([cell('Tomate, décembre 2026')])
    // Tab leaves the grid, Shift+Tab comes back to the same cell.
    await user.tab()
    expect(grid()).not.toContainElement(document.activeElement as HTMLElement)
    await user.tab({ shift: true })
    expect(cell('Tomate, décembre 2026')).toHaveFocus()
  })

  it('edits on Enter, F2 or a double click, commits on Enter and stays on the cell', async () => {
    const user = userEvent.setup()
    const tomato = state.needs.find((n) => n.product === 'tomate')!
    const updated = { ...tomato, quantity: 1505, quantityAvailable: 1485 }
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(200, updated))
    renderWithProviders(<DistributorNeeds />)
    await user.click(cell('Tomate, décembre 2026'))
    // Enter edits the stored value, the caret at its end.
    await user.keyboard('{Enter}')
    expect(field('Tomate, décembre 2026')).toHaveFocus()
    expect(field('Tomate, décembre 2026')).toHaveValue('100')
    // Left and Right move the caret, they do not leave the field.
    await user.keyboard('{ArrowLeft}{ArrowLeft}5{ArrowRight}{ArrowRight}')
    expect(field('Tomate, décembre 2026')).toHaveFocus()
    expect(field('Tomate, décembre 2026')).toHaveValue('1500')
    await user.keyboard('{Backspace}{Backspace}05{Enter}')
    expect(cell('Tomate, décembre 2026')).toHaveFocus()
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    expect(JSON.parse(String((fetch.mock.calls[0] as [string, RequestInit])[1].body))).toMatchObject({
      quantity: 1505,
    })
    await waitFor(() => expect(state.needs).toContainEqual(updated))
    expect(cell('Tomate, décembre 2026')).toHaveTextContent(/^1505$/)

    // F2 and a double click edit too; Escape leaves without a change.
    await user.keyboard('{F2}')
    expect(field('Tomate, décembre 2026')).toHaveFocus()
    await user.keyboard('{Escape}')
    expect(cell('Tomate, décembre 2026')).toHaveFocus()
    await user.dblClick(cell('Pomme, janvier 2027'))
    expect(field('Pomme, janvier 2027')).toHaveFocus()
    expect(field('Pomme, janvier 2027')).toHaveValue('50')
    await user.keyboard('{Enter}')
    expect(cell('Pomme, janvier 2027')).toHaveFocus()
    // Letters neither edit nor move.
    await user.keyboard('a')
    expect(cell('Pomme, janvier 2027')).toHaveFocus()
    expect(screen.queryByRole('textbox', { name: 'Pomme, janvier 2027' })).not.toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('refuses a quantity under what producers hold, without calling the daemon', async () => {
    const user = userEvent.setup()
    const fetch = vi.spyOn(globalThis, 'fetch')
    renderWithProviders(<DistributorNeeds />)
    await user.click(cell('Pomme, janvier 2027'))
    await user.keyboard('5{Enter}')
    expect(
      await screen.findByText(
        'Pomme, janvier 2027 : La valeur saisie ne peut être inférieure à la somme des engagements et des propositions non traitées.',
      ),
    ).toBeInTheDocument()
    expect(cell('Pomme, janvier 2027')).toHaveTextContent(/^50$/)
    expect(cell('Pomme, janvier 2027')).toHaveFocus()
    expect(fetch).not.toHaveBeenCalled()
  })

  it('puts the stored value back on Escape, the focus back on the cell', async () => {
    const user = userEvent.setup()
    const fetch = vi.spyOn(globalThis, 'fetch')
    renderWithProviders(<DistributorNeeds />)
    await user.click(cell('Tomate, décembre 2026'))
    await user.keyboard('999')
    expect(field('Tomate, décembre 2026')).toHaveValue('999')
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('textbox', { name: 'Tomate, décembre 2026' })).not.toBeInTheDocument()
    expect(cell('Tomate, décembre 2026')).toHaveTextContent(/^100$/)
    expect(cell('Tomate, décembre 2026')).toHaveFocus()
    // The arrows move again.
    await user.keyboard('{ArrowUp}')
    expect(cell('Pomme, décembre 2026')).toHaveFocus()
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
    // The arrows still move to the editable cells.
    await user.keyboard('{ArrowRight}')
    expect(cell('Melon, novembre 2026')).toHaveFocus()
    expect(cell('Melon, novembre 2026')).not.toHaveAttribute('aria-readonly')
    expect(grid()).not.toHaveAttribute('aria-readonly')
  })
})

describe("the producer's view of a shop", () => {
  it("loads the shop's needs, read-only, with the shop's name and no add bar", async () => {
    resetState(producer.email)
    holdLists()
    state.user = producer
    state.products = products
    state.distributors = [{ _id: 'd1', name: 'Épicerie du coin', email: 'e@x.fr', latitude: '', longitude: '' }]
    state.needs = [need('pomme', '2026-12-01', 1)] // its own traded needs: not shown here
    const shopNeed = need('tomate', '2026-12-01', 40, {
      proposals: [proposal('p1', 'proposed', 5, 'distributor')],
      quantityProposed: 5,
    })
    comparisonState.byNeed[shopNeed._id] = {
      status: 'idle',
      error: null,
      data: {
        product: 'tomate',
        month: '2026-12-01',
        area: '74',
        national: { area: 'FR', average: 2, purchases: 7 },
        local: null,
      },
    }
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(200, [shopNeed]))
    const user = userEvent.setup()
    renderWithProviders(
      <Route path="/prod/needs/:distributorId">
        <ProducerNeeds />
      </Route>,
      { path: '/prod/needs/d1' },
    )
    expect(screen.getByRole('heading', { name: 'Épicerie du coin' })).toBeInTheDocument()
    const tomato = await screen.findByRole('gridcell', { name: 'Tomate, décembre 2026 : 40 kg' })
    // The months in view only (issue 42): November 2026 to June 2027.
    expect(fetch.mock.calls[0][0]).toBe('/api/needs?distributor=d1&from=2026-11-01&to=2027-06-01')
    expect(screen.queryByRole('rowheader', { name: /Pomme/ })).not.toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'À VALIDER (1)' })).toBeInTheDocument()
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
    expect(within(pane).getByText('Prix moyen payé sur Primeur : 2,00 € / kg (7 achats)')).toBeInTheDocument()
    expect(within(pane).getByText(/Prix de vente magasin pour une marge de 30 % : 2,60/)).toBeInTheDocument()
    // One figure: the user load's 1,50 appears nowhere.
    expect(pane).not.toHaveTextContent(/1,50|observé/)

    // The arrows move the selection; Tab leaves the grid.
    await user.keyboard('{ArrowLeft}')
    const november = readOnlyCell('Tomate, novembre 2026')
    expect(november).toHaveFocus()
    expect(november).toHaveAttribute('aria-selected', 'true')
    expect(within(pane).getByText('Pas de besoins à cette date pour le produit sélectionné')).toBeInTheDocument()
    await user.tab()
    expect(grid()).not.toContainElement(document.activeElement as HTMLElement)
  })
})

describe('the planner on a phone', () => {
  // A phone's width: every media query bounding the width from above matches (usePhone).
  beforeEach(() => asPhone())

  it('opens the detail sheet on a tap of a cell, and on Enter on a read-only cell', async () => {
    resetState(producer.email)
    holdLists()
    state.user = producer
    state.products = products
    state.distributors = [{ _id: 'd1', name: 'Épicerie du coin', email: 'e@x.fr', latitude: '', longitude: '' }]
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(200, [need('tomate', '2026-12-01', 40)]))
    const user = userEvent.setup()
    renderWithProviders(
      <Route path="/prod/needs/:distributorId">
        <ProducerNeeds />
      </Route>,
      { path: '/prod/needs/d1' },
    )
    const tomato = await screen.findByRole('gridcell', { name: 'Tomate, décembre 2026 : 40 kg' })
    await user.click(tomato)
    const sheet = await screen.findByRole('dialog', { name: 'Détail du besoin' })
    expect(within(sheet).getByRole('heading', { name: 'Tomate' })).toBeInTheDocument()
    await user.click(within(sheet).getByRole('button', { name: 'Fermer le détail' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    // The arrows move without opening it; Enter opens the cell reached.
    tomato.focus()
    await user.keyboard('{ArrowLeft}')
    const november = readOnlyCell('Tomate, novembre 2026')
    expect(november).toHaveFocus()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    await user.keyboard('{Enter}')
    const again = await screen.findByRole('dialog', { name: 'Détail du besoin' })
    expect(within(again).getByText('Pas de besoins à cette date pour le produit sélectionné')).toBeInTheDocument()
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
    expect(cell('Pomme, septembre 2027')).toHaveAttribute('aria-selected', 'true')
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
    expect(cell('Tomate, janvier 2027')).toHaveAttribute('aria-selected', 'true')
    expect(within(pane()).getByRole('heading', { name: 'Tomate' })).toBeInTheDocument()
  })

  it('changes nothing for an unknown need', () => {
    state.needs = [need('tomate', '2026-12-01', 100)]
    renderWithProviders(<DistributorNeeds />, { path: '/dis/needs?need=inconnu' })
    expect(monthHeaders()[0]).toBe('novembre 2026')
    expect(within(pane()).getByText('Veuillez sélectionner une cellule')).toBeInTheDocument()
  })

  it('opens a producer on the shop’s need once the shop’s needs are loaded', async () => {
    resetState(producer.email)
    holdLists()
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
