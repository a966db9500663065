import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { formatDay, formatEUR } from '../format'
import { resetState, state } from '../store/state'
import { distributor } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { discountOffer } from './labels'
import { PaymentsScreen } from './PaymentsScreen'
import type { PaymentsView } from './types'

// PRODUCT §16 "Escompte": an invoice whose escompte is open says what the
// shop may deduct and until when; its credit note, once granted, reads as
// the escompte's and takes the amount off.

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })

const document = {
  credited: 0,
  paid: 0,
  issueDate: '2026-11-30',
}

const view = {
  today: '2026-12-04',
  accounts: [
    {
      partnerId: 'p1',
      partnerName: 'Ferme des Aravis',
      owed: 105.5 + 26.38,
      onAccount: 0,
      overdue: 0,
      declared: 0,
      nextDue: '2026-12-10',
      reminders: true,
      penalties: 0,
      indemnities: 0,
      late: [],
      payments: [],
      documents: [
        {
          ...document,
          _id: 'i1',
          kind: 'invoice',
          number: 'FA-2026-000001',
          dueDate: '2026-12-10',
          total: 105.5,
          balance: 105.5,
          status: 'issued',
          path: '/print/invoice/o1',
          discount: 2.11,
          discountUntil: '2026-12-10',
        },
        {
          ...document,
          _id: 'i2',
          kind: 'invoice',
          number: 'FA-2026-000002',
          dueDate: '2026-12-20',
          total: 28.49,
          credited: 2.11,
          paid: 26.38,
          balance: 0,
          status: 'paid',
          path: '/print/invoice/o2',
        },
        {
          ...document,
          _id: 'c1',
          kind: 'discount',
          number: 'AV-2026-000001',
          issueDate: '2026-12-02',
          total: 2.11,
          balance: 0,
          status: 'imputed',
          refers: 'FA-2026-000002',
          path: '/print/creditnote/c1',
        },
      ],
    },
  ],
} as unknown as PaymentsView

beforeEach(() => {
  resetState('x@exemple.fr')
})

describe('the escompte', () => {
  it('is offered under its invoice until its last day, and its credit note reads as such', async () => {
    state.user = distributor
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(view))
    renderWithProviders(<PaymentsScreen />)
    const account = await screen.findByRole('region', { name: 'Ferme des Aravis' })
    // The formats' no-break spaces: compared as text, not through the query's normalizer.
    const offers = within(account).getAllByText(/^Escompte de /)
    expect(offers.map((o) => o.textContent)).toEqual([discountOffer(formatEUR(2.11), formatDay('2026-12-10'))])
    expect(within(account).getByRole('link', { name: "Avoir d'escompte AV-2026-000001" })).toBeInTheDocument()
    // A credit note is not paid: nothing to tick.
    expect(
      within(account).queryByRole('checkbox', { name: 'Payer AV-2026-000001 par virement' }),
    ).not.toBeInTheDocument()
    expect(within(account).getByRole('checkbox', { name: 'Payer FA-2026-000001 par virement' })).toBeInTheDocument()
  })
})
