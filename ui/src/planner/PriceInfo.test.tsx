import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { comparisonState, forgetComparisons } from '../store/comparison'
import { resetState, state } from '../store/state'
import { applyTradeAnswer } from '../store/trade'
import { products } from '../test/needs'
import { need, proposal } from '../test/needs'
import { renderWithProviders } from '../test/render'
import type { PriceComparison as Comparison, TradeAnswer } from '../types'
import { NeedPane } from './NeedPane'
import { PRICE_TEXTS, PriceInfo } from './PriceInfo'

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const tomato = products.find((p) => p._id === 'tomate')!
const melon = products.find((p) => p._id === 'melon')!

const both: Comparison = {
  product: 'tomate',
  month: '2026-12-01',
  area: '74',
  national: { area: 'FR', average: 2.4, purchases: 12 },
  local: { area: '74', average: 2.3, purchases: 5 },
}

/** Every "x,yz € / kg" (or pièce) figure of an element's text. */
const figures = (el: HTMLElement) => el.textContent?.replace(/\s+/g, ' ').match(/\d+,\d\d € \/ (kg|pièce)/g) ?? []

describe('PriceInfo: one price truth (issue 37)', () => {
  beforeEach(() => {
    resetState()
    forgetComparisons()
    state.products = products
  })
  afterEach(() => vi.restoreAllMocks())

  it('shows the need’s average nationally and in the département, and its shop price, read once per need', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(both))
    const { unmount } = renderWithProviders(<PriceInfo needId="n/1" product={tomato} />)
    expect(await screen.findByText('Prix moyen payé sur Primeur : 2,40 € / kg (12 achats)')).toBeInTheDocument()
    expect(screen.getByText('Prix moyen payé dans le département 74 : 2,30 € / kg (5 achats)')).toBeInTheDocument()
    expect(screen.getByText(`${PRICE_TEXTS.shopPrice} : 3,12 € / kg`)).toBeInTheDocument()
    // Which purchases the average counts, said every time.
    expect(screen.getByText(PRICE_TEXTS.rule)).toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(fetch.mock.calls[0][0]).toBe('/api/needs/n%2F1/prices')
    unmount()
    // Shown again (the proposal form's line): the same figures, no second request.
    renderWithProviders(<PriceInfo needId="n/1" product={tomato} compact />)
    expect(
      screen.getByText(
        'Prix moyen payé : 2,40 € / kg sur Primeur (12 achats) · 2,30 € / kg dans le département 74 (5 achats)',
      ),
    ).toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('says when only the département’s figure is withheld, or the shop has no postcode', async () => {
    vi.spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json({ ...both, local: null }))
      .mockResolvedValueOnce(json({ ...both, area: '', local: null }))
    const { unmount } = renderWithProviders(<PriceInfo needId="n1" product={melon} />)
    expect(await screen.findByText('Prix moyen payé sur Primeur : 2,40 € / pièce (12 achats)')).toBeInTheDocument()
    expect(screen.getByText(PRICE_TEXTS.localHidden('74'))).toBeInTheDocument()
    unmount()
    renderWithProviders(<PriceInfo needId="n2" product={tomato} />)
    expect(await screen.findByText(PRICE_TEXTS.noArea)).toBeInTheDocument()
  })

  it('withheld, hides every figure of others’ purchases: no average, no count, no local figure, no shop price of it', async () => {
    // Even if an answer carried a local figure beside a withheld national
    // one (the server never does: core/trade Compare), none is shown.
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ ...both, national: null }))
    const { container, unmount } = renderWithProviders(<PriceInfo needId="n1" product={tomato} />)
    expect(await screen.findByText(PRICE_TEXTS.hidden)).toBeInTheDocument()
    expect(container).not.toHaveTextContent(/achats\)|département 74 :|2,30|2,40|3,12/)
    // Only the catalogue's reference, labelled so, and its × 1.3.
    expect(figures(container)).toEqual(['2,10 € / kg', '2,73 € / kg'])
    expect(screen.getByText(`${PRICE_TEXTS.reference} : 2,10 € / kg`)).toBeInTheDocument()
    expect(screen.getByText(PRICE_TEXTS.referenceNote)).toBeInTheDocument()
    unmount()
    const compact = renderWithProviders(<PriceInfo needId="n1" product={tomato} compact />)
    expect(
      screen.getByText(
        "Prix moyen payé : pas assez d'achats comparables pour ce produit et ce mois. Prix de référence producteur (catalogue) : 2,10 € / kg.",
      ),
    ).toBeInTheDocument()
    expect(figures(compact.container)).toEqual(['2,10 € / kg'])
  })

  it('says when the information cannot be read, and asks again next time', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json({ status: 404, title: 'x', detail: 'Introuvable' }, 404))
    const { unmount } = renderWithProviders(<PriceInfo needId="n1" product={tomato} />)
    expect(await screen.findByText(PRICE_TEXTS.error)).toBeInTheDocument()
    unmount()
    fetch.mockResolvedValueOnce(json(both))
    renderWithProviders(<PriceInfo needId="n1" product={tomato} />)
    expect(await screen.findByText('Prix moyen payé sur Primeur : 2,40 € / kg (12 achats)')).toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('is forgotten when an acceptance changes the commitments', () => {
    comparisonState.byNeed.n1 = { status: 'idle', data: both, error: null }
    const answer = {
      _id: 'n1',
      product: 'tomate',
      distributor: 'd1',
      date: '2026-12-01',
      quantity: 100,
      quantityAccepted: 10,
      quantityProposed: 0,
      quantityAvailable: 90,
      updatedAt: '2026-11-20T10:00:00Z',
      proposals: [],
      events: [],
    } as unknown as TradeAnswer
    applyTradeAnswer(answer)
    expect(comparisonState.byNeed.n1).toBeDefined()
    applyTradeAnswer({ ...answer, removedOrder: 'o1' })
    expect(comparisonState.byNeed.n1).toBeUndefined()
  })
})

