import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { PAYMENT_MESSAGES } from '../validation/payment'
import { NOTHING_OWED } from './PaymentForm'
import { PaymentsScreen } from './PaymentsScreen'
import type { PaymentsView } from './types'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const view = (over: Partial<PaymentsView['accounts'][number]> = {}): PaymentsView => ({
  today: '2026-12-12',
  accounts: [
    {
      partnerId: 'd1',
      partnerName: 'Épicerie du Lac',
      owed: 68.58,
      onAccount: 0,
      overdue: 26.38,
      declared: 0,
      nextDue: '2026-11-09',
      documents: [
        {
          _id: 'i1',
          kind: 'invoice',
          number: 'FA-2026-000001',
          issueDate: '2026-11-01',
          dueDate: '2026-11-09',
          total: 26.38,
          credited: 0,
          paid: 0,
          balance: 26.38,
          status: 'overdue',
          path: '/print/invoice/o1',
        },
        {
          _id: 'c1',
          kind: 'credit',
          number: 'AV-2026-000001',
          issueDate: '2026-12-01',
          total: 10.55,
          credited: 0,
          paid: 0,
          balance: 0,
          status: 'imputed',
          refers: 'FA-2026-000002',
          path: '/print/creditnote/c1',
        },
        {
          _id: 'i2',
          kind: 'invoice',
          number: 'FA-2026-000002',
          issueDate: '2026-12-01',
          dueDate: '2026-12-10',
          total: 52.75,
          credited: 10.55,
          paid: 0,
          balance: 42.2,
          status: 'issued',
          path: '/print/invoice/o2',
        },
      ],
      payments: [],
      reminders: true,
      penalties: 0.2,
      indemnities: 40,
      late: [
        {
          documentId: 'i1',
          number: 'FA-2026-000001',
          dueDate: '2026-11-09',
          paidOff: '2026-12-01',
          days: 22,
          penalty: 0.2,
          indemnity: 40,
          periods: [
            {
              from: '2026-11-10',
              to: '2026-11-20',
              days: 11,
              balance: 26.38,
              ecbRate: 2.15,
              rate: 12.15,
              rateListed: true,
              penalty: 0.1,
            },
            {
              from: '2026-11-21',
              to: '2026-12-01',
              days: 11,
              balance: 16.38,
              ecbRate: 2.15,
              rate: 12.15,
              rateListed: false,
              penalty: 0.1,
            },
          ],
        },
      ],
      ...over,
    },
  ],
})

