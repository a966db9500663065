import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { ibanChangedNotice } from './labels'
import { PaymentsScreen } from './PaymentsScreen'
import type { PaymentsView } from './types'

// PRODUCT §16 "Payments", §13 "Changing the bank details": a producer's
// IBAN changed within 30 days is told to the shop preparing a transfer.

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })

const account = (partnerId: string, partnerName: string, ibanChangedOn?: string) => ({
  partnerId,
  partnerName,
  owed: 26.38,
  onAccount: 0,
  overdue: 0,
  declared: 0,
  nextDue: '2026-12-20',
  reminders: true,
  penalties: 0,
  indemnities: 0,
  late: [],
  documents: [
    {
      _id: `i-${partnerId}`,
      kind: 'invoice',
      number: `FA-2026-${partnerId}`,
      issueDate: '2026-11-30',
      dueDate: '2026-12-20',
      total: 26.38,
      credited: 0,
      paid: 0,
      balance: 26.38,
      status: 'issued',
      path: `/print/invoice/${partnerId}`,
    },
  ],
  payments: [],
  ...(ibanChangedOn ? { ibanChangedOn } : {}),
})

const view = (): PaymentsView =>
  ({
    today: '2026-12-12',
    accounts: [account('p1', 'Ferme des Aravis', '2026-12-03'), account('p2', 'Vergers du Semnoz')],
  }) as unknown as PaymentsView

beforeEach(() => {
  resetState('x@exemple.fr')
})

describe('the IBAN changed lately', () => {
  it('is dated in words', () => {
    expect(ibanChangedNotice('2026-12-03')).toBe(
      'IBAN modifié le 3 décembre 2026 : vérifiez-le auprès du producteur avant de payer.',
    )
  })

  it('shows on the producer’s account, and beside "Préparer le virement" once one of its invoices is ticked', async () => {
    state.user = distributor
    // The payments, and an empty preview of the transfer the ticked invoices make.
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) =>
      String(input) === '/api/payments' ? json(view()) : json({ executionDate: '2026-12-14', total: 0, transfers: [] }),
    )
    const user = userEvent.setup()
    renderWithProviders(<PaymentsScreen />)
    const notice = ibanChangedNotice('2026-12-03')
    const changed = await screen.findByRole('region', { name: 'Ferme des Aravis' })
    expect(within(changed).getByText(notice)).toBeInTheDocument()
    const other = screen.getByRole('region', { name: 'Vergers du Semnoz' })
    expect(within(other).queryByText(notice)).not.toBeInTheDocument()
    expect(screen.getAllByText(notice, { exact: false })).toHaveLength(1)

    await user.click(within(other).getByRole('checkbox', { name: 'Payer FA-2026-p2 par virement' }))
    expect(screen.getAllByText(notice, { exact: false })).toHaveLength(1)
    await user.click(within(changed).getByRole('checkbox', { name: 'Payer FA-2026-p1 par virement' }))
    expect(screen.getByText(`Ferme des Aravis — ${notice}`)).toBeInTheDocument()
  })

  it('is not shown to a producer', async () => {
    state.user = producer
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(view()))
    renderWithProviders(<PaymentsScreen />)
    await screen.findByRole('region', { name: 'Ferme des Aravis' })
    expect(screen.queryByText(ibanChangedNotice('2026-12-03'), { exact: false })).not.toBeInTheDocument()
  })
})