describe('the need pane shows one average, once', () => {
  beforeEach(() => {
    resetState()
    forgetComparisons()
    state.products = products
  })
  afterEach(() => vi.restoreAllMocks())

  const selection = { product: 'tomate', month: '2026-12-01' }

  it('in its section for a shop, and only under the form for a producer proposing', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(both))
    const shopNeed = need('tomate', '2026-12-01', 40, {
      proposals: [proposal('p1', 'proposed', 5)],
      quantityProposed: 5,
    })
    const shop = renderWithProviders(
      <NeedPane selection={selection} need={shopNeed} product={tomato} viewer={{ type: 'distributor', id: 'd1' }} />,
    )
    const pane = await screen.findByRole('complementary', { name: 'Détail du besoin' })
    await within(pane).findByText('Prix moyen payé sur Primeur : 2,40 € / kg (12 achats)')
    expect(within(pane).getAllByText(/2,40 €/)).toHaveLength(1)
    expect(pane).not.toHaveTextContent(/1,50|observé/)
    shop.unmount()

    // A producer with nothing on the need has the form open: the figures
    // are its line, the pane has no second section.
    const fresh = need('tomate', '2026-12-01', 40)
    renderWithProviders(
      <NeedPane selection={selection} need={fresh} product={tomato} viewer={{ type: 'producer', id: 'p1' }} />,
    )
    const form = await screen.findByRole('form', { name: 'Proposer' })
    await within(form).findByText(/^Prix moyen payé : 2,40 € \/ kg sur Primeur \(12 achats\)/)
    const producerPane = screen.getByRole('complementary', { name: 'Détail du besoin' })
    expect(within(producerPane).getAllByText(/2,40 €/)).toHaveLength(1)
    expect(within(producerPane).queryByRole('region', { name: PRICE_TEXTS.title })).not.toBeInTheDocument()
    expect(producerPane).not.toHaveTextContent(/1,50|observé/)
  })
})