describe('PaymentsScreen', () => {
  beforeEach(() => resetState('x@exemple.fr'))

  it('shows the producer what each shop owes, overdue first, and records a payment', async () => {
    state.user = producer
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, view()))
      .mockResolvedValueOnce(
        json(
          200,
          view({
            owed: 38.58,
            overdue: 0,
            payments: [
              {
                _id: 'p1',
                amount: 30,
                paidOn: '2026-12-12',
                method: 'cheque',
                reference: 'CHQ 42',
                status: 'recorded',
                byShop: false,
                createdAt: '2026-12-12T09:00:00Z',
                allocations: [],
              },
            ],
          }),
        ),
      )
    const user = userEvent.setup()
    renderWithProviders(<PaymentsScreen />)
    expect(screen.getByRole('heading', { name: 'À encaisser' })).toBeInTheDocument()
    const card = await screen.findByRole('region', { name: 'Épicerie du Lac' })
    expect(within(card).getByText('dont 26,38 € en retard')).toBeInTheDocument()
    expect(
      within(card).getByText(
        /vous pouvez réclamer des pénalités de retard de 0,20 € et des indemnités forfaitaires de recouvrement de 40,00 €/,
      ),
    ).toBeInTheDocument()
    // The penalties per invoice and period, behind their disclosure.
    await user.click(within(card).getByRole('button', { name: 'Détail par facture : Épicerie du Lac' }))
    const late = await within(card).findByRole('table', { name: 'Pénalités de retard — Épicerie du Lac' })
    const periods = within(late).getAllByRole('row')
    expect(periods).toHaveLength(3)
    expect(periods[1]).toHaveTextContent(
      /FA-2026-000001échéance le 09\/11\/2026, payée le 01\/12\/2026du 10\/11\/2026 au 20\/11\/20261126,38\s€12,15 %0,10\s€40,00\s€/,
    )
    expect(periods[2]).toHaveTextContent(/du 21\/11\/2026 au 01\/12\/20261116,38\s€12,15 % \*0,10\s€/)
    expect(within(card).getByText(/celui du semestre précédent est repris/)).toBeInTheDocument()
    const rows = within(card)
      .getAllByRole('table', { name: 'Documents — Épicerie du Lac' })
      .flatMap((t) => within(t).getAllByRole('row'))
    expect(rows[1]).toHaveTextContent('Facture FA-2026-000001')
    expect(rows[1]).toHaveTextContent('En retard')
    expect(rows[2]).toHaveTextContent('Avoir AV-2026-000001')
    expect(rows[2]).toHaveTextContent('sur la facture FA-2026-000002')
    expect(within(card).getByRole('link', { name: 'Facture FA-2026-000001' })).toHaveAttribute(
      'href',
      '/print/invoice/o1',
    )

    await user.click(within(card).getByRole('button', { name: 'Enregistrer un paiement reçu' }))
    const form = within(card).getByRole('form', { name: 'Paiement' })
    const amount = within(form).getByLabelText('Montant (€)')
    await user.clear(amount)
    await user.type(amount, '0')
    await user.tab()
    expect(within(form).getByText(PAYMENT_MESSAGES.amount)).toBeInTheDocument()
    await user.clear(amount)
    await user.type(amount, '30')
    await user.click(within(form).getByLabelText('Moyen de paiement', { selector: 'input' }))
    await user.click(screen.getByRole('option', { name: 'Chèque' }))
    await user.type(within(form).getByLabelText('Référence (facultatif)'), 'CHQ 42')
    await user.click(within(form).getByRole('button', { name: 'Enregistrer le paiement' }))

    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2))
    const [url, init] = fetch.mock.calls[1]
    expect(url).toBe('/api/payments')
    expect(init?.method).toBe('POST')
    expect(JSON.parse(String(init?.body))).toEqual({
      partnerId: 'd1',
      amount: 30,
      paidOn: '2026-12-12',
      method: 'cheque',
      reference: 'CHQ 42',
      documents: [],
    })
    expect(await within(card).findByText(/Chèque de 30,00\s€ \(CHQ 42\) — Enregistré/)).toBeInTheDocument()
    expect(within(card).getByRole('button', { name: 'Annuler ce paiement' })).toBeInTheDocument()

    // Reminders of this shop turned off.
    fetch.mockResolvedValueOnce(json(200, view({ reminders: false })))
    const reminders = within(card).getByRole('switch', { name: /^Relances automatiques des factures échues/ })
    expect(reminders).toBeChecked()
    await user.click(reminders)
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(3))
    expect(fetch.mock.calls[2][0]).toBe('/api/reminders/d1')
    expect(JSON.parse(String(fetch.mock.calls[2][1]?.body))).toEqual({ enabled: false })
    await waitFor(() => expect(reminders).not.toBeChecked())
  })

  it('lets the shop withdraw a declaration, and the producer confirm one', async () => {
    const declared = {
      _id: 'p2',
      amount: 42.2,
      paidOn: '2026-12-11',
      method: 'virement' as const,
      reference: '',
      status: 'declared' as const,
      byShop: true,
      createdAt: '2026-12-11T09:00:00Z',
      allocations: [],
    }
    state.user = distributor
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      json(200, view({ partnerName: 'Ferme des Aravis', declared: 42.2, payments: [declared] })),
    )
    const { unmount } = renderWithProviders(<PaymentsScreen />)
    expect(screen.getByRole('heading', { name: 'À payer' })).toBeInTheDocument()
    const card = await screen.findByRole('region', { name: 'Ferme des Aravis' })
    expect(within(card).getByText('42,20 € déclarés, à confirmer')).toBeInTheDocument()
    expect(within(card).queryByText(/vous pouvez réclamer/)).not.toBeInTheDocument()
    expect(within(card).getByRole('button', { name: 'Annuler ce paiement' })).toBeInTheDocument()
    expect(within(card).queryByRole('button', { name: 'Confirmer la réception' })).not.toBeInTheDocument()
    expect(within(card).getByRole('button', { name: 'Déclarer un paiement' })).toBeInTheDocument()
    unmount()

    resetState('x@exemple.fr')
    state.user = producer
    renderWithProviders(<PaymentsScreen />)
    const farmCard = await screen.findByRole('region', { name: 'Ferme des Aravis' })
    expect(within(farmCard).getByRole('button', { name: 'Confirmer la réception' })).toBeInTheDocument()
    expect(within(farmCard).getByRole('button', { name: 'Refuser' })).toBeInTheDocument()
  })

  it('tells the shop what its payments left on account', async () => {
    state.user = distributor
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      json(200, view({ partnerName: 'Ferme des Aravis', owed: -11.42, onAccount: 11.42, overdue: 0 })),
    )
    renderWithProviders(<PaymentsScreen />)
    const card = await screen.findByRole('region', { name: 'Ferme des Aravis' })
    expect(within(card).getByLabelText('Reste à payer')).toHaveTextContent(/^-11,42\s€$/)
    expect(
      within(card).getByText(/^11,42\s€ d'avance en compte, imputés sur les prochaines factures$/),
    ).toBeInTheDocument()
  })

  it('warns before a payment entered while nothing is owed, on both sides (issue 37)', async () => {
    const user = userEvent.setup()
    state.user = distributor
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      json(200, view({ partnerName: 'Ferme des Aravis', owed: -11.42, onAccount: 11.42, overdue: 0 })),
    )
    const { unmount } = renderWithProviders(<PaymentsScreen />)
    let card = await screen.findByRole('region', { name: 'Ferme des Aravis' })
    await user.click(within(card).getByRole('button', { name: 'Déclarer un paiement' }))
    let form = within(card).getByRole('form', { name: 'Paiement' })
    expect(within(form).getByText(NOTHING_OWED.title)).toBeInTheDocument()
    expect(within(form).getByText(NOTHING_OWED.distributor)).toBeInTheDocument()
    unmount()

    state.user = producer
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(200, view({ owed: 0, overdue: 0 })))
    const { unmount: unmountNothing } = renderWithProviders(<PaymentsScreen />)
    card = await screen.findByRole('region', { name: 'Épicerie du Lac' })
    await user.click(within(card).getByRole('button', { name: 'Enregistrer un paiement reçu' }))
    form = within(card).getByRole('form', { name: 'Paiement' })
    expect(within(form).getByText(NOTHING_OWED.producer)).toBeInTheDocument()
    unmountNothing()

    // Something owed: no warning.
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(200, view()))
    renderWithProviders(<PaymentsScreen />)
    card = await screen.findByRole('region', { name: 'Épicerie du Lac' })
    await user.click(within(card).getByRole('button', { name: 'Enregistrer un paiement reçu' }))
    form = within(card).getByRole('form', { name: 'Paiement' })
    expect(within(form).queryByText(NOTHING_OWED.title)).not.toBeInTheDocument()
  })

  it.each([
    ['accountant', true],
    ['owner', true],
    ['buyer', false],
    ['receiver', false],
  ] as const)('shows the transfer and the payments to a shop’s %s: %s (PRODUCT §13 "Teams")', async (role, shown) => {
    state.user = { ...distributor, role }
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(200, view({ partnerName: 'Ferme des Aravis' })))
    renderWithProviders(<PaymentsScreen />)
    await screen.findByRole('region', { name: 'Ferme des Aravis' })
    expect(screen.queryByRole('button', { name: 'Préparer le virement' }) !== null).toBe(shown)
    expect(screen.queryByRole('button', { name: 'Déclarer un paiement' }) !== null).toBe(shown)
  })

  it('prepares the SEPA transfer of the invoices the shop chooses, shows what it will carry, and says why when it cannot', async () => {
    state.user = distributor
    const create = vi.fn(() => 'blob:transfer')
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: vi.fn() })
    const refusal = json(422, {
      status: 422,
      title: 'Unprocessable Entity',
      detail: "Ferme des Aravis n'a pas renseigné d'IBAN valide : son virement ne peut pas être préparé.",
    })
    let files = 0
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input)
      if (url === '/api/payments') return json(200, view({ partnerName: 'Ferme des Aravis' }))
      if (url.startsWith('/api/payments/transfer?'))
        return json(200, {
          executionDate: '2026-12-28',
          total: 68.58,
          transfers: [
            {
              partnerId: 'p1',
              name: 'Ferme des Aravis',
              iban: 'FR7630006000011234567890189',
              amount: 68.58,
              remittance: 'Factures FA-2026-000001 FA-2026-000002 (moins AV-2026-000001)',
            },
          ],
        })
      files++
      if (files === 1) return refusal
      return new Response('<Document/>', {
        status: 200,
        headers: {
          'Content-Type': 'application/xml',
          'Content-Disposition': 'attachment; filename="virements-2026-12-12.xml"',
        },
      })
    })
    const user = userEvent.setup()
    renderWithProviders(<PaymentsScreen />)
    const card = await screen.findByRole('region', { name: 'Ferme des Aravis' })
    const prepare = screen.getByRole('button', { name: 'Préparer le virement' })
    expect(prepare).toBeDisabled()
    expect(screen.queryByRole('region', { name: 'Aperçu du virement' })).not.toBeInTheDocument()
    expect(within(card).queryByRole('checkbox', { name: 'Payer AV-2026-000001 par virement' })).not.toBeInTheDocument()
    await user.click(within(card).getByRole('checkbox', { name: 'Payer FA-2026-000001 par virement' }))
    await user.click(within(card).getByRole('checkbox', { name: 'Payer FA-2026-000002 par virement' }))
    const preview = await screen.findByRole('region', { name: 'Aperçu du virement' })
    expect(preview).toHaveTextContent(
      /le lundi 28 décembre 2026 \(prochain jour ouvré du système de paiement européen TARGET2\)/,
    )
    expect(preview).toHaveTextContent(/Ferme des Aravis : 68,58\s€ sur l'IBAN FR76 3000 6000 0112 3456 7890 189/)
    expect(preview).toHaveTextContent('Libellé : Factures FA-2026-000001 FA-2026-000002 (moins AV-2026-000001)')
    expect(fetch.mock.calls.map((c) => String(c[0]))).toContain('/api/payments/transfer?documents=i1,i2')
    await user.click(screen.getByRole('button', { name: 'Préparer le virement (2 factures)' }))
    expect(
      await screen.findByText(
        "Ferme des Aravis n'a pas renseigné d'IBAN valide : son virement ne peut pas être préparé.",
      ),
    ).toBeInTheDocument()
    expect(fetch.mock.calls.map((c) => String(c[0]))).toContain('/print/transfer?documents=i1,i2')
    await user.click(screen.getByRole('button', { name: 'Préparer le virement (2 factures)' }))
    expect(await screen.findByText('Fichier de virement prêt : importez-le dans votre banque')).toBeInTheDocument()
    expect(create).toHaveBeenCalledTimes(1)
  })

  it('says why the transfer of the invoices chosen cannot be prepared', async () => {
    state.user = distributor
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) =>
      String(input) === '/api/payments'
        ? json(200, view({ partnerName: 'Ferme des Aravis' }))
        : json(422, { status: 422, title: 'Unprocessable Entity', detail: 'Renseignez un IBAN valide.' }),
    )
    const user = userEvent.setup()
    renderWithProviders(<PaymentsScreen />)
    const card = await screen.findByRole('region', { name: 'Ferme des Aravis' })
    await user.click(within(card).getByRole('checkbox', { name: 'Payer FA-2026-000001 par virement' }))
    expect(await screen.findByText('Renseignez un IBAN valide.')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Aperçu du virement' })).not.toBeInTheDocument()
  })
})
