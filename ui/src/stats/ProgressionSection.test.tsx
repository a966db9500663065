import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { progression, resetProgression } from '../store/progression'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { ProgressionSection } from './ProgressionSection'
import type { ProgressionData } from './progression'

const MONTHS = Array.from({ length: 25 }, (_, i) => {
  const d = new Date(Date.UTC(2024, 10 + i, 1))
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`
})
const series = (at: Record<string, number>) => MONTHS.map((m) => at[m] ?? 0)

const answer: ProgressionData = {
  months: MONTHS,
  products: [
    {
      product: 'tomate',
      values: series({ '2026-10-01': 200, '2026-09-01': 160, '2025-10-01': 100, '2026-11-01': 80 }),
    },
    { product: 'poire', values: series({ '2026-10-01': 50 }) },
  ],
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

const rows = () =>
  within(screen.getByTestId('progression-table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent!.replace(/\s/g, ' ')))

beforeEach(() => {
  resetState('x@exemple.fr')
  resetProgression()
  state.products = [
    { _id: 'tomate', name: 'Tomate', family: 'legumes', vatRate: 550, unit: 'kg', refPrice: 0 },
    { _id: 'poire', name: 'Poire', family: 'fruits', vatRate: 550, unit: 'kg', refPrice: 0 },
  ]
})

describe('ProgressionSection', () => {
  it('shows a shop its purchases of the last complete month against the month before and a year before', async () => {
    state.user = distributor
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(200, answer))
    renderWithProviders(<ProgressionSection />)
    expect(screen.getByRole('heading', { name: 'Progression de vos achats' })).toBeInTheDocument()
    await screen.findByTestId('progression-table')
    expect(fetch).toHaveBeenCalledWith('/api/stats/progression', expect.anything())
    expect(screen.getByRole('combobox', { name: 'Mois comparé' })).toHaveValue('octobre 2026')
    expect(
      within(screen.getByTestId('progression-table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Produit', 'octobre 2026', 'septembre 2026', 'Sur un mois', 'octobre 2025', 'Sur un an'])
    // Its caption, above the box it scrolls in on a phone, names it.
    expect(
      screen.getByRole('table', {
        name: "Achats d'octobre 2026 comparés au mois précédent et au même mois un an plus tôt (« — » : pas de base de comparaison)",
      }),
    ).toBe(screen.getByTestId('progression-table'))
    // The box it scrolls in takes the keyboard's focus, named the same (axe: scrollable-region-focusable).
    const box = screen.getByRole('region', { name: /^Achats d'octobre 2026 comparés/ })
    expect(box).toHaveAttribute('tabindex', '0')
    expect(box).toContainElement(screen.getByTestId('progression-table'))
    expect(rows()).toEqual([
      ['Total', '250,00 €', '160,00 €', '+56,3 %', '100,00 €', '+150,0 %'],
      ['Tomate', '200,00 €', '160,00 €', '+25,0 %', '100,00 €', '+100,0 %'],
      ['Poire', '50,00 €', '0,00 €', '—', '0,00 €', '—'],
    ])
    expect(
      screen.getByRole('img', { name: /Achats réalisés par mois de novembre 2025 à octobre 2026/ }),
    ).toBeInTheDocument()
  })

  it('compares another month when picked, the current one said in progress', async () => {
    state.user = producer
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(200, answer))
    const user = userEvent.setup()
    renderWithProviders(<ProgressionSection />)
    expect(screen.getByRole('heading', { name: 'Progression de vos ventes' })).toBeInTheDocument()
    await screen.findByTestId('progression-table')
    await user.click(screen.getByRole('combobox', { name: 'Mois comparé' }))
    await user.click(await screen.findByRole('option', { name: 'novembre 2026 (en cours)' }))
    await waitFor(() => expect(rows()[0]).toEqual(['Total', '80,00 €', '250,00 €', '-68,0 %', '0,00 €', '—']))
  })

  it('says when there is nothing yet, and offers to retry a failed load', async () => {
    state.user = distributor
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        json(500, { status: 500, title: 'Internal Server Error', detail: 'Erreur interne du serveur.' }),
      )
    const user = userEvent.setup()
    renderWithProviders(<ProgressionSection />)
    expect(await screen.findByText("La progression n'a pas pu être chargée.")).toBeInTheDocument()
    fetch.mockResolvedValue(json(200, { months: MONTHS, products: [] }))
    await user.click(screen.getByRole('button', { name: 'Réessayer de charger la progression' }))
    expect(
      await screen.findByText(
        "Aucune livraison sur ces mois : la progression s'affichera après vos premières livraisons.",
      ),
    ).toBeInTheDocument()
  })

  it('shows nothing of another session', () => {
    state.user = distributor
    progression.owner = 'quelqu-un-d-autre'
    progression.data = answer
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>(() => {}))
    renderWithProviders(<ProgressionSection />)
    expect(screen.queryByTestId('progression-table')).not.toBeInTheDocument()
    expect(screen.getByText('Chargement de la progression')).toBeInTheDocument()
  })
})
