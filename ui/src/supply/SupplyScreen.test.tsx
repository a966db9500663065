import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { loadSupply, supplyState } from '../store/supply'
import { distributor } from '../test/fixtures'
import { asPhone } from '../test/phone'
import { renderWithProviders } from '../test/render'
import { SupplyScreen } from './SupplyScreen'
import type { SupplyProjection } from './types'
import { addDays, windowDates } from './window'

const nb = (s: string | null) => (s ?? '').replace(/[\u202f\u00a0]/g, ' ')

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

/** A projection for the window asked: tomatoes delivered on its second day only. */
function projection(start: string, days: number, withDeliveries = true): SupplyProjection {
  const dates = windowDates(start, days)
  return {
    start,
    end: dates.at(-1)!,
    days,
    today: start,
    dates,
    hasDeliveries: withDeliveries,
    producers: [{ _id: 'p1', name: 'Nom du serveur' }],
    products: [
      {
        product: 'tomate',
        name: 'Tomate',
        unit: 'kg',
        averageDailySales: 10,
        deliveredLast7Days: 0,
        atRisk: true,
        days: dates.map((date, i) => ({
          date,
          need: 10,
          deliveries:
            withDeliveries && i === 1
              ? [
                  { producer: 'p1', quantity: 20 },
                  { producer: 'p2', quantity: 5.25 },
                ]
              : [],
          delivered: withDeliveries && i === 1 ? 25.25 : 0,
          morningStock: i === 2 ? 6 : 0,
          risk: i === 2 ? 1 : i === 1 ? 0 : 2,
          proposedOrder: i === 0 ? 4.5 : 0,
          nextDate: addDays(date, 1),
          nextNeed: 10,
          nextDeliveries:
            withDeliveries && i === 0
              ? [
                  { producer: 'p1', quantity: 20 },
                  { producer: 'p2', quantity: 5.25 },
                ]
              : [],
          current: i === 2 ? 6 : 0,
          baseline: 0,
        })),
      },
    ],
  }
}

// The screen's width, which decides its density (window.ts).
let width = 1024
let asked: URL[] = []

