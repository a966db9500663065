import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { FLAT_RATE_TEXTS, type FlatRateDocuments } from './FlatRate'
import { PaymentsScreen } from './PaymentsScreen'
import type { PaymentsView } from './types'

// PRODUCT §16 "Buyer's documents under the flat-rate refund": beside each
// recorded payment to a farmer under the refund, its purchase slip; per
// account, the yearly certificates; for a shop without VAT number, why
// there are none.

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })

const payment = (id: string, status: string, paidOn: string) => ({
  _id: id,
  amount: 30,
  paidOn,
  method: 'virement',
  reference: '',
  status,
  byShop: false,
  createdAt: `${paidOn}T09:00:00Z`,
  allocations: [],
})

const account = (partnerId: string, partnerName: string, flatRate?: FlatRateDocuments) => ({
  partnerId,
  partnerName,
  owed: 0,
  onAccount: 0,
  overdue: 0,
  declared: 0,
  reminders: true,
  penalties: 0,
  indemnities: 0,
  late: [],
  documents: [],
  payments: [
    payment(`${partnerId}-jan`, 'recorded', '2027-01-05'),
    payment(`${partnerId}-undone`, 'undone', '2026-12-20'),
  ],
  ...(flatRate ? { flatRate } : {}),
})

const listed: FlatRateDocuments = {
  liable: true,
  slips: [
    {
      paymentId: 'p1-jan',
      number: 'BA-20270105-38B1239699CF',
      paidOn: '2027-01-05',
      amount: 30,
      path: '/print/purchase-slip/p1-jan',
    },
  ],
  certificates: [
    { year: 2027, amount: 30, path: '/print/flat-rate-certificate/p1/2027' },
    { year: 2026, amount: 49, path: '/print/flat-rate-certificate/p1/2026' },
  ],
}

const view = (flatRate: FlatRateDocuments): PaymentsView =>
  ({
    today: '2027-01-06',
    accounts: [account('p1', 'Ferme du Coteau', flatRate), account('p2', 'Ferme des Aravis')],
  }) as unknown as PaymentsView

beforeEach(() => {
  resetState('x@exemple.fr')
})

describe("the buyer's documents of the flat-rate refund", () => {
  it.each([
    ['distributor', distributor],
    ['producer', producer],
  ] as const)(
    'are downloaded by the %s: the slip beside its payment, the certificate of each year',
    async (role, user) => {
      state.user = user
      vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(view(listed)))
      renderWithProviders(<PaymentsScreen />)
      const flat = await screen.findByRole('region', { name: 'Ferme du Coteau' })
      const slip = within(flat).getByRole('link', { name: "Bulletin d'achat BA-20270105-38B1239699CF (PDF)" })
      expect(slip).toHaveAttribute('href', '/print/purchase-slip/p1-jan')
      expect(slip).toHaveTextContent(FLAT_RATE_TEXTS.slip)
      expect(within(flat).getAllByRole('link', { name: /Bulletin d'achat/ })).toHaveLength(1)
      const certificates = within(flat).getByRole('region', { name: FLAT_RATE_TEXTS.title })
      expect(within(certificates).getByRole('link', { name: 'Attestation annuelle 2026 (PDF)' })).toHaveAttribute(
        'href',
        '/print/flat-rate-certificate/p1/2026',
      )
      expect(within(certificates).getByRole('link', { name: 'Attestation annuelle 2027 (PDF)' })).toHaveAttribute(
        'href',
        '/print/flat-rate-certificate/p1/2027',
      )
      expect(within(certificates).getByText(FLAT_RATE_TEXTS[role])).toBeInTheDocument()
      // Nothing for a producer under VAT.
      const other = screen.getByRole('region', { name: 'Ferme des Aravis' })
      expect(
        within(other).queryByRole('link', { name: /Bulletin d'achat|Attestation annuelle/ }),
      ).not.toBeInTheDocument()
      expect(within(other).queryByText(FLAT_RATE_TEXTS.title)).not.toBeInTheDocument()
    },
  )

  it('are not made for a shop without VAT number, which is told why', async () => {
    state.user = distributor
    const why = "Votre numéro de TVA intracommunautaire n'est pas renseigné dans votre profil : …"
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      json(view({ liable: false, why, slips: [], certificates: [] })),
    )
    renderWithProviders(<PaymentsScreen />)
    const flat = await screen.findByRole('region', { name: 'Ferme du Coteau' })
    expect(within(flat).getByRole('note')).toHaveTextContent(why)
    expect(within(flat).queryByRole('link', { name: /Bulletin d'achat|Attestation annuelle/ })).not.toBeInTheDocument()
  })
})
