import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DELIVERY_TOASTS, deliverySettings } from '../store/deliveries'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { asPhone } from '../test/phone'
import { renderWithProviders } from '../test/render'
import type { Delivery, Order } from '../types'
import { CLAIM_MESSAGES } from '../validation/claim'
import { DELIVERY_MESSAGES } from '../validation/delivery'
import { CANCEL_DIALOG } from './CancelDeliveryButton'
import { RAISING_NOTE } from './ClaimForm'
import { DELIVERY_SHEET_TITLE, DeliveriesPage } from './DeliveriesPage'
import { CLAIM_WAITING, EMPTY_TEXT } from './DeliveriesTable'
import { holdLists } from '../test/lists'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

function delivery(
  id: string,
  date: string,
  status: Delivery['status'],
  chrono: number,
  extra: Partial<Delivery> = {},
): Delivery {
  return {
    _id: id,
    orderId: 'o1',
    status,
    date,
    chrono,
    claimStatus: 'void',
    claimBy: 'producer',
    deliveryLines: [
      { _id: `${id}-t`, product: 'tomate', price: 2.5, quantityExpected: 10, quantitySent: 10, quantityClaimed: 0 },
      { _id: `${id}-l`, product: 'laitue', price: 0.9, quantityExpected: 20, quantitySent: 20, quantityClaimed: 0 },
    ],
    ...extra,
  }
}

const SETTINGS = {
  lock: '12:00',
  lockLabel: '12h',
  timeZone: 'Europe/Paris',
  autovalidateHours: 48,
  claimWorkingDays: 2,
  holidays: ['2026-11-11', '2026-12-25'],
}

/** What GET /api/accounting answers: the export panel reads it at mount. */
const ACCOUNTING_DEFAULTS = {
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
const ACCOUNTING = { accounts: ACCOUNTING_DEFAULTS, defaults: ACCOUNTING_DEFAULTS, months: ['2026-11'] }

/**
 * Stubs fetch: the delivery settings the page reads at mount, then the
 * answers given, one per action call, in order. Returns the action calls.
 */
function stubFetch(...answers: Response[]) {
  const calls: [string, RequestInit | undefined][] = []
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input)
    if (url === '/api/deliveries/settings') return json(200, SETTINGS)
    if (url === '/api/accounting') return json(200, ACCOUNTING)
    calls.push([url, init])
    const answer = answers.shift()
    if (!answer) throw new Error(`unexpected call ${url}`)
    return answer
  })
  return calls
}

function order(deliveries: Delivery[], extra: Partial<Order> = {}): Order {
  return { _id: 'o1', date: '2026-11-01', deliveries, ...extra }
}

function setUp(role: 'producer' | 'distributor', orders: Order[]) {
  resetState('x@exemple.fr')
  holdLists()
  state.user = role === 'producer' ? producer : distributor
  state.products = [
    { _id: 'tomate', name: 'Tomate', family: 'legumes', vatRate: 550, unit: 'kg', refPrice: 0 },
    { _id: 'laitue', name: 'Laitue', family: 'legumes', vatRate: 550, unit: 'un', refPrice: 0 },
  ]
  state.producers = [{ _id: 'p1', name: 'Ferme des Aravis' }]
  state.distributors = [{ _id: 'd1', name: 'Épicerie du Lac', email: 'e@x.fr', latitude: '', longitude: '' }]
  state.orders = orders.map((o) => (role === 'producer' ? { ...o, distributor: 'd1' } : { ...o, producer: 'p1' }))
  state.loaded = true
}

beforeEach(() => {
  Object.assign(deliverySettings, SETTINGS)
  // Friday 20 November 2026, 10:00 in Paris. Only Date is faked: the
  // component library's timers keep running.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-11-20T10:00:00+01:00'))
})
afterEach(() => vi.useRealTimers())

const table = () => screen.getByRole('table', { name: 'Livraisons' })
const bodyRows = () => within(table()).getAllByRole('row').slice(1)
const cells = () =>
  bodyRows().map((r) =>
    within(r)
      .getAllByRole('cell')
      .map((c) => c.textContent),
  )