beforeEach(() => {
  // Only the clock is fake: Friday 20 November 2026, 11:00 in Paris.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-11-20T10:00:00Z'))
  resetState(distributor.email)
  state.user = distributor
  state.producers = [{ _id: 'p1', name: 'Ferme des Saules' }]
  asked = []
  width = 1024
  vi.spyOn(window, 'innerWidth', 'get').mockImplementation(() => width)
  // Charts draw when they scroll into view; jsdom has no layout, so they
  // never do here (the chart library is exercised by the browser test).
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      disconnect() {}
    },
  )
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost')
    asked.push(url)
    const start = url.searchParams.get('start')!
    const days = Number(url.searchParams.get('days'))
    return json(200, projection(start, days, start <= '2026-11-16'))
  })
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('SupplyScreen', () => {
  it('opens on the current week, prompts for a cell, then shows its detail', async () => {
    renderWithProviders(<SupplyScreen />, { path: '/dis/supply' })
    expect(
      screen.getByRole('heading', { name: "Évolution des stocks et conseils d'approvisionnement" }),
    ).toBeInTheDocument()
    const grid = await screen.findByRole('table', { name: 'Grille des stocks' })
    expect(asked[0].pathname).toBe('/api/supply')
    expect(asked[0].searchParams.get('start')).toBe('2026-11-16')
    expect(asked[0].searchParams.get('days')).toBe('5')
    expect(within(grid).getAllByRole('columnheader')).toHaveLength(3 + 5)
    expect(within(grid).getByText('à risque')).toBeInTheDocument()
    expect(within(grid).getByText('+25,25')).toBeInTheDocument()
    expect(screen.getByTestId('supply-prompt')).toHaveTextContent('Cliquez sur une case')

    const first = within(grid).getAllByRole('button', { name: /^Tomate, / })[0]
    expect(first).toHaveAttribute('data-risk', '2')
    await userEvent.click(first)
    expect(first).toHaveAttribute('aria-pressed', 'true')
    const detail = screen.getByRole('region', { name: 'Détail de la case sélectionnée' })
    expect(nb(within(detail).getByTestId('proposed-order').textContent)).toBe('4,5 kg')
    expect(within(detail).getByText(/Commande plateforme proposée pour le lendemain/)).toBeInTheDocument()
    expect(within(detail).getByText('Stock vide')).toBeInTheDocument()
    expect(nb(within(detail).getByTestId('morning-stock').textContent)).toBe('Stock local restant le matin0 kg')
    expect(nb(within(detail).getByTestId('deliveries').textContent)).toBe('Livraisons du jouraucune')
    expect(nb(within(detail).getByTestId('next-deliveries').textContent)).toBe('Livraisons du lendemain25,25 kg')
    // Names from the user load's producers, then the projection's.
    expect(within(detail).getByText('Ferme des Saules')).toBeInTheDocument()
    expect(within(detail).getByText('p2')).toBeInTheDocument()
    expect(nb(within(detail).getByTestId('need').textContent)).toBe('Besoin du jour10 kg')
    expect(nb(within(detail).getByTestId('next-need').textContent)).toBe('Besoin du lendemain10 kg')
    expect(screen.queryByTestId('supply-prompt')).not.toBeInTheDocument()
  })

  it('steps one day with the arrows, says when nothing is planned, and comes back to the current week', async () => {
    renderWithProviders(<SupplyScreen />, { path: '/dis/supply' })
    await screen.findByRole('table', { name: 'Grille des stocks' })
    const week = '2026-11-16'
    await userEvent.click(screen.getByRole('button', { name: 'Avancer de 1 jour' }))
    await waitFor(() => expect(screen.getByTestId('no-deliveries')).toBeInTheDocument())
    expect(asked.at(-1)!.searchParams.get('start')).toBe('2026-11-17')
    expect(screen.getByTestId('no-deliveries')).toHaveTextContent(
      "Aucune livraison n'est prévue entre le 17/11/2026 et le 21/11/2026. Utilisez les flèches pour consulter d'autres dates.",
    )
    await userEvent.click(screen.getByRole('button', { name: 'Reculer de 1 jour' }))
    await userEvent.click(screen.getByRole('button', { name: 'Reculer de 1 jour' }))
    await waitFor(() => expect(asked.at(-1)!.searchParams.get('start')).toBe('2026-11-15'))
    await userEvent.click(screen.getByRole('button', { name: 'Semaine en cours' }))
    await waitFor(() => expect(supplyState.data?.start).toBe(week))
    expect(screen.queryByTestId('no-deliveries')).not.toBeInTheDocument()
  })

  it('shows 8 days stepping by 3 on a high-density screen', async () => {
    width = 1440
    renderWithProviders(<SupplyScreen />, { path: '/dis/supply' })
    const grid = await screen.findByRole('table', { name: 'Grille des stocks' })
    expect(asked[0].searchParams.get('days')).toBe('8')
    expect(within(grid).getAllByRole('columnheader')).toHaveLength(3 + 8)
    await userEvent.click(screen.getByRole('button', { name: 'Avancer de 3 jours' }))
    await waitFor(() => expect(asked.at(-1)!.searchParams.get('start')).toBe('2026-11-19'))
  })

  it('puts the products at risk first, by need, and filters them with "À risque seulement"', async () => {
    vi.mocked(globalThis.fetch).mockImplementation(async (input) => {
      const url = new URL(String(input), 'http://localhost')
      const base = projection(url.searchParams.get('start')!, Number(url.searchParams.get('days')))
      const tomato = base.products[0]
      const like = (product: string, name: string, atRisk: boolean, need: number) => ({
        ...tomato,
        product,
        name,
        atRisk,
        days: tomato.days.map((d) => ({ ...d, need })),
      })
      // By name, as the daemon answers.
      return json(200, {
        ...base,
        products: [
          like('abricot', 'Abricot', false, 50),
          like('carotte', 'Carotte', true, 2),
          like('courgette', 'Courgette', true, 30),
          like('poireau', 'Poireau', false, 1),
        ],
      })
    })
    const user = userEvent.setup()
    renderWithProviders(<SupplyScreen />, { path: '/dis/supply' })
    const grid = await screen.findByRole('table', { name: 'Grille des stocks' })
    const rows = () =>
      within(grid)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.getAttribute('data-product'))
    expect(rows()).toEqual(['courgette', 'carotte', 'abricot', 'poireau'])
    expect(screen.getByText('2 produits à risque sur 4')).toBeInTheDocument()

    const only = screen.getByRole('switch', { name: 'À risque seulement' })
    expect(only).not.toBeChecked()
    expect(only).toHaveAccessibleDescription('2 produits à risque sur 4')
    await user.click(only)
    expect(only).toBeChecked()
    expect(rows()).toEqual(['courgette', 'carotte'])
    await user.click(only)
    expect(rows()).toHaveLength(4)
  })

  it('says when no product is at risk under the filter', async () => {
    vi.mocked(globalThis.fetch).mockImplementation(async (input) => {
      const url = new URL(String(input), 'http://localhost')
      const base = projection(url.searchParams.get('start')!, Number(url.searchParams.get('days')))
      return json(200, { ...base, products: base.products.map((p) => ({ ...p, atRisk: false })) })
    })
    const user = userEvent.setup()
    renderWithProviders(<SupplyScreen />, { path: '/dis/supply' })
    await screen.findByRole('table', { name: 'Grille des stocks' })
    expect(screen.getByText('Aucun produit à risque sur 1')).toBeInTheDocument()
    await user.click(screen.getByRole('switch', { name: 'À risque seulement' }))
    expect(screen.queryByRole('table', { name: 'Grille des stocks' })).not.toBeInTheDocument()
    expect(screen.getByText('Aucun produit à risque sur cette période.')).toBeInTheDocument()
  })

  it('shows the server message when the load fails', async () => {
    vi.mocked(globalThis.fetch).mockImplementation(async () =>
      json(403, { status: 403, title: 'Forbidden', detail: 'Cette opération est réservée aux magasins.' }),
    )
    renderWithProviders(<SupplyScreen />, { path: '/dis/supply' })
    expect(await screen.findByText('Cette opération est réservée aux magasins.')).toBeInTheDocument()
    expect(screen.getByText('Échec du chargement')).toBeInTheDocument()
  })
})

