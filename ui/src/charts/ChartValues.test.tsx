import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PurchasesChart } from '../stats/PurchasesChart'
import { resetState, state } from '../store/state'
import { distributor } from '../test/fixtures'
import { products } from '../test/needs'
import { renderWithProviders } from '../test/render'
import { ChartValues } from './ChartValues'
import { ChartValuesPopover } from './ChartValuesPopover'
import { purchasesText } from './values'

const nb = (s: string | null) => (s ?? '').replace(/[\u202f\u00a0]/g, ' ')
/** The table's rows as text: its header row first. */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => nb(cell.textContent)))

const series = { months: ['2026-10-01', '2026-11-01'], planned: [0, 1234.5], done: [80.25, 0] }

describe('ChartValues', () => {
  it('shows the summary, and the values as a table behind "Voir les valeurs"', async () => {
    const user = userEvent.setup()
    renderWithProviders(<ChartValues text={purchasesText(series)} name="achats prévus et réalisés par mois" />)
    expect(
      screen.getByText(/^Achats prévus et réalisés par mois, d'octobre 2026 à novembre 2026\. Prévus/),
    ).toBeVisible()
    const toggle = screen.getByRole('button', { name: 'Voir les valeurs : achats prévus et réalisés par mois' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('table')).not.toBeInTheDocument()

    await user.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    const table = await screen.findByRole('table', {
      name: "Achats prévus et réalisés par mois, d'octobre 2026 à novembre 2026, en euros hors taxes",
    })
    expect(rowsOf(table)).toEqual([
      ['Mois', 'Achats prévus', 'Achats réalisés'],
      ['octobre 2026', '0,00 €', '80,25 €'],
      ['novembre 2026', '1 234,50 €', '0,00 €'],
    ])
    // Each value is read with its month and its series.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Mois', 'Achats prévus', 'Achats réalisés'])
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((th) => th.textContent),
    ).toEqual(['octobre 2026', 'novembre 2026'])
  })
})

describe('ChartValuesPopover', () => {
  it('opens the summary and the table from a small button, and closes on Escape, the focus back on it', async () => {
    const user = userEvent.setup()
    renderWithProviders(
      <table>
        <tbody>
          <tr>
            <td>
              <ChartValuesPopover text={purchasesText(series)} name="achats par mois" />
            </td>
          </tr>
        </tbody>
      </table>,
    )
    // Closed, it adds nothing to the table it sits in.
    expect(screen.getAllByRole('table')).toHaveLength(1)
    const button = screen.getByRole('button', { name: 'Voir les valeurs : achats par mois' })
    await user.click(button)
    const dialog = await screen.findByRole('dialog', { name: /^Achats prévus et réalisés par mois, d'octobre 2026/ })
    const table = within(dialog).getByRole('table', { name: /^Achats prévus et réalisés par mois/ })
    expect(rowsOf(table)).toEqual([
      ['Mois', 'Achats prévus', 'Achats réalisés'],
      ['octobre 2026', '0,00 €', '80,25 €'],
      ['novembre 2026', '1 234,50 €', '0,00 €'],
    ])
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(button).toHaveFocus()
  })
})

describe('the dashboard’s statistics chart as text', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-11-20T10:00:00Z'))
    // The progression under the chart asks the daemon for its figures: none here.
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('', { status: 503 }))
    resetState(distributor.email)
    state.user = distributor
    state.products = products
  })

  afterEach(() => {
    vi.useRealTimers()
  })

  it('gives the 17 months of the chart, the commitments of the store among them', async () => {
    // The daemon's sums (GET /api/stats/purchases): 50 kg at 2,00 €
    // committed in December, 10 kg at 2,00 € in March.
    const months = Array.from({ length: 17 }, (_, i) => {
      const m = 6 + i // July 2026 is index 6 of 2026
      return `${2026 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}-01`
    })
    const planned = months.map((m) => (m === '2026-12-01' ? 100 : m === '2027-03-01' ? 20 : 0))
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) =>
      String(input) === '/api/stats/purchases'
        ? new Response(JSON.stringify({ months, planned, done: months.map(() => 0) }), {
            status: 200,
            headers: { 'Content-Type': 'application/json' },
          })
        : new Response('', { status: 503 }),
    )
    const user = userEvent.setup()
    renderWithProviders(<PurchasesChart />)
    expect(
      await screen.findByText(
        (text) =>
          nb(text) ===
          'Achats prévus et réalisés par mois, de juillet 2026 à novembre 2027. ' +
            'Prévus : 120,00 € au total, le plus haut en décembre 2026 (100,00 €). Réalisés : 0,00 € au total.',
      ),
    ).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Voir les valeurs : achats prévus et réalisés par mois' }))
    const rows = rowsOf(await screen.findByRole('table', { name: /^Achats prévus et réalisés par mois/ }))
    expect(rows).toHaveLength(18)
    expect(rows[1]).toEqual(['juillet 2026', '0,00 €', '0,00 €'])
    expect(rows[6]).toEqual(['décembre 2026', '100,00 €', '0,00 €'])
    expect(rows[9]).toEqual(['mars 2027', '20,00 €', '0,00 €'])
    expect(rows[17]).toEqual(['novembre 2027', '0,00 €', '0,00 €'])
  })
})