describe('DeliveriesPage', () => {
  it('lists, filters, sorts and paginates the deliveries', async () => {
    const user = userEvent.setup()
    stubFetch()
    const many = Array.from({ length: 7 }, (_, i) =>
      delivery(`p${i}`, `2026-11-${String(21 + i).padStart(2, '0')}`, 'planned', 10 + i),
    )
    setUp('distributor', [
      order([
        ...many,
        delivery('c', '2026-11-23', 'cancelled', 3),
        delivery('d', '2026-11-18', 'done', 2),
        delivery('e', '2026-10-01', 'done', 1),
      ]),
    ])
    renderWithProviders(<DeliveriesPage />)
    expect(screen.getByRole('heading', { name: 'Livraisons passées et futures' })).toBeInTheDocument()
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'À venir (14 jours)',
      'À venir',
      'Passées (14 jours)',
      'Passées',
    ])
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim()),
    ).toEqual(['Producteur', 'Chrono', 'Statut', 'Date de livraison'])
    // Upcoming within 14 days, soonest first, 5 per page.
    expect(cells()).toHaveLength(5)
    expect(cells()[0]).toEqual(['Ferme des Aravis', '10', 'Prévue', '21/11/2026'])
    expect(cells().map((c) => c[1])).toEqual(['10', '11', '3', '12', '13'])
    await user.click(screen.getByRole('button', { name: '2' }))
    expect(cells().map((c) => c[1])).toEqual(['14', '15', '16'])

    // 20 rows per page.
    await user.click(screen.getByLabelText('Lignes par page', { selector: 'input' }))
    await user.click(screen.getByRole('option', { name: '20' }))
    expect(cells()).toHaveLength(8)

    // Status order: planned, done, cancelled; a second click reverses it.
    await user.click(screen.getByRole('button', { name: /Statut/ }))
    expect(cells().map((c) => c[2])).toEqual([...Array(7).fill('Prévue'), 'Annulée'])
    await user.click(screen.getByRole('button', { name: /Statut/ }))
    expect(cells()[0][2]).toBe('Annulée')

    // The past, latest first.
    await user.click(screen.getByRole('tab', { name: 'Passées' }))
    expect(cells().map((c) => c[3])).toEqual(['18/11/2026', '01/10/2026'])
    await user.click(screen.getByRole('tab', { name: 'Passées (14 jours)' }))
    expect(cells().map((c) => c[3])).toEqual(['18/11/2026'])
  })

  it('says when nothing matches', () => {
    stubFetch()
    setUp('producer', [order([delivery('e', '2026-10-01', 'done', 1)])])
    renderWithProviders(<DeliveriesPage />)
    expect(screen.getByText(EMPTY_TEXT)).toBeInTheDocument()
    expect(within(table()).getAllByRole('columnheader')[0]).toHaveTextContent('Magasin')
  })

  it('lets the shop change the sent quantities, with the PRODUCT messages', async () => {
    const user = userEvent.setup()
    const d = delivery('a', '2026-11-24', 'planned', 7)
    setUp('distributor', [order([d])])
    const saved = order([{ ...d, deliveryLines: [{ ...d.deliveryLines[0], quantitySent: 9.5 }, d.deliveryLines[1]] }], {
      producer: 'p1',
    })
    const calls = stubFetch(json(200, saved))
    renderWithProviders(<DeliveriesPage />)
    await user.click(screen.getByRole('cell', { name: '7' }))
    const editor = screen.getByRole('region', { name: 'Bon de livraison' })
    expect(within(editor).getByText('Date de livraison : mardi 24 novembre 2026')).toBeInTheDocument()
    // The real lock (PRODUCT §4: 12h; the landing page's 7h is marketing text).
    expect(
      within(editor).getByText(
        "Bon de livraison modifiable jusqu'à 12h le jour de la livraison, puis envoyé par email aux deux parties.",
      ),
    ).toBeInTheDocument()
    expect(within(editor).getByRole('link', { name: 'Télécharger le bon de livraison' })).toHaveAttribute(
      'href',
      '/print/delivery/o1/a',
    )
    expect(within(editor).queryByRole('link', { name: /facture/ })).not.toBeInTheDocument()
    // The date picker says why it stops at the month's end.
    expect(within(editor).getByRole('button', { name: 'Date de livraison' })).toHaveAccessibleDescription(
      'Au plus tôt demain, au plus tard le lundi 30 novembre 2026 : une livraison reste dans le mois de sa commande, facturée une fois le mois terminé.',
    )

    const save = within(editor).getByRole('button', { name: 'Enregistrer' })
    expect(save).toBeDisabled()
    const tomato = within(editor).getByLabelText('Quantité livrée — Tomate (kg)')
    await user.clear(tomato)
    await user.type(tomato, '-2')
    await user.tab()
    expect(within(editor).getByText(DELIVERY_MESSAGES.negative)).toBeInTheDocument()
    await user.clear(tomato)
    await user.type(tomato, '9.555')
    expect(within(editor).getByText(DELIVERY_MESSAGES.weight)).toBeInTheDocument()
    const lettuce = within(editor).getByLabelText('Quantité livrée — Laitue (un)')
    await user.clear(lettuce)
    await user.type(lettuce, '2,5')
    await user.tab()
    expect(within(editor).getByText(DELIVERY_MESSAGES.pieces)).toBeInTheDocument()
    expect(save).toBeDisabled()
    await user.clear(lettuce)
    await user.type(lettuce, '20')
    await user.clear(tomato)
    await user.type(tomato, '9.5')
    expect(save).toBeEnabled()
    await user.click(save)

    const [url, init] = calls[0]
    expect(url).toBe('/api/deliveries/update/o1/a')
    expect(init?.method).toBe('PUT')
    expect(JSON.parse(String(init?.body))).toEqual({ deliveryLines: [{ _id: 'a-t', quantitySent: 9.5 }] })
    expect(await screen.findByText(DELIVERY_TOASTS.updated)).toBeInTheDocument()
    expect(state.orders[0].deliveries[0].deliveryLines[0].quantitySent).toBe(9.5)
  })

  it('lets the shop cancel after confirming, and reports a failure', async () => {
    const user = userEvent.setup()
    setUp('distributor', [order([delivery('a', '2026-11-24', 'planned', 7)])])
    const calls = stubFetch(json(409, { status: 409, detail: 'Cette livraison n’est plus modifiable' }))
    renderWithProviders(<DeliveriesPage />)
    await user.click(screen.getByRole('cell', { name: '7' }))
    const trigger = screen.getByRole('button', { name: 'Annuler la livraison' })
    await user.click(trigger)
    // Nothing is cancelled yet: a dialog says what cancelling does, the focus on the safe choice.
    expect(calls).toHaveLength(0)
    const dialog = await screen.findByRole('dialog', { name: CANCEL_DIALOG.title })
    expect(dialog).toHaveTextContent(
      'La livraison n° 7 de Ferme des Aravis, prévue le mardi 24 novembre 2026, sera annulée.',
    )
    expect(dialog).toHaveTextContent(CANCEL_DIALOG.final)
    await waitFor(() => expect(within(dialog).getByRole('button', { name: CANCEL_DIALOG.keep })).toHaveFocus())
    // Keeping it closes the dialog, cancels nothing, and gives the focus back.
    await user.click(within(dialog).getByRole('button', { name: CANCEL_DIALOG.keep }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(trigger).toHaveFocus())
    expect(calls).toHaveLength(0)
    // Escape closes it too.
    await user.click(trigger)
    await screen.findByRole('dialog', { name: CANCEL_DIALOG.title })
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(calls).toHaveLength(0)
    // Confirming cancels.
    await user.click(trigger)
    await user.click(
      within(await screen.findByRole('dialog', { name: CANCEL_DIALOG.title })).getByRole('button', {
        name: CANCEL_DIALOG.confirm,
      }),
    )
    expect(calls[0][0]).toBe('/api/deliveries/cancel/o1/a')
    expect(await screen.findByText(DELIVERY_TOASTS.cancelFailed)).toBeInTheDocument()
  })

  it('offers no change on a delivery past its lock', async () => {
    const user = userEvent.setup()
    vi.setSystemTime(new Date('2026-11-24T12:00:00+01:00'))
    stubFetch()
    setUp('distributor', [order([delivery('a', '2026-11-24', 'planned', 7)])])
    renderWithProviders(<DeliveriesPage />)
    await user.click(screen.getByRole('cell', { name: '7' }))
    expect(screen.queryByRole('button', { name: 'Annuler la livraison' })).not.toBeInTheDocument()
  })

  it('lets the producer claim, then shows the claim as sent', async () => {
    const user = userEvent.setup()
    const d = delivery('a', '2026-11-18', 'done', 5)
    setUp('producer', [order([d], { invoice: undefined })])
    const claimed: Delivery = {
      ...d,
      claimStatus: 'sent',
      claimSentAt: '2026-11-20T09:00:00Z',
      deliveryLines: [
        { ...d.deliveryLines[0], quantityClaimed: -2.5, claimType: 'quality', claimComment: 'Abîmées' },
        d.deliveryLines[1],
      ],
    }
    const calls = stubFetch(json(200, order([claimed], { distributor: 'd1' })))
    renderWithProviders(<DeliveriesPage />)
    await user.click(screen.getByRole('tab', { name: 'Passées' }))
    await user.click(screen.getByRole('cell', { name: '5' }))
    const editor = screen.getByRole('region', { name: 'Bon de livraison' })
    expect(
      within(editor).getByText(/Le magasin sera facturé de la quantité livrée augmentée de la quantité réclamée/),
    ).toBeInTheDocument()
    expect(
      within(editor).getByText(
        "Demande d'avoir possible jusqu'au vendredi 20 novembre 2026 inclus (deux jours ouvrés après la livraison).",
      ),
    ).toBeInTheDocument()
    expect(
      within(editor).getByText(
        'Sans réponse du magasin sous 48 h, une demande qui réduit le montant est acceptée automatiquement.',
      ),
    ).toBeInTheDocument()
    const send = within(editor).getByRole('button', { name: "Envoyer la demande d'avoir" })
    expect(send).toBeDisabled()

    const quantity = within(editor).getByLabelText('Quantité réclamée — Tomate (kg)')
    // An example, told as one: "-2,5" alone looked typed in (issue 37).
    expect(quantity).toHaveAttribute('placeholder', 'ex. : -2,5')
    expect(quantity).toHaveValue('')
    await user.type(quantity, 'deux')
    await user.tab()
    expect(within(editor).getByText(CLAIM_MESSAGES.notNumber)).toBeInTheDocument()
    // Never more than was ordered (10 kg ordered, 10 kg sent), nor more than two decimals.
    expect(within(editor).getByText(/Commandé : 10 kg, livré : 10 kg\./)).toBeInTheDocument()
    await user.clear(quantity)
    await user.type(quantity, '999999999')
    expect(
      within(editor).getByText(
        'La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (10kg)',
      ),
    ).toBeInTheDocument()
    await user.clear(quantity)
    await user.type(quantity, '-2,505')
    expect(within(editor).getByText(CLAIM_MESSAGES.notNumber)).toBeInTheDocument()
    await user.clear(quantity)
    expect(within(editor).getByText(CLAIM_MESSAGES.noQuantity)).toBeInTheDocument()
    await user.type(quantity, '-2,5')
    // The two types at once, as radio buttons (a list that opens was out of reach on a phone: issue 37).
    const types = within(editor).getByRole('radiogroup', { name: 'Type — Tomate' })
    await user.click(within(types).getByRole('radio', { name: 'Qualité' }))
    // With the keyboard: the arrows move between the two.
    await user.keyboard('{ArrowRight}')
    expect(within(types).getByRole('radio', { name: 'Quantité' })).toBeChecked()
    await user.keyboard('{ArrowLeft}')
    expect(within(types).getByRole('radio', { name: 'Qualité' })).toBeChecked()
    await user.type(within(editor).getByLabelText('Commentaire — Tomate'), 'Abîmées')
    expect(send).toBeEnabled()
    await user.click(send)

    const [url, init] = calls[0]
    expect(url).toBe('/api/deliveries/claim/o1/a')
    expect(JSON.parse(String(init?.body))).toEqual({
      deliveryLines: [{ _id: 'a-t', quantityClaimed: -2.5, claimType: 'quality', claimComment: 'Abîmées' }],
    })
    expect(await screen.findByText(DELIVERY_TOASTS.claimed)).toBeInTheDocument()
    expect(await within(editor).findByText("Demande d'avoir envoyée, en attente de réponse")).toBeInTheDocument()
    expect(
      within(editor).getByText(
        'Sans réponse du magasin 48 h après son envoi, la demande sera acceptée automatiquement.',
      ),
    ).toBeInTheDocument()
    // The pending claim can be modified, but not resent as it is: PRODUCT §5's
    // "Pas de changement à envoyer" says so from the start, beside the disabled button.
    const modify = within(editor).getByRole('button', { name: "Modifier la demande d'avoir" })
    expect(modify).toBeDisabled()
    expect(within(editor).getByRole('status')).toHaveTextContent(CLAIM_MESSAGES.noChange)
    expect(modify).toHaveAccessibleDescription(CLAIM_MESSAGES.noChange)
    const comment = within(editor).getByLabelText('Commentaire — Tomate')
    await user.type(comment, '!')
    await user.type(comment, '{Backspace}')
    expect(within(editor).getByText(CLAIM_MESSAGES.noChange)).toBeInTheDocument()
    expect(modify).toBeDisabled()
  })

  it('lets the shop answer a received claim and shows the invoice link', async () => {
    const user = userEvent.setup()
    const d = delivery('a', '2026-11-18', 'done', 5, {
      claimStatus: 'sent',
      deliveryLines: [
        {
          _id: 'a-t',
          product: 'tomate',
          price: 2.5,
          quantityExpected: 10,
          quantitySent: 10,
          quantityClaimed: -2,
          claimType: 'quantity',
        },
      ],
    })
    setUp('distributor', [
      order([d]),
      order([delivery('b', '2026-10-10', 'done', 1)], {
        _id: 'o0',
        date: '2026-10-01',
        invoice: {
          _id: 'i',
          number: 'FA-2026-000003',
          issuedAt: '2026-11-01T05:00:00Z',
          pa: { status: '200', label: 'Déposée' },
          credits: [
            {
              _id: 'c1',
              number: 'AV-2026-000002',
              kind: 'credit',
              deliveryId: 'x',
              issuedAt: '2026-11-02T09:00:00Z',
              pa: { status: '213', label: 'Rejetée' },
            },
            {
              _id: 'c2',
              number: 'FA-2026-000004',
              kind: 'complement',
              deliveryId: 'y',
              issuedAt: '2026-11-03T21:00:00Z',
            },
          ],
        },
      }),
    ])
    const calls = stubFetch(
      json(500, { status: 500, detail: 'Erreur interne du serveur.' }),
      json(200, order([{ ...d, claimStatus: 'accepted' }], { producer: 'p1' })),
    )
    renderWithProviders(<DeliveriesPage />)
    await user.click(screen.getByRole('tab', { name: 'Passées' }))
    // The claim waiting for the shop is flagged in its row, and only there (issue 37).
    expect(cells()).toEqual([
      ['Ferme des Aravis', '5', `Livrée${CLAIM_WAITING.distributor}`, '18/11/2026'],
      ['Ferme des Aravis', '1', 'Livrée', '10/10/2026'],
    ])
    await user.click(screen.getByRole('cell', { name: '5' }))
    let editor = screen.getByRole('region', { name: 'Bon de livraison' })
    expect(within(editor).getByText("Demande d'avoir reçue, en attente de réponse")).toBeInTheDocument()
    expect(within(editor).getByText('Tomate : -2 kg (Quantité)')).toBeInTheDocument()
    await user.click(within(editor).getByRole('button', { name: "Accepter l'avoir" }))
    expect(await screen.findByText(DELIVERY_TOASTS.reviewFailed)).toBeInTheDocument()
    await user.click(within(editor).getByRole('button', { name: "Accepter l'avoir" }))
    expect(await screen.findByText(DELIVERY_TOASTS.reviewed)).toBeInTheDocument()
    expect(calls.map((c) => c[0])).toEqual(['/api/deliveries/review/o1/a', '/api/deliveries/review/o1/a'])
    expect(JSON.parse(String(calls[1][1]?.body))).toEqual({ accepted: true })
    await waitFor(() => expect(within(editor).getByText("Demande d'avoir reçue, acceptée")).toBeInTheDocument())
    expect(screen.queryByText(CLAIM_WAITING.distributor)).not.toBeInTheDocument()
    expect(within(editor).queryByRole('button', { name: "Accepter l'avoir" })).not.toBeInTheDocument()

    await user.click(screen.getByRole('cell', { name: '1' }))
    editor = screen.getByRole('region', { name: 'Bon de livraison' })
    expect(within(editor).getByRole('link', { name: 'Télécharger la facture FA-2026-000003' })).toHaveAttribute(
      'href',
      '/print/invoice/o0',
    )
    // The credit notes and complementary invoices beside it (PRODUCT §16).
    expect(within(editor).getByRole('link', { name: "Télécharger l'avoir AV-2026-000002" })).toHaveAttribute(
      'href',
      '/print/creditnote/c1',
    )
    expect(
      within(editor).getByRole('link', { name: 'Télécharger la facture complémentaire FA-2026-000004' }),
    ).toHaveAttribute('href', '/print/creditnote/c2')
    // Their statuses on the producer's approved platform beside them, none
    // for a document not deposited (issue 38).
    expect(
      within(editor)
        .getAllByText(/^Plateforme : /)
        .map((b) => b.textContent),
    ).toEqual(['Plateforme : Déposée', 'Plateforme : Rejetée'])
  })
})

