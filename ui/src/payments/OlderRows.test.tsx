import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { distributor } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { OLDER_FAILED, olderDocumentsLabel, olderPaymentsLabel } from './labels'
import { PaymentsScreen } from './PaymentsScreen'
import type { PaymentDocument, Payment, PaymentsHistory, PaymentsView } from './types'

// Issue 42: an account lists its open documents and the recent months';
// the older settled documents and payments come a page per click, appended,
// until none remains.

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const doc = (
  id: string,
  number: string,
  issueDate: string,
  status: PaymentDocument['status'] = 'paid',
): PaymentDocument => ({
  _id: id,
  kind: 'invoice',
  number,
  issueDate,
  dueDate: issueDate.slice(0, 8) + '09',
  total: 26.38,
  credited: 0,
  paid: status === 'paid' ? 26.38 : 0,
  balance: status === 'paid' ? 0 : 26.38,
  status,
  path: `/print/invoice/o-${id}`,
})

const pay = (id: string, paidOn: string): Payment => ({
  _id: id,
  amount: 26.38,
  paidOn,
  method: 'virement',
  reference: '',
  status: 'recorded',
  byShop: false,
  createdAt: `${paidOn}T09:00:00Z`,
  allocations: [],
})

const view: PaymentsView = {
  today: '2026-12-03',
  accounts: [
    {
      partnerId: 'p1',
      partnerName: 'Ferme des Aravis',
      owed: 52.76,
      onAccount: 0,
      overdue: 26.38,
      declared: 0,
      nextDue: '2026-06-09',
      reminders: true,
      penalties: 0,
      indemnities: 0,
      late: [],
      documents: [
        doc('i6', 'FA-2026-000003', '2026-06-01', 'overdue'),
        doc('i12', 'FA-2026-000009', '2026-12-01', 'issued'),
      ],
      payments: [pay('p11', '2026-11-05')],
      olderDocuments: 3,
      olderPayments: 2,
      olderBefore: '2026-10-01',
    },
  ],
}

const first: PaymentsHistory = {
  documents: [doc('i9', 'FA-2026-000006', '2026-09-01'), doc('i8', 'FA-2026-000005', '2026-08-01')],
  payments: [pay('p9', '2026-09-05')],
  more: true,
  before: '2026-08-01',
  olderDocuments: 1,
  olderPayments: 1,
}

const last: PaymentsHistory = {
  documents: [doc('i4', 'FA-2026-000001', '2026-04-01')],
  payments: [pay('p4', '2026-04-05')],
  more: false,
  olderDocuments: 0,
  olderPayments: 0,
}

describe('the older rows of an account', () => {
  beforeEach(() => {
    resetState('x@exemple.fr')
    state.user = distributor
  })

  it('are read a page per click, appended, until none remains, by keyboard too', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, view))
      .mockResolvedValueOnce(json(200, first))
      .mockResolvedValueOnce(json(200, last))
    const user = userEvent.setup()
    renderWithProviders(<PaymentsScreen />)
    const card = await screen.findByRole('region', { name: 'Ferme des Aravis' })
    const table = within(card).getByRole('table', { name: 'Documents — Ferme des Aravis' })
    expect(within(table).getAllByRole('row')).toHaveLength(3)
    // The open invoice of June is there, with its checkbox for a transfer.
    expect(within(card).getByRole('checkbox', { name: 'Payer FA-2026-000003 par virement' })).toBeInTheDocument()
    expect(within(card).getByRole('button', { name: olderPaymentsLabel(2) })).toBeInTheDocument()

    await user.click(within(card).getByRole('button', { name: olderDocumentsLabel(3) }))
    await within(card).findByRole('link', { name: 'Facture FA-2026-000006' })
    expect(String(fetch.mock.calls[1][0])).toBe('/api/payments/p1/history?before=2026-10-01')
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(5)
    expect(rows[3]).toHaveTextContent('FA-2026-000006')
    expect(rows[4]).toHaveTextContent('FA-2026-000005')
    expect(within(card).getByText(/05\/09\/2026 — Virement de 26,38/)).toBeInTheDocument()
    // Settled: no checkbox for a transfer.
    expect(within(card).getAllByRole('checkbox')).toHaveLength(2)

    // The next page by keyboard, from the payments' button.
    within(card)
      .getByRole('button', { name: olderPaymentsLabel(1) })
      .focus()
    await user.keyboard('{Enter}')
    await within(card).findByRole('link', { name: 'Facture FA-2026-000001' })
    expect(String(fetch.mock.calls[2][0])).toBe('/api/payments/p1/history?before=2026-08-01')
    expect(within(card).getByText(/05\/04\/2026 — Virement de 26,38/)).toBeInTheDocument()
    expect(within(card).queryByRole('button', { name: /plus ancien/ })).toBeNull()
    expect(fetch).toHaveBeenCalledTimes(3)
  })

  it('says in French when they cannot be read, and tries again', async () => {
    vi.spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, view))
      .mockResolvedValueOnce(
        json(500, { title: 'Internal Server Error', status: 500, detail: 'Erreur interne, réessayez plus tard.' }),
      )
      .mockResolvedValueOnce(json(200, first))
    const user = userEvent.setup()
    renderWithProviders(<PaymentsScreen />)
    const card = await screen.findByRole('region', { name: 'Ferme des Aravis' })
    await user.click(within(card).getByRole('button', { name: olderDocumentsLabel(3) }))
    expect(await within(card).findByText(OLDER_FAILED)).toBeInTheDocument()
    expect(within(card).getByText('Erreur interne, réessayez plus tard.')).toBeInTheDocument()
    await user.click(within(card).getByRole('button', { name: olderDocumentsLabel(3) }))
    await within(card).findByRole('link', { name: 'Facture FA-2026-000006' })
    await waitFor(() => expect(within(card).queryByText(OLDER_FAILED)).toBeNull())
  })
})