describe('SupplyScreen on a phone', () => {
  it('opens the detail in a sheet from a day or a product, steps through the days, and closes', async () => {
    width = 390
    asPhone()
    const user = userEvent.setup()
    renderWithProviders(<SupplyScreen />, { path: '/dis/supply' })
    const grid = await screen.findByRole('table', { name: 'Grille des stocks' })
    expect(asked[0].searchParams.get('days')).toBe('5')
    // No side pane, so no prompt to click a cell.
    expect(screen.queryByTestId('supply-prompt')).not.toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()

    const monday = within(grid).getAllByRole('button', { name: /^Tomate, / })[0]
    await user.click(monday)
    const sheet = await screen.findByRole('dialog', { name: 'Détail du produit' })
    const detail = within(sheet).getByRole('region', { name: 'Détail de la case sélectionnée' })
    expect(within(detail).getByRole('heading', { name: 'lundi 16 novembre 2026' })).toBeInTheDocument()
    expect(nb(within(detail).getByTestId('proposed-order').textContent)).toBe('4,5 kg')
    expect(within(sheet).getByRole('img', { name: /^Stock du matin de Tomate : / })).toBeInTheDocument()
    expect(monday).toHaveAttribute('aria-pressed', 'true')

    // The days of the window, one after the other, the grid's selection following.
    expect(within(sheet).getByRole('button', { name: 'Jour précédent' })).toBeDisabled()
    await user.click(within(sheet).getByRole('button', { name: 'Jour suivant' }))
    expect(within(sheet).getByRole('heading', { name: 'mardi 17 novembre 2026' })).toBeInTheDocument()
    expect(supplyState.selected).toEqual({ product: 'tomate', date: '2026-11-17' })
    for (let i = 0; i < 3; i++) await user.click(within(sheet).getByRole('button', { name: 'Jour suivant' }))
    expect(within(sheet).getByRole('heading', { name: 'vendredi 20 novembre 2026' })).toBeInTheDocument()
    expect(within(sheet).getByRole('button', { name: 'Jour suivant' })).toBeDisabled()
    await user.click(within(sheet).getByRole('button', { name: 'Jour précédent' }))
    expect(within(sheet).getByRole('heading', { name: 'jeudi 19 novembre 2026' })).toBeInTheDocument()

    await user.click(within(sheet).getByRole('button', { name: 'Fermer le détail' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    // The product's name opens it too, on the day selected for it.
    await user.click(within(grid).getByRole('button', { name: 'Tomate (kg)' }))
    const again = await screen.findByRole('dialog', { name: 'Détail du produit' })
    expect(within(again).getByRole('heading', { name: 'jeudi 19 novembre 2026' })).toBeInTheDocument()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('keeps the side pane and plain product names on a wider screen', async () => {
    renderWithProviders(<SupplyScreen />, { path: '/dis/supply' })
    const grid = await screen.findByRole('table', { name: 'Grille des stocks' })
    expect(within(grid).queryByRole('button', { name: 'Tomate (kg)' })).not.toBeInTheDocument()
    await userEvent.click(within(grid).getAllByRole('button', { name: /^Tomate, / })[0])
    expect(screen.getByRole('region', { name: 'Détail de la case sélectionnée' })).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})

describe('loadSupply', () => {
  it('keeps the last window asked when answers come back out of order', async () => {
    let release: (() => void) | undefined
    vi.mocked(globalThis.fetch).mockImplementation(async (input) => {
      const url = new URL(String(input), 'http://localhost')
      const start = url.searchParams.get('start')!
      if (start === '2026-11-16') await new Promise<void>((r) => (release = r))
      return json(200, projection(start, 5))
    })
    const slow = loadSupply('2026-11-16', 5)
    await waitFor(() => expect(release).toBeDefined())
    const fast = await loadSupply('2026-11-17', 5)
    release!()
    expect(await slow).toBe(false)
    expect(fast).toBe(true)
    expect(supplyState.data?.start).toBe('2026-11-17')
    expect(supplyState.status).toBe('idle')
  })
})