describe('claims within their window, and the answer they need', () => {
  it('offers a claim until the second working day after the delivery, a holiday skipped, and says a raising one waits', async () => {
    const user = userEvent.setup()
    // Friday 13 November: the delivery of Tuesday 10 is claimable until
    // today, Wednesday 11 being a holiday; that of Monday 9 no more.
    vi.setSystemTime(new Date('2026-11-13T10:00:00+01:00'))
    const open = delivery('a', '2026-11-10', 'done', 5, {
      deliveryLines: [
        { _id: 'a-t', product: 'tomate', price: 2.5, quantityExpected: 12, quantitySent: 10, quantityClaimed: 0 },
      ],
    })
    // Invoiced meanwhile: the claim stays possible within its window.
    setUp('producer', [
      order([open, delivery('b', '2026-11-09', 'done', 4)], {
        invoice: { _id: 'i', number: 'FA-2026-000001', issuedAt: '2026-11-12T20:00:00Z', credits: [] },
      }),
    ])
    stubFetch()
    renderWithProviders(<DeliveriesPage />)
    await user.click(screen.getByRole('tab', { name: 'Passées' }))
    await user.click(screen.getByRole('cell', { name: '5' }))
    let editor = screen.getByRole('region', { name: 'Bon de livraison' })
    expect(
      within(editor).getByText(
        "Demande d'avoir possible jusqu'au vendredi 13 novembre 2026 inclus (deux jours ouvrés après la livraison).",
      ),
    ).toBeInTheDocument()
    // Two kilos more than noted (12 ordered, 10 sent): the shop must answer.
    await user.type(within(editor).getByLabelText('Quantité réclamée — Tomate (kg)'), '2')
    expect(within(editor).getByText(RAISING_NOTE)).toBeInTheDocument()
    await user.clear(within(editor).getByLabelText('Quantité réclamée — Tomate (kg)'))
    await user.type(within(editor).getByLabelText('Quantité réclamée — Tomate (kg)'), '-2')
    expect(within(editor).queryByText(RAISING_NOTE)).not.toBeInTheDocument()

    await user.click(screen.getByRole('cell', { name: '4' }))
    editor = screen.getByRole('region', { name: 'Bon de livraison' })
    expect(
      within(editor).getByText(
        "Délai de demande d'avoir dépassé : elle était possible jusqu'au jeudi 12 novembre 2026.",
      ),
    ).toBeInTheDocument()
    expect(within(editor).queryByRole('button', { name: "Envoyer la demande d'avoir" })).not.toBeInTheDocument()
  })

  it('asks the shop to answer a claim that raises the amount, and tells the producer it waits', async () => {
    const user = userEvent.setup()
    const d = delivery('a', '2026-11-18', 'done', 5, {
      claimStatus: 'sent',
      claimSentAt: '2026-11-18T14:00:00Z',
      deliveryLines: [
        { _id: 'a-t', product: 'tomate', price: 2.5, quantityExpected: 12, quantitySent: 10, quantityClaimed: 2 },
      ],
    })
    for (const [role, text] of [
      [
        'distributor',
        "Cette demande augmente le montant facturé : elle n'est acceptée que par votre réponse. Merci d'y répondre.",
      ],
      [
        'producer',
        "Cette demande augmente le montant facturé : elle attend la réponse du magasin et n'est jamais acceptée sans elle.",
      ],
    ] as const) {
      setUp(role, [order([d])])
      stubFetch()
      const { unmount } = renderWithProviders(<DeliveriesPage />)
      await user.click(screen.getByRole('tab', { name: 'Passées' }))
      await user.click(screen.getByRole('cell', { name: '5' }))
      const editor = screen.getByRole('region', { name: 'Bon de livraison' })
      expect(within(editor).getByText(text)).toBeInTheDocument()
      if (role === 'distributor') expect(within(editor).getByRole('button', { name: "Accepter l'avoir" })).toBeEnabled()
      unmount()
      vi.restoreAllMocks()
    }
  })
})

