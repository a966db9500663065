import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { applyTradeAnswer } from '../store/trade'
import { comparisonState, forgetComparisons } from '../store/comparison'
import { resetState } from '../store/state'
import { renderWithProviders } from '../test/render'
import type { PriceComparison as Comparison, TradeAnswer } from '../types'
import { COMPARISON_TEXTS, PriceComparison } from './PriceComparison'

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const both: Comparison = {
  product: 'tomate',
  month: '2026-12-01',
  area: '74',
  national: { area: 'FR', average: 2.4, purchases: 12 },
  local: { area: '74', average: 2.38, purchases: 1 },
}

describe('PriceComparison', () => {
  beforeEach(() => {
    resetState()
    forgetComparisons()
  })
  afterEach(() => vi.restoreAllMocks())

  it('shows the national and département averages with their purchases, read once per need', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(both))
    const { unmount } = renderWithProviders(<PriceComparison needId="n/1" unit="kg" />)
    expect(await screen.findByText('Prix moyen payé sur Primeur : 2,40 € / kg (12 achats)')).toBeInTheDocument()
    expect(screen.getByText('Prix moyen payé dans le département 74 : 2,38 € / kg (1 achat)')).toBeInTheDocument()
    expect(screen.queryByText(COMPARISON_TEXTS.rule)).not.toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(fetch.mock.calls[0][0]).toBe('/api/needs/n%2F1/prices')
    unmount()
    // Shown again (the proposal form's line): no second request.
    renderWithProviders(<PriceComparison needId="n/1" unit="kg" compact />)
    expect(
      screen.getByText(
        'Prix moyen payé : 2,40 € / kg sur Primeur (12 achats) · 2,38 € / kg dans le département 74 (1 achat)',
      ),
    ).toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('says a figure is withheld, with the rule once, and when the shop has no postcode', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json({ ...both, local: null }))
    const { unmount } = renderWithProviders(<PriceComparison needId="n1" unit="un" />)
    expect(await screen.findByText('Prix moyen payé sur Primeur : 2,40 € / pièce (12 achats)')).toBeInTheDocument()
    expect(
      screen.getByText(
        "Prix moyen payé dans le département 74 : pas assez d'achats comparables pour afficher une moyenne",
      ),
    ).toBeInTheDocument()
    expect(screen.getAllByText(COMPARISON_TEXTS.rule)).toHaveLength(1)
    unmount()

    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json({ ...both, area: '', national: null, local: null }))
    renderWithProviders(<PriceComparison needId="n2" unit="kg" />)
    expect(await screen.findByText(`${COMPARISON_TEXTS.national} : ${COMPARISON_TEXTS.hidden}`)).toBeInTheDocument()
    expect(screen.getByText(COMPARISON_TEXTS.noArea)).toBeInTheDocument()
    expect(screen.getAllByText(COMPARISON_TEXTS.rule)).toHaveLength(1)

    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json({ ...both, national: null, local: null }))
    renderWithProviders(<PriceComparison needId="n3" unit="kg" compact />)
    expect(
      await screen.findByText("Comparaison des prix : pas assez d'achats comparables pour ce produit et ce mois."),
    ).toBeInTheDocument()
  })

  it('says when the comparison cannot be read, and asks again next time', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json({ status: 404, title: 'x', detail: 'Introuvable' }, 404))
    const { unmount } = renderWithProviders(<PriceComparison needId="n1" unit="kg" />)
    expect(await screen.findByText(COMPARISON_TEXTS.error)).toBeInTheDocument()
    unmount()
    fetch.mockResolvedValueOnce(json(both))
    renderWithProviders(<PriceComparison needId="n1" unit="kg" />)
    expect(await screen.findByText('Prix moyen payé sur Primeur : 2,40 € / kg (12 achats)')).toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('is forgotten when an acceptance changes a price', () => {
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
    applyTradeAnswer({ ...answer, price: { product: 'tomate', value: 2.5 } })
    expect(comparisonState.byNeed.n1).toBeUndefined()
  })
})
