import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { ledgerMessage } from '../validation/ledger'
import { AccountingExport, EXPORT_TEXTS } from './AccountingExport'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status < 400 ? 'application/json' : 'application/problem+json' },
  })

const DEFAULTS = {
  customers: '411',
  sales: '701',
  vatCollected: '44571',
  discountsGiven: '665',
  suppliers: '401',
  purchases: '607',
  vatDeductible: '44566',
  discountsReceived: '765',
  bank: '512',
  cash: '530',
}
const view = (months: string[], accounts = DEFAULTS) => ({ accounts, defaults: DEFAULTS, months })

describe('the accounting export', () => {
  beforeEach(() => {
    resetState('x@exemple.fr')
    vi.restoreAllMocks()
  })

  it("links the producer's months to their zip, latest first", async () => {
    state.user = producer
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, view(['2026-12', '2026-11'])))
    const user = userEvent.setup()
    renderWithProviders(<AccountingExport />)
    expect(screen.getByText(EXPORT_TEXTS.producer)).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: "Télécharger l'export de décembre 2026" })).toHaveAttribute(
      'href',
      '/print/invoices/2026-12',
    )
    await user.click(screen.getByLabelText(EXPORT_TEXTS.month, { selector: 'input' }))
    await user.click(screen.getByRole('option', { name: 'novembre 2026' }))
    expect(screen.getByRole('link', { name: "Télécharger l'export de novembre 2026" })).toHaveAttribute(
      'href',
      '/print/invoices/2026-11',
    )
  })

  it("links the shop's months to its purchases, and says when there is nothing yet", async () => {
    state.user = distributor
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, view(['2026-12'])))
    const first = renderWithProviders(<AccountingExport />)
    expect(screen.getByText(EXPORT_TEXTS.distributor)).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: "Télécharger l'export de décembre 2026" })).toHaveAttribute(
      'href',
      '/print/purchases/2026-12',
    )
    first.unmount()
    resetState('y@exemple.fr')
    state.user = { ...producer, _id: 'another' }
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, view([])))
    renderWithProviders(<AccountingExport />)
    expect(await screen.findByText(EXPORT_TEXTS.none)).toBeInTheDocument()
    expect(screen.queryByRole('link')).not.toBeInTheDocument()
  })

  it("sets the role's accounts, refusing a wrong one with the daemon's message", async () => {
    state.user = producer
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, view(['2026-12'])))
      .mockResolvedValueOnce(json(200, view(['2026-12'], { ...DEFAULTS, sales: '7011' })))
    const user = userEvent.setup()
    renderWithProviders(<AccountingExport />)
    await user.click(await screen.findByRole('button', { name: EXPORT_TEXTS.accounts }))
    // The accordion's panel opens with a transition: waited for, not assumed.
    const form = await screen.findByRole('form', { name: EXPORT_TEXTS.accounts })
    // A producer's six accounts, the shop's not.
    for (const label of ['Clients', 'Ventes', 'TVA collectée', 'Escomptes accordés', 'Banque', 'Caisse']) {
      expect(within(form).getByLabelText(label)).toBeInTheDocument()
    }
    expect(within(form).queryByLabelText('Fournisseurs')).not.toBeInTheDocument()
    const sales = within(form).getByLabelText('Ventes')
    expect(sales).toHaveValue('701')
    expect(within(form).getByText('Par défaut : 701')).toBeInTheDocument()
    await user.clear(sales)
    await user.type(sales, '601')
    await user.tab()
    expect(within(form).getByText(ledgerMessage('sales'))).toBeInTheDocument()
    expect(within(form).getByRole('button', { name: EXPORT_TEXTS.save })).toBeDisabled()
    await user.clear(sales)
    await user.type(sales, '7011')
    await user.click(within(form).getByRole('button', { name: EXPORT_TEXTS.save }))
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2))
    const [path, init] = fetch.mock.calls[1]
    expect(path).toBe('/api/accounting/accounts')
    expect(init?.method).toBe('PUT')
    expect(JSON.parse(String(init?.body))).toEqual({
      customers: '411',
      sales: '7011',
      vatCollected: '44571',
      discountsGiven: '665',
      bank: '512',
      cash: '530',
    })
    // The answer's accounts, the form afresh.
    await waitFor(() =>
      expect(
        within(screen.getByRole('form', { name: EXPORT_TEXTS.accounts })).getByRole('button', {
          name: EXPORT_TEXTS.save,
        }),
      ).toBeDisabled(),
    )
    expect(within(screen.getByRole('form', { name: EXPORT_TEXTS.accounts })).getByLabelText('Ventes')).toHaveValue(
      '7011',
    )
  })

  it("shows the daemon's refusal under its field", async () => {
    state.user = distributor
    vi.spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, view([])))
      .mockResolvedValueOnce(
        json(422, {
          status: 422,
          title: 'Unprocessable Entity',
          detail: ledgerMessage('purchases'),
          errors: [{ location: 'body.purchases', message: ledgerMessage('purchases') }],
        }),
      )
    const user = userEvent.setup()
    renderWithProviders(<AccountingExport />)
    await user.click(await screen.findByRole('button', { name: EXPORT_TEXTS.accounts }))
    // The accordion's panel opens with a transition: waited for, not assumed.
    const form = await screen.findByRole('form', { name: EXPORT_TEXTS.accounts })
    const purchases = within(form).getByLabelText('Achats')
    await user.clear(purchases)
    await user.type(purchases, '6071')
    await user.click(within(form).getByRole('button', { name: EXPORT_TEXTS.save }))
    expect(await within(form).findByText(ledgerMessage('purchases'))).toBeInTheDocument()
  })
})