describe('DeliveriesPage on a phone', () => {
  it('opens the shop’s note in a sheet on a tap of its row, where the claim is answered, and closes', async () => {
    asPhone()
    const user = userEvent.setup()
    const d = delivery('a', '2026-11-18', 'done', 5, {
      claimStatus: 'sent',
      deliveryLines: [
        { _id: 'a-t', product: 'tomate', price: 2.5, quantityExpected: 10, quantitySent: 10, quantityClaimed: -2 },
      ],
    })
    setUp('distributor', [order([d])])
    stubFetch(json(200, order([{ ...d, claimStatus: 'accepted' }], { producer: 'p1' })))
    renderWithProviders(<DeliveriesPage />)
    // No side pane, so no prompt to select a delivery.
    expect(screen.queryByText(/Sélectionnez une livraison/)).not.toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'Passées' }))
    const row = within(table()).getByRole('row', { name: /Livrée/ })
    await user.click(within(row).getByRole('cell', { name: '5' }))
    const sheet = await screen.findByRole('dialog', { name: DELIVERY_SHEET_TITLE })
    const editor = within(sheet).getByRole('region', { name: 'Bon de livraison' })
    await user.click(within(editor).getByRole('button', { name: "Accepter l'avoir" }))
    await waitFor(() => expect(within(editor).getByText("Demande d'avoir reçue, acceptée")).toBeInTheDocument())
    expect(screen.queryByText(CLAIM_WAITING.distributor)).not.toBeInTheDocument()
    // The way back: the table, the focus on the row, still selected.
    await user.click(within(sheet).getByRole('button', { name: 'Fermer le détail' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(row).toHaveAttribute('aria-selected', 'true')
    // Enter on the row opens it again.
    row.focus()
    await user.keyboard('{Enter}')
    expect(await screen.findByRole('dialog', { name: DELIVERY_SHEET_TITLE })).toBeInTheDocument()
  })

  it('opens the producer’s claim form in the sheet and keeps the export under the table', async () => {
    asPhone()
    const user = userEvent.setup()
    setUp('producer', [
      order([delivery('a', '2026-11-18', 'done', 5)], { invoice: undefined }),
      order([delivery('b', '2026-10-10', 'done', 1)], {
        _id: 'o0',
        date: '2026-10-01',
        invoice: { _id: 'i', number: 'FA-2026-000003', issuedAt: '2026-11-01T05:00:00Z', credits: [] },
      }),
    ])
    stubFetch()
    renderWithProviders(<DeliveriesPage />)
    expect(screen.getByRole('heading', { name: 'Export comptable' })).toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'Passées' }))
    expect(screen.queryByRole('region', { name: 'Bon de livraison' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('cell', { name: '5' }))
    const sheet = await screen.findByRole('dialog', { name: DELIVERY_SHEET_TITLE })
    expect(within(sheet).getByLabelText('Quantité réclamée — Tomate (kg)')).toBeInTheDocument()
    expect(within(sheet).getByRole('button', { name: "Envoyer la demande d'avoir" })).toBeDisabled()
  })
})

describe('the lock time in force', () => {
  it("follows the daemon's delivery.lock", async () => {
    const user = userEvent.setup()
    vi.setSystemTime(new Date('2026-11-24T08:00:00+01:00'))
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) =>
      String(input) === '/api/accounting'
        ? json(200, ACCOUNTING)
        : json(200, { ...SETTINGS, lock: '07:30', lockLabel: '7h30' }),
    )
    setUp('distributor', [order([delivery('a', '2026-11-24', 'planned', 7)])])
    renderWithProviders(<DeliveriesPage />)
    await user.click(screen.getByRole('cell', { name: '7' }))
    // Before the settings arrive the default 12h applies; then 7h30 locks it.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Annuler la livraison' })).not.toBeInTheDocument())
    expect(screen.getByText('Bon de livraison verrouillé à 7h30 le jour de la livraison.')).toBeInTheDocument()
  })
})
